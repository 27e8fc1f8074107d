//===- NeuralCostModel.cpp - Training and running the LibTorch models -----===//
//
// One trainer for the three networks: batches of whole (task, target)
// groups, so a ranking loss can compare schedules of the same task only;
// Adam; the epoch with the best validation pairwise accuracy is kept.
//
//===----------------------------------------------------------------------===//

#include "ModelKinds.h"
#include "tcl/Model/Metrics.h"
#include "tcl/Model/Networks.h"
#include "tcl/Support/Memory.h"

#include <torch/torch.h>

#include <chrono>
#include <random>
#include <sstream>

using namespace tcl;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// LambdaRank (Burges 2010) over groups of equal size: every pair (i, j)
/// of a group with label_i > label_j contributes a logistic loss on
/// s_i - s_j, weighted by how much swapping them would change the group's
/// NDCG at the current ranking. Gains are the labels (normalized
/// throughput), so near-best schedules matter most, which is what a tuner
/// needs from the top of the ranking.
static torch::Tensor lambdaRankLoss(const torch::Tensor &scores,
                                    const torch::Tensor &labels) {
  torch::Tensor ranks;
  torch::Tensor idealDcg;
  {
    torch::NoGradGuard noGrad;
    // 1-based position of each sample when sorted by score, descending.
    ranks = scores.argsort(/*dim=*/1, /*descending=*/true).argsort(/*dim=*/1, /*descending=*/false).to(torch::kFloat) + 1;
    torch::Tensor sortedLabels = std::get<0>(labels.sort(1, /*descending=*/true));
    torch::Tensor positions =
        torch::arange(1, labels.size(1) + 1, labels.options());
    idealDcg = (sortedLabels / torch::log2(positions + 1)).sum(1, true)
                   .clamp_min(1e-9);
  }
  torch::Tensor discount = 1.0 / torch::log2(ranks + 1);
  torch::Tensor gainDiff = labels.unsqueeze(2) - labels.unsqueeze(1);
  torch::Tensor discountDiff = discount.unsqueeze(2) - discount.unsqueeze(1);
  torch::Tensor weight =
      (gainDiff.abs() * discountDiff.abs() / idealDcg.unsqueeze(2)).detach();
  torch::Tensor better = (gainDiff > 0).to(scores.dtype());
  torch::Tensor scoreDiff = scores.unsqueeze(2) - scores.unsqueeze(1);
  torch::Tensor pairLoss = torch::softplus(-scoreDiff) * weight * better;
  return pairLoss.sum() / scores.size(0);
}

namespace {
/// A dataset as tensors: tokens [N, L, F], mask [N, L], labels [N].
struct Tensors {
  torch::Tensor tokens, mask, labels;
};

torch::Tensor maskOf(const uint8_t *lengths, size_t count, unsigned length) {
  torch::Tensor lengthTensor =
      torch::from_blob(const_cast<uint8_t *>(lengths),
                       {static_cast<int64_t>(count)}, torch::kUInt8)
          .to(torch::kLong);
  return (torch::arange(static_cast<int64_t>(length)).unsqueeze(0) < lengthTensor.unsqueeze(1))
      .to(torch::kFloat);
}

Tensors tensorsOf(const Dataset &dataset) {
  auto count = static_cast<int64_t>(dataset.size());
  Tensors tensors;
  tensors.tokens =
      torch::from_blob(const_cast<float *>(dataset.tokens.data()),
                       {count, dataset.length, static_cast<int64_t>(kFeatureSize)},
                       torch::kFloat);
  tensors.mask = maskOf(dataset.lengths.data(), dataset.size(), dataset.length);
  tensors.labels = torch::from_blob(const_cast<float *>(dataset.labels.data()),
                                    {count}, torch::kFloat);
  return tensors;
}

class NeuralCostModel : public CostModel {
public:
  NeuralCostModel(ModelOptions options,
                  std::shared_ptr<ScoringNetworkImpl> network)
      : CostModel(std::move(options)), network(std::move(network)) {
    // LibTorch allocates every intermediate of every batch.
    keepFreedMemoryForReuse();
  }

  int64_t parameterCount() const override {
    return tcl::parameterCount(*network);
  }

  llvm::Expected<TrainingReport> train(const Dataset &trainSet,
                                       const Dataset &validation) override {
    try {
      return trainOrThrow(trainSet, &validation, modelOptions.epochs);
    } catch (const c10::Error &error) {
      return makeError(std::string("training failed: ") + error.what_without_backtrace());
    }
  }

  llvm::Error update(const Dataset &data, unsigned steps) override {
    try {
      auto [groups, perGroup] = batchShape(data);
      size_t batchesPerEpoch = std::max<size_t>(
          1, data.size() / (static_cast<size_t>(groups) * perGroup));
      trainOrThrow(data, /*validation=*/nullptr,
                   static_cast<unsigned>((steps + batchesPerEpoch - 1) /
                                         batchesPerEpoch));
      return llvm::Error::success();
    } catch (const c10::Error &error) {
      return makeError(std::string("updating the model failed: ") +
                       error.what_without_backtrace());
    }
  }

  /// Scores, their MC-dropout standard deviation and the representation.
  /// The readout is linear, so the variance of a score under inverted
  /// dropout with probability p on its input e is exact and needs no
  /// sampling: p / (1 - p) * sum_j (w_j e_j)^2.
  Prediction predictForSampling(const SequenceBatch &batch) override {
    torch::set_num_threads(modelOptions.threads);
    torch::InferenceMode inference;
    network->eval();
    Prediction prediction;
    if (batch.count == 0)
      return prediction;
    torch::Tensor tokens = torch::from_blob(
        const_cast<float *>(batch.tokens),
        {static_cast<int64_t>(batch.count), batch.length,
         static_cast<int64_t>(kFeatureSize)},
        torch::kFloat);
    torch::Tensor mask = maskOf(batch.lengths, batch.count, batch.length);
    torch::Tensor embeddings = network->embed(tokens, mask).contiguous();
    torch::Tensor scores = network->readoutOf(embeddings).contiguous();
    double p = std::max(network->dropout, 0.05);
    torch::Tensor weight = network->readout()->weight.view({1, -1});
    torch::Tensor deviation =
        ((embeddings * weight).pow(2).sum(1) * (p / (1 - p))).sqrt().contiguous();
    auto copy = [](const torch::Tensor &tensor) {
      const float *data = tensor.data_ptr<float>();
      return std::vector<float>(data, data + tensor.numel());
    };
    prediction.scores = copy(scores);
    prediction.uncertainty = copy(deviation);
    prediction.embeddings = copy(embeddings);
    prediction.embeddingSize = embeddings.size(1);
    return prediction;
  }

  std::vector<float> predict(const SequenceBatch &batch) override {
    torch::set_num_threads(modelOptions.threads);
    torch::InferenceMode inference;
    network->eval();
    std::vector<float> scores(batch.count);
    constexpr size_t kChunk = 4096;
    for (size_t begin = 0; begin < batch.count; begin += kChunk) {
      size_t count = std::min(kChunk, batch.count - begin);
      torch::Tensor tokens = torch::from_blob(
          const_cast<float *>(batch.tokens + begin * batch.length * kFeatureSize),
          {static_cast<int64_t>(count), batch.length,
           static_cast<int64_t>(kFeatureSize)},
          torch::kFloat);
      torch::Tensor mask = maskOf(batch.lengths + begin, count, batch.length);
      torch::Tensor out = network->forward(tokens, mask).contiguous();
      std::memcpy(scores.data() + begin, out.data_ptr<float>(),
                  count * sizeof(float));
    }
    return scores;
  }

protected:
  llvm::Expected<std::string> serialize() const override {
    try {
      torch::serialize::OutputArchive archive;
      network->save(archive);
      std::ostringstream os;
      archive.save_to(os);
      return os.str();
    } catch (const c10::Error &error) {
      return makeError(std::string("cannot save the weights: ") +
                       error.what_without_backtrace());
    }
  }

  llvm::Error deserialize(llvm::StringRef bytes) override {
    try {
      torch::serialize::InputArchive archive;
      std::istringstream is(bytes.str());
      archive.load_from(is);
      network->load(archive);
      return llvm::Error::success();
    } catch (const c10::Error &error) {
      return makeError(std::string("the weights do not load: ") +
                       error.what_without_backtrace());
    }
  }

private:
  /// Groups per batch and samples drawn from each: the options', but never
  /// more groups than `data` has or more samples than its largest group,
  /// which would only repeat the same pairs (the tuner's small updates).
  std::pair<unsigned, unsigned> batchShape(const Dataset &data) const {
    size_t largest = 2;
    for (const DatasetGroup &group : data.groups)
      largest = std::max(largest, group.end - group.begin);
    unsigned groups = std::max<unsigned>(
        1, std::min<size_t>(modelOptions.groupsPerBatch, data.groups.size()));
    unsigned perGroup = std::max<unsigned>(
        2, std::min<size_t>(modelOptions.samplesPerGroup, largest));
    return {groups, perGroup};
  }

  /// Trains for at most `epochs` epochs. With a validation set (one without
  /// a pair to compare, such as an empty one, watches the training set),
  /// stops early and keeps the best epoch's weights; without one (the
  /// online update), keeps the last.
  TrainingReport trainOrThrow(const Dataset &trainSet,
                              const Dataset *validation, unsigned epochs) {
    auto start = std::chrono::steady_clock::now();
    torch::manual_seed(modelOptions.seed);
    torch::set_num_threads(modelOptions.threads);
    std::mt19937_64 random(modelOptions.seed);
    for (const std::string &target : trainSet.targets)
      if (!llvm::is_contained(trainedTargets, target))
        trainedTargets.push_back(target);
    TrainingReport report;
    if (trainSet.groups.empty())
      return report;

    Tensors data = tensorsOf(trainSet);
    torch::optim::Adam optimizer(network->parameters(),
                                 torch::optim::AdamOptions(modelOptions.learningRate));
    std::vector<size_t> groupOrder(trainSet.groups.size());
    std::iota(groupOrder.begin(), groupOrder.end(), 0);
    auto [groupsPerBatch, perGroup] = batchShape(trainSet);
    size_t batchesPerEpoch = std::max<size_t>(
        1, trainSet.size() / (static_cast<size_t>(groupsPerBatch) * perGroup));

    double bestAccuracy = -1;
    std::vector<torch::Tensor> bestWeights;
    unsigned sinceBest = 0;
    for (unsigned epoch = 1; epoch <= epochs; ++epoch) {
      network->train();
      double lossSum = 0;
      for (size_t batch = 0; batch < batchesPerEpoch; ++batch) {
        // Groups drawn without replacement within an epoch's pass.
        std::vector<int64_t> indices;
        for (unsigned g = 0; g < groupsPerBatch; ++g) {
          size_t position = (batch * groupsPerBatch + g) % groupOrder.size();
          if (position == 0)
            std::shuffle(groupOrder.begin(), groupOrder.end(), random);
          const DatasetGroup &group = trainSet.groups[groupOrder[position]];
          std::uniform_int_distribution<size_t> pick(group.begin, group.end - 1);
          for (unsigned s = 0; s < perGroup; ++s)
            indices.push_back(static_cast<int64_t>(pick(random)));
        }
        torch::Tensor index = torch::tensor(indices, torch::kLong);
        torch::Tensor scores =
            network->forward(data.tokens.index_select(0, index),
                             data.mask.index_select(0, index))
                .view({groupsPerBatch, perGroup});
        torch::Tensor labels =
            data.labels.index_select(0, index).view({groupsPerBatch, perGroup});
        torch::Tensor loss = modelOptions.loss == "mse"
                                 ? torch::mse_loss(scores, labels)
                                 : lambdaRankLoss(scores, labels);
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        lossSum += loss.item<double>();
      }
      report.epochs = epoch;
      if (!validation)
        continue;
      const Dataset &watch = validation->hasPairs() ? *validation : trainSet;
      double accuracy = pairwiseAccuracy(watch, predict(watch.all()));
      if (modelOptions.verbose)
        llvm::errs() << llvm::format("epoch %3u  loss %.5f  validation PCA %.4f\n",
                                     epoch, lossSum / batchesPerEpoch, accuracy);
      if (accuracy > bestAccuracy) {
        bestAccuracy = accuracy;
        report.bestEpoch = epoch;
        sinceBest = 0;
        bestWeights.clear();
        for (const torch::Tensor &parameter : network->parameters())
          bestWeights.push_back(parameter.detach().clone());
      } else if (++sinceBest >= modelOptions.patience) {
        break;
      }
    }
    if (!bestWeights.empty()) {
      torch::NoGradGuard noGrad;
      for (auto [parameter, best] : llvm::zip(network->parameters(), bestWeights))
        parameter.copy_(best);
    }
    report.validationAccuracy = bestAccuracy;
    report.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    return report;
  }

  std::shared_ptr<ScoringNetworkImpl> network;
};
} // namespace

llvm::Expected<std::unique_ptr<CostModel>>
tcl::createNeuralModel(const ModelOptions &options) {
  NetworkConfig config;
  config.kind = options.kind;
  config.featureSize = kFeatureSize;
  if (options.dModel)
    config.dModel = options.dModel;
  if (options.dState)
    config.dState = options.dState;
  if (options.layers)
    config.layers = options.layers;
  if (options.hidden)
    config.hidden = options.hidden;
  config.dropout = options.dropout;
  // The initial weights depend on the seed only.
  torch::manual_seed(options.seed);
  llvm::Expected<std::shared_ptr<ScoringNetworkImpl>> network =
      createNetwork(config);
  if (!network)
    return network.takeError();
  // Save the sizes the network has, not "default": a saved model must load
  // into the same network after the defaults change.
  ModelOptions resolved = options;
  resolved.dModel = config.dModel;
  resolved.dState = config.dState;
  resolved.layers = config.layers;
  resolved.hidden = config.hidden;
  return std::unique_ptr<CostModel>(
      new NeuralCostModel(resolved, std::move(*network)));
}
