//===- NetworksTest.cpp - Cost-model networks -----------------------------===//

#include "tcl/Model/Networks.h"

#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <torch/nn.h>
#include <torch/optim.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace tcl;

namespace {

std::shared_ptr<ScoringNetworkImpl> build(const NetworkConfig &config) {
  llvm::Expected<std::shared_ptr<ScoringNetworkImpl>> network =
      createNetwork(config);
  if (!network) {
    ADD_FAILURE() << llvm::toString(network.takeError());
    return nullptr;
  }
  return *network;
}

/// A network of `kind` without dropout, so that scores are deterministic in
/// training mode too (DropoutOnlyWhileTraining tests dropout).
/// "mamba-causal" is Mamba without backward blocks, the saved models' older
/// structure; "mamba-members" an ensemble of two narrower Mambas.
NetworkConfig configFor(const std::string &kind, int64_t featureSize) {
  NetworkConfig config;
  config.kind = llvm::StringRef(kind).starts_with("mamba") ? "mamba" : kind;
  config.bidirectional = kind != "mamba-causal";
  if (kind == "mamba-members") {
    config.members = 2;
    config.dModel = 16;
  }
  config.featureSize = featureSize;
  config.dropout = 0;
  return config;
}

/// A batch of `lengths.size()` sequences of random tokens, padded with zeros
/// to `length`.
struct Batch {
  torch::Tensor tokens, mask;
};

Batch randomBatch(const std::vector<int64_t> &lengths, int64_t length,
                  int64_t featureSize) {
  auto batch = static_cast<int64_t>(lengths.size());
  torch::Tensor mask = torch::zeros({batch, length});
  for (int64_t b = 0; b < batch; ++b)
    mask[b].narrow(0, 0, lengths[b]).fill_(1);
  torch::Tensor tokens =
      torch::randn({batch, length, featureSize}) * mask.unsqueeze(-1);
  return {tokens, mask};
}

class NetworkKindTest : public testing::TestWithParam<std::string> {
protected:
  void SetUp() override { torch::manual_seed(0); }
};

TEST_P(NetworkKindTest, ScoresEveryTokenSequence) {
  std::shared_ptr<ScoringNetworkImpl> network = build(configFor(GetParam(), 6));
  ASSERT_TRUE(network);
  Batch batch = randomBatch({1, 4, 7, 2, 7}, 7, 6);
  torch::Tensor scores = network->forward(batch.tokens, batch.mask);
  EXPECT_EQ(scores.sizes(), torch::IntArrayRef({5}));
  EXPECT_EQ(scores.scalar_type(), torch::kFloat);
  EXPECT_TRUE(torch::isfinite(scores).all().item<bool>());
}

TEST_P(NetworkKindTest, PaddingDoesNotChangeScores) {
  std::shared_ptr<ScoringNetworkImpl> network = build(configFor(GetParam(), 6));
  ASSERT_TRUE(network);
  Batch batch = randomBatch({1, 3, 5, 2}, 5, 6);
  torch::Tensor scores = network->forward(batch.tokens, batch.mask);

  // Three more padding steps, and garbage (huge values, NaN, inf) in all of
  // the padding.
  torch::Tensor mask =
      torch::cat({batch.mask, torch::zeros({batch.mask.size(0), 3})}, 1);
  torch::Tensor garbage = torch::randn({4, 8, 6}) * 1e4;
  garbage.index_put_({0, 1, 0}, std::numeric_limits<float>::quiet_NaN());
  garbage.index_put_({1, 7, 2}, std::numeric_limits<float>::infinity());
  torch::Tensor tokens = torch::where(
      mask.unsqueeze(-1) > 0,
      torch::cat({batch.tokens, torch::zeros({4, 3, 6})}, 1), garbage);
  torch::Tensor padded = network->forward(tokens, mask);
  EXPECT_TRUE(torch::allclose(scores, padded, /*rtol=*/1e-5, /*atol=*/1e-5))
      << scores << "\n"
      << padded;
}

TEST_P(NetworkKindTest, DropoutOnlyWhileTraining) {
  NetworkConfig config = configFor(GetParam(), 6);
  config.dropout = 0.5;
  std::shared_ptr<ScoringNetworkImpl> network = build(config);
  ASSERT_TRUE(network);
  Batch batch = randomBatch({3, 5, 2, 4}, 5, 6);
  network->train();
  torch::Tensor first = network->forward(batch.tokens, batch.mask);
  torch::Tensor second = network->forward(batch.tokens, batch.mask);
  EXPECT_FALSE(torch::allclose(first, second));
  network->eval();
  EXPECT_TRUE(torch::equal(network->forward(batch.tokens, batch.mask),
                           network->forward(batch.tokens, batch.mask)));
  // The representation is what the readout scores.
  torch::NoGradGuard noGrad;
  torch::Tensor embedding = network->embed(batch.tokens, batch.mask);
  EXPECT_EQ(embedding.size(0), 4);
  EXPECT_TRUE(torch::allclose(network->readoutOf(embedding),
                              network->forward(batch.tokens, batch.mask)));
}

/// Inference takes other code paths (slices of the batch, fused CPU kernels,
/// oneDNN matmuls) than training: both must score alike.
TEST_P(NetworkKindTest, InferenceMatchesTraining) {
  std::shared_ptr<ScoringNetworkImpl> network = build(configFor(GetParam(), 6));
  ASSERT_TRUE(network);
  std::vector<int64_t> lengths(600);
  for (size_t i = 0; i < lengths.size(); ++i)
    lengths[i] = 1 + static_cast<int64_t>(i % 10);
  Batch batch = randomBatch(lengths, 10, 6);
  torch::Tensor training = network->forward(batch.tokens, batch.mask);
  ASSERT_TRUE(training.requires_grad());
  torch::InferenceMode inference;
  torch::Tensor scores = network->forward(batch.tokens, batch.mask);
  EXPECT_TRUE(torch::allclose(scores, training, 1e-4, 1e-5));
}

/// 200 full-batch Adam steps on a task every network can represent: the
/// score is the sum of feature 0 over the real tokens.
TEST_P(NetworkKindTest, TrainingReducesLoss) {
  std::shared_ptr<ScoringNetworkImpl> network = build(configFor(GetParam(), 4));
  ASSERT_TRUE(network);
  std::vector<int64_t> lengths(128);
  for (size_t i = 0; i < lengths.size(); ++i)
    lengths[i] = 3 + static_cast<int64_t>(i % 8);
  Batch batch = randomBatch(lengths, 10, 4);
  torch::Tensor target = batch.tokens.select(2, 0).sum(1);

  torch::optim::Adam optimizer(network->parameters(),
                               torch::optim::AdamOptions(3e-3));
  auto loss = [&] {
    return torch::mse_loss(network->forward(batch.tokens, batch.mask), target);
  };
  double initial = loss().item<double>();
  for (int step = 0; step < 200; ++step) {
    optimizer.zero_grad();
    torch::Tensor value = loss();
    value.backward();
    optimizer.step();
  }
  double final = loss().item<double>();
  std::printf("%s: MSE %.4g -> %.4g\n", GetParam().c_str(), initial, final);
  EXPECT_LT(final, initial / 5);
}

/// Prints (never asserts: the machine is shared) inference throughput at the
/// search's batch size with the default sizes.
TEST_P(NetworkKindTest, ReportsInferenceThroughput) {
  torch::set_num_threads(2);
  std::shared_ptr<ScoringNetworkImpl> network =
      build(configFor(GetParam(), 48));
  ASSERT_TRUE(network);
  network->eval();
  Batch batch = randomBatch(std::vector<int64_t>(4096, 10), 10, 48);
  torch::InferenceMode inference;
  std::vector<double> seconds;
  for (int repeat = 0; repeat < 6; ++repeat) {
    auto start = std::chrono::steady_clock::now();
    network->forward(batch.tokens, batch.mask);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  // The first call warms up the allocator and the thread pool.
  std::sort(seconds.begin() + 1, seconds.end());
  std::printf("%s: best %.0f, median %.0f sequences/s (B=4096, L=10, F=48, "
              "2 threads, %lld parameters)\n",
              GetParam().c_str(), 4096 / seconds[1], 4096 / seconds[3],
              static_cast<long long>(parameterCount(*network)));
}

INSTANTIATE_TEST_SUITE_P(Kinds, NetworkKindTest,
                         testing::Values("mamba", "mamba-causal", "mamba-members",
                                         "tenset-mlp", "attention"),
                         [](const testing::TestParamInfo<std::string> &info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(Networks, RejectsUnknownKindsAndBadSizes) {
  llvm::Expected<std::shared_ptr<ScoringNetworkImpl>> unknown =
      createNetwork(configFor("lstm", 8));
  ASSERT_FALSE(unknown);
  EXPECT_NE(llvm::toString(unknown.takeError()).find("unknown network kind"),
            std::string::npos);

  NetworkConfig heads = configFor("attention", 8);
  heads.heads = 5;
  llvm::Expected<std::shared_ptr<ScoringNetworkImpl>> badHeads =
      createNetwork(heads);
  ASSERT_FALSE(badHeads);
  llvm::consumeError(badHeads.takeError());

  for (auto [kind, members] : {std::pair<const char *, int64_t>{"attention", 2},
                                {"tenset-mlp", 2}, {"mamba", 0}}) {
    NetworkConfig ensemble = configFor(kind, 8);
    ensemble.members = members;
    llvm::Expected<std::shared_ptr<ScoringNetworkImpl>> rejected =
        createNetwork(ensemble);
    ASSERT_FALSE(rejected) << kind << " with " << members << " members";
    EXPECT_NE(llvm::toString(rejected.takeError()).find("members"),
              std::string::npos);
  }

  llvm::Expected<std::shared_ptr<ScoringNetworkImpl>> noFeatures =
      createNetwork(configFor("mamba", 0));
  ASSERT_FALSE(noFeatures);
  EXPECT_NE(llvm::toString(noFeatures.takeError()).find("featureSize"),
            std::string::npos);
}

TEST(Networks, AttentionRejectsSequencesBeyondItsPositions) {
  std::shared_ptr<ScoringNetworkImpl> network =
      build(configFor("attention", 4));
  ASSERT_TRUE(network);
  Batch batch = randomBatch({65}, 65, 4);
  EXPECT_THROW(network->forward(batch.tokens, batch.mask), c10::Error);
}

TEST(Networks, MambaHasFewerParametersThanAttention) {
  NetworkConfig mamba = configFor("mamba", 48);
  NetworkConfig attention = configFor("attention", 48);
  mamba.dModel = attention.dModel = 64;
  mamba.dState = 16;
  mamba.layers = attention.layers = 2;
  attention.heads = 4;
  std::shared_ptr<ScoringNetworkImpl> mambaNet = build(mamba);
  std::shared_ptr<ScoringNetworkImpl> attentionNet = build(attention);
  std::shared_ptr<ScoringNetworkImpl> mlpNet =
      build(configFor("tenset-mlp", 48));
  ASSERT_TRUE(mambaNet && attentionNet && mlpNet);
  int64_t mambaCount = parameterCount(*mambaNet);
  int64_t attentionCount = parameterCount(*attentionNet);
  std::printf("F=48, d_model 64, 2 layers: mamba (d_state 16) %lld, "
              "attention (4 heads) %lld; "
              "tenset-mlp (hidden 256) %lld parameters\n",
              static_cast<long long>(mambaCount),
              static_cast<long long>(attentionCount),
              static_cast<long long>(parameterCount(*mlpNet)));
  EXPECT_LT(mambaCount, attentionCount);
}

/// An ensemble scores the mean of its members' scores, and each member's
/// score depends on its own weights only, so that each can learn from its
/// own loss.
TEST(Networks, MambaMembersAverageTheirOwnScores) {
  torch::manual_seed(0);
  std::shared_ptr<ScoringNetworkImpl> network =
      build(configFor("mamba-members", 6));
  ASSERT_TRUE(network);
  EXPECT_EQ(network->members(), 2);
  Batch batch = randomBatch({3, 5, 2, 4}, 5, 6);
  torch::Tensor representation = network->embed(batch.tokens, batch.mask);
  EXPECT_EQ(representation.sizes(), torch::IntArrayRef({4, 32}));
  torch::Tensor members = network->memberScoresOf(representation);
  EXPECT_EQ(members.sizes(), torch::IntArrayRef({4, 2}));
  EXPECT_TRUE(torch::allclose(members.mean(1),
                              network->forward(batch.tokens, batch.mask),
                              1e-5, 1e-6));

  // The second member's loss reaches none of the first member's weights.
  members.select(1, 1).sum().backward();
  for (const auto &item : network->named_parameters()) {
    bool secondMember = llvm::StringRef(item.key()).starts_with("member1.");
    bool readout = llvm::StringRef(item.key()).starts_with("head_out.");
    torch::Tensor gradient = item.value().grad();
    bool touched = gradient.defined() && gradient.abs().sum().item<float>() > 0;
    if (!secondMember && !readout) {
      EXPECT_FALSE(touched) << item.key();
    }
  }

  // The first member keeps a one-member network's weight names (models
  // saved before members existed load), the second has its own.
  NetworkConfig single = configFor("mamba", 6);
  single.dModel = 16;
  std::shared_ptr<ScoringNetworkImpl> one = build(single);
  ASSERT_TRUE(one);
  int64_t memberParameters = 0;
  auto ensembleNames = network->named_parameters();
  for (const auto &item : one->named_parameters()) {
    if (item.key().rfind("head_out.", 0) == 0)
      continue;
    memberParameters += item.value().numel();
    EXPECT_TRUE(ensembleNames.contains(item.key())) << item.key();
    EXPECT_TRUE(ensembleNames.contains("member1." + item.key())) << item.key();
  }
  EXPECT_EQ(parameterCount(*network), 2 * memberParameters + 2 * 16 + 1);
}

/// Changing the last real token must move the score; a causal model that
/// ignored it would be scoring a truncated schedule.
TEST(Networks, LastRealTokenSkipsPadding) {
  torch::Tensor x = torch::arange(12, torch::kFloat).view({2, 3, 2});
  torch::Tensor mask = torch::tensor({1.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f}).view({2, 3});
  torch::Tensor last = lastRealToken(x, mask);
  EXPECT_TRUE(torch::equal(last, torch::tensor({2.0f, 3.0f, 10.0f, 11.0f}).view({2, 2})));
}

TEST(Networks, RealTokenReversalLeavesPaddingInPlace) {
  torch::Tensor x = torch::arange(12, torch::kFloat).view({2, 3, 2});
  torch::Tensor mask = torch::tensor({1.0f, 1.0f, 0.0f, 1.0f, 1.0f, 1.0f}).view({2, 3});
  torch::Tensor reversal = realTokenReversal(mask);
  torch::Tensor reversed = reverseRealTokens(x, reversal);
  EXPECT_TRUE(torch::equal(
      reversed, torch::tensor({2.0f, 3.0f, 0.0f, 1.0f, 4.0f, 5.0f, 10.0f, 11.0f,
                               8.0f, 9.0f, 6.0f, 7.0f})
                    .view({2, 3, 2})));
  EXPECT_TRUE(torch::equal(reverseRealTokens(reversed, reversal), x));
}

TEST(Networks, MambaSeesTheLastRealToken) {
  torch::manual_seed(0);
  std::shared_ptr<ScoringNetworkImpl> network = build(configFor("mamba", 6));
  ASSERT_TRUE(network);
  Batch batch = randomBatch({4}, 6, 6);
  torch::Tensor before = network->forward(batch.tokens, batch.mask);
  batch.tokens[0][3] += 1;
  torch::Tensor after = network->forward(batch.tokens, batch.mask);
  EXPECT_GT((before - after).abs().item<float>(), 1e-4);
}

/// The scan written as the paper's equations, one sample, channel, step and
/// state at a time, in double precision; `z` and `bias` may be undefined.
torch::Tensor naiveScan(const torch::Tensor &x, const torch::Tensor &delta,
                        const torch::Tensor &A, const torch::Tensor &B,
                        const torch::Tensor &C, const torch::Tensor &D,
                        const torch::Tensor &z, const torch::Tensor &bias) {
  int64_t batch = x.size(0), length = x.size(1), channels = x.size(2),
          states = A.size(1);
  auto at = [](const torch::Tensor &t, int64_t b, int64_t i, int64_t j) {
    return static_cast<double>(t[b][i][j].item<float>());
  };
  torch::Tensor y = torch::zeros_like(x);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t d = 0; d < channels; ++d) {
      std::vector<double> h(states, 0.0);
      for (int64_t t = 0; t < length; ++t) {
        double dt = at(delta, b, t, d), xt = at(x, b, t, d);
        if (bias.defined())
          dt = std::log1p(std::exp(dt + bias[d].item<double>()));
        double sum = D[d].item<double>() * xt;
        for (int64_t n = 0; n < states; ++n) {
          h[n] = std::exp(dt * A[d][n].item<double>()) * h[n] +
                 dt * at(B, b, t, n) * xt;
          sum += at(C, b, t, n) * h[n];
        }
        if (z.defined())
          sum *= at(z, b, t, d) / (1 + std::exp(-at(z, b, t, d)));
        y[b][t][d] = sum;
      }
    }
  return y;
}

TEST(SelectiveScan, MatchesNaiveLoops) {
  torch::manual_seed(1);
  int64_t batch = 3, length = 6, channels = 5, states = 4;
  torch::Tensor x = torch::randn({batch, length, channels});
  torch::Tensor delta = torch::randn({batch, length, channels}) * 3;
  torch::Tensor A = -torch::rand({channels, states}) * 2;
  torch::Tensor B = torch::randn({batch, length, states});
  torch::Tensor C = torch::randn({batch, length, states});
  torch::Tensor D = torch::randn({channels});
  torch::Tensor z = torch::randn({batch, length, channels}) * 4;
  torch::Tensor bias = torch::randn({channels});
  torch::Tensor expected = naiveScan(x, delta, A, B, C, D, z, bias);

  // With autograd (training: tensor ops) and without (inference: the fused
  // kernel).
  torch::Tensor withGrad =
      selectiveScan(x, delta, A.requires_grad_(), B, C, D, z, bias);
  EXPECT_TRUE(torch::allclose(withGrad, expected, 1e-4, 1e-5));
  withGrad.sum().backward();
  EXPECT_TRUE(torch::isfinite(A.grad()).all().item<bool>());
  torch::InferenceMode inference;
  EXPECT_TRUE(torch::allclose(selectiveScan(x, delta, A, B, C, D, z, bias),
                              expected, 1e-4, 1e-5));
  // Without the optional bias and gate.
  torch::Tensor positive = torch::rand({batch, length, channels});
  EXPECT_TRUE(torch::allclose(
      selectiveScan(x, positive, A, B, C, D),
      naiveScan(x, positive, A, B, C, D, torch::Tensor(), torch::Tensor()),
      1e-4, 1e-5));
}

/// The fused backward pass (float32) against autograd through the tensor
/// operations (float64, which the fused kernels do not take): every
/// operand's gradient, with and without the delta bias and the gate.
TEST(SelectiveScan, FusedGradientsMatchTensorOperations) {
  torch::manual_seed(4);
  int64_t batch = 3, length = 7, channels = 5, states = 4;
  for (bool optional : {true, false}) {
    std::vector<torch::Tensor> operands = {
        torch::randn({batch, length, channels}),
        optional ? torch::randn({batch, length, channels})
                 : torch::rand({batch, length, channels}),
        -torch::rand({channels, states}) * 2,
        torch::randn({batch, length, states}),
        torch::randn({batch, length, states}),
        torch::randn({channels}),
        optional ? torch::randn({batch, length, channels}) * 2
                 : torch::Tensor(),
        optional ? torch::randn({channels}) : torch::Tensor()};
    torch::Tensor weights = torch::randn({batch, length, channels});
    auto gradients = [&](torch::ScalarType type) {
      std::vector<torch::Tensor> leaves;
      for (const torch::Tensor &operand : operands)
        leaves.push_back(operand.defined()
                             ? operand.to(type).clone().requires_grad_()
                             : operand);
      torch::Tensor y = selectiveScan(leaves[0], leaves[1], leaves[2],
                                      leaves[3], leaves[4], leaves[5],
                                      leaves[6], leaves[7]);
      (y * weights.to(type)).sum().backward();
      std::vector<torch::Tensor> grads;
      for (const torch::Tensor &leaf : leaves)
        grads.push_back(leaf.defined() ? leaf.grad().to(torch::kFloat)
                                       : leaf);
      return grads;
    };
    std::vector<torch::Tensor> fused = gradients(torch::kFloat);
    std::vector<torch::Tensor> reference = gradients(torch::kDouble);
    for (size_t i = 0; i < operands.size(); ++i) {
      SCOPED_TRACE("operand " + std::to_string(i));
      ASSERT_EQ(fused[i].defined(), reference[i].defined());
      if (fused[i].defined()) {
        EXPECT_TRUE(torch::allclose(fused[i], reference[i], 1e-3, 1e-4));
      }
    }
  }
}

/// The conv against LibTorch's grouped conv1d with left-only padding.
TEST(CausalConvSilu, MatchesGroupedConv1d) {
  torch::manual_seed(3);
  for (int64_t length : {1, 3, 7}) {
    torch::Tensor x = torch::randn({2, length, 5});
    torch::Tensor weight = torch::randn({5, 4}), bias = torch::randn({5});
    torch::Tensor expected = torch::silu(
        torch::nn::functional::conv1d(
            torch::constant_pad_nd(x.transpose(1, 2), {3, 0}),
            weight.unsqueeze(1),
            torch::nn::functional::Conv1dFuncOptions().bias(bias).groups(5))
            .transpose(1, 2));
    torch::Tensor withGrad = causalConvSilu(x, weight.requires_grad_(), bias);
    EXPECT_TRUE(torch::allclose(withGrad, expected, 1e-5, 1e-6));
    torch::InferenceMode inference;
    EXPECT_TRUE(
        torch::allclose(causalConvSilu(x, weight, bias), expected, 1e-5, 1e-6));
  }
}

/// y_t depends on inputs up to t only.
TEST(SelectiveScan, IsCausal) {
  torch::manual_seed(2);
  torch::Tensor x = torch::randn({2, 5, 3});
  torch::Tensor delta = torch::rand({2, 5, 3});
  torch::Tensor A = -torch::rand({3, 4});
  torch::Tensor B = torch::randn({2, 5, 4}), C = torch::randn({2, 5, 4});
  torch::Tensor D = torch::ones({3});
  torch::Tensor y = selectiveScan(x, delta, A, B, C, D);
  torch::Tensor x2 = x.clone(), B2 = B.clone();
  x2.select(1, 3).add_(1);
  B2.select(1, 3).add_(1);
  torch::Tensor y2 = selectiveScan(x2, delta, A, B2, C, D);
  EXPECT_TRUE(torch::equal(y.narrow(1, 0, 3), y2.narrow(1, 0, 3)));
  EXPECT_FALSE(torch::allclose(y.narrow(1, 3, 2), y2.narrow(1, 3, 2)));
}

} // namespace
