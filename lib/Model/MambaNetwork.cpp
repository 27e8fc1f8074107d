//===- MambaNetwork.cpp - Selective state-space cost model ----------------===//
//
// Mamba (Gu & Dao 2023, "Mamba: Linear-Time Sequence Modeling with Selective
// State Spaces") over a schedule's token sequence, with the reference
// implementation's layer structure and initialization (mamba_simple.py).
// Padding sits at the end of each sequence and every layer is causal, so the
// real tokens' outputs never see it; pooling then skips it. Bidirectional
// networks run every second block over each sequence's real tokens
// reversed in place, with the padding left at the end. The elementwise work
// between the projections runs in fused operations (MambaOperations.cpp).
//
//===----------------------------------------------------------------------===//

#include "tcl/Model/Networks.h"

#include <torch/nn.h>

#include <cmath>

using namespace tcl;
namespace nn = torch::nn;
namespace F = torch::nn::functional;

//===----------------------------------------------------------------------===//
// The network
//===----------------------------------------------------------------------===//

namespace {

/// RMSNorm (Zhang & Sennrich 2019), Mamba's normalization: LayerNorm without
/// the mean subtraction and bias. LibTorch 1.13 has none.
class RmsNormImpl : public nn::Module {
public:
  explicit RmsNormImpl(int64_t size)
      : weight(register_parameter("weight", torch::ones({size}))) {}

  torch::Tensor forward(const torch::Tensor &x) { return rmsNorm(x, weight); }

private:
  torch::Tensor weight;
};
TORCH_MODULE(RmsNorm);

/// One residual block: x + Mamba(RMSNorm(x)).
class MambaBlockImpl : public nn::Module {
public:
  explicit MambaBlockImpl(const NetworkConfig &config)
      : dInner(config.expand * config.dModel), dState(config.dState),
        dtRank((config.dModel + 15) / 16),
        norm(register_module("norm", RmsNorm(config.dModel))),
        inProj(register_module(
            "in_proj",
            nn::Linear(
                nn::LinearOptions(config.dModel, 2 * dInner).bias(false)))),
        conv(register_module(
            "conv1d", nn::Conv1d(nn::Conv1dOptions(dInner, dInner, config.dConv)
                                     .groups(dInner)))),
        xProj(register_module(
            "x_proj",
            nn::Linear(
                nn::LinearOptions(dInner, dtRank + 2 * dState).bias(false)))),
        dtProj(register_module("dt_proj", nn::Linear(dtRank, dInner))),
        outProj(register_module(
            "out_proj",
            nn::Linear(nn::LinearOptions(dInner, config.dModel).bias(false)))) {
    // S4D-real: A = -(1, 2, ..., N) in every channel, stored as log(-A) so
    // that A stays negative (a decaying state) whatever training does.
    aLog = register_parameter(
        "A_log",
        torch::arange(1, dState + 1, torch::kFloat).log().repeat({dInner, 1}));
    d = register_parameter("D", torch::ones({dInner}));
    initializeDelta();
  }

  torch::Tensor forward(const torch::Tensor &input) {
    std::vector<torch::Tensor> xz =
        linearForward(norm(input), inProj).chunk(2, -1);
    torch::Tensor x =
        causalConvSilu(xz[0], conv->weight.squeeze(1), conv->bias);
    // Selection: delta, B and C are functions of the input at each step.
    std::vector<torch::Tensor> dbc =
        linearForward(x, xProj).split_with_sizes({dtRank, dState, dState}, -1);
    // dt_proj's bias and the softplus are applied inside the scan.
    torch::Tensor rawDelta = linearForward(dbc[0], dtProj->weight);
    torch::Tensor y = selectiveScan(x, rawDelta, -torch::exp(aLog), dbc[1],
                                    dbc[2], d, xz[1], dtProj->bias);
    return input + linearForward(y, outProj);
  }

private:
  /// Mamba's delta initialization: softplus(dt_proj bias) starts log-uniform
  /// in [1e-3, 1e-1], so channels start with time scales from ~10 to ~1000
  /// steps; the weights start small so that the input only nudges them.
  void initializeDelta() {
    torch::NoGradGuard noGrad;
    double std = 1.0 / std::sqrt(static_cast<double>(dtRank));
    dtProj->weight.uniform_(-std, std);
    const double dtMin = 1e-3, dtMax = 1e-1;
    torch::Tensor dt =
        torch::exp(torch::rand({dInner}) * (std::log(dtMax) - std::log(dtMin)) +
                   std::log(dtMin))
            .clamp_min(1e-4);
    // Inverse of softplus: dt + log(1 - exp(-dt)).
    dtProj->bias.copy_(dt + torch::log(-torch::expm1(-dt)));
  }

  int64_t dInner, dState, dtRank;
  RmsNorm norm;
  nn::Linear inProj;
  nn::Conv1d conv;
  nn::Linear xProj, dtProj, outProj;
  torch::Tensor aLog, d;
};
TORCH_MODULE(MambaBlock);

/// One member of a Mamba network: token embedding, residual blocks, final
/// norm and the head's hidden layer, up to the representation a readout
/// scores.
class MambaStreamImpl : public nn::Module {
public:
  /// The blocks come later (addBlocks): a network draws every stream's
  /// embedding and head weights, then its readout's, then the blocks', the
  /// order a one-member network has always drawn them in, so that a seed
  /// still gives the weights it gave before networks had members.
  /// Its layers are registered in `owner`, which names their weights.
  MambaStreamImpl(const NetworkConfig &config, nn::Module &owner)
      : featureSize(config.featureSize), bidirectional(config.bidirectional),
        embedIn(owner.register_module(
            "embed", nn::Linear(config.featureSize, config.dModel))),
        blocks(owner.register_module("blocks", nn::ModuleList())),
        norm(owner.register_module("norm", RmsNorm(config.dModel))),
        headHidden(owner.register_module(
            "head_hidden",
            nn::Linear((bidirectional ? 3 : 2) * config.dModel,
                       config.dModel))) {}

  void addBlocks(const NetworkConfig &config) {
    for (int64_t i = 0; i < config.layers; ++i)
      blocks->push_back(MambaBlock(config));
  }

  torch::Tensor represent(const torch::Tensor &tokens,
                          const torch::Tensor &mask) {
    torch::Tensor x =
        linearForward(maskedTokens(tokens, mask, featureSize), embedIn);
    torch::Tensor reversal;
    if (bidirectional)
      reversal = realTokenReversal(mask);
    for (size_t index = 0; index < blocks->size(); ++index) {
      bool backward = bidirectional && index % 2 == 1;
      if (backward)
        x = reverseRealTokens(x, reversal);
      x = blocks[index]->as<MambaBlock>()->forward(x);
      if (backward)
        x = reverseRealTokens(x, reversal);
    }
    x = norm(x);
    // The last real token's state has read the whole schedule in every
    // forward block, the first token's in the last backward one; the mean
    // keeps every step's own output within one linear map of the head.
    std::vector<torch::Tensor> pooled = {maskedMeanPool(x, mask),
                                         lastRealToken(x, mask)};
    if (bidirectional)
      pooled.push_back(x.select(1, 0));
    return F::silu(linearForward(torch::cat(pooled, 1), headHidden));
  }

private:
  int64_t featureSize;
  bool bidirectional;
  /// Token features to the residual stream ("embed" in saved weights).
  nn::Linear embedIn;
  nn::ModuleList blocks;
  RmsNorm norm;
  nn::Linear headHidden;
};

/// Mamba streams side by side and one readout of their representations.
/// The first stream's weights keep the names a one-member network has
/// always saved ("embed", "blocks", ...), so models saved before members
/// existed load; member m's are "member<m>.embed" and so on.
class MambaNetwork : public ScoringNetworkImpl {
public:
  explicit MambaNetwork(const NetworkConfig &config) {
    for (int64_t m = 0; m < config.members; ++m) {
      nn::Module *owner = this;
      if (m > 0)
        owner = register_module("member" + std::to_string(m),
                                std::make_shared<nn::Module>())
                    .get();
      streams.push_back(std::make_shared<MambaStreamImpl>(config, *owner));
    }
    headOut = register_module(
        "head_out", nn::Linear(config.members * config.dModel, 1));
    for (const std::shared_ptr<MambaStreamImpl> &stream : streams)
      stream->addBlocks(config);
  }

  const nn::Linear &readout() const override { return headOut; }
  int64_t members() const override {
    return static_cast<int64_t>(streams.size());
  }

protected:
  torch::Tensor represent(const torch::Tensor &tokens,
                          const torch::Tensor &mask) override {
    if (streams.size() == 1)
      return streams.front()->represent(tokens, mask);
    std::vector<torch::Tensor> parts;
    for (const std::shared_ptr<MambaStreamImpl> &stream : streams)
      parts.push_back(stream->represent(tokens, mask));
    return torch::cat(parts, 1);
  }

private:
  /// Not registered themselves: their layers are, in `this` or in a
  /// "member<m>" holder.
  std::vector<std::shared_ptr<MambaStreamImpl>> streams;
  nn::Linear headOut{nullptr};
};

} // namespace

std::shared_ptr<ScoringNetworkImpl>
tcl::createMambaNetwork(const NetworkConfig &config) {
  return std::make_shared<MambaNetwork>(config);
}
