//===- NeuralCostModel.cpp - Training and running the LibTorch models -----===//
//
// One trainer for the three networks: batches of whole (task, target)
// groups, so a ranking loss can compare schedules of the same task only;
// Adam; the epoch with the best validation score (ModelOptions::
// earlyStopping) is kept, in weights averaged over the last steps.
//
//===----------------------------------------------------------------------===//

#include "NeuralCostModel.h"
#include "ModelKinds.h"
#include "tcl/Model/Metrics.h"
#include "tcl/Support/Memory.h"

#include <chrono>
#include <dlfcn.h>
#include <sstream>

using namespace tcl;

/// LLVM's OpenMP runtime, which LibTorch's parallel loops run on, keeps a
/// worker spinning for 200 ms after each parallel region by default. A
/// training step is hundreds of small regions, so its workers never sleep
/// and take the cores that the tuner's compiler, or a benchmark beside it,
/// needs: on a busy 2-core machine, replaying the tuner on BERT-base's
/// tasks took 168 s with the default and 93 s with workers that sleep at
/// once, for identical results.
/// Looked up rather than linked: another OpenMP runtime may be the one
/// loaded, and then nothing changes.
static void sleepIdleOpenMpWorkers() {
  using SetBlocktime = void (*)(int);
  static const auto setBlocktime = reinterpret_cast<SetBlocktime>(
      dlsym(RTLD_DEFAULT, "kmp_set_blocktime"));
  if (setBlocktime)
    setBlocktime(0);
}

void tcl::useThreads(unsigned threads) {
  if (at::get_num_threads() != static_cast<int>(threads))
    torch::set_num_threads(static_cast<int>(threads));
  sleepIdleOpenMpWorkers();
}

/// LambdaRank (Burges 2010) over groups of equal size: every pair (i, j)
/// of a group with label_i > label_j contributes a logistic loss on
/// s_i - s_j, weighted by how much swapping them would change the group's
/// NDCG at the current ranking. Gains are `labels` as given: the trainer
/// passes normalized throughput to ModelOptions::gainExponent, so that
/// near-best schedules matter most, which is what a tuner needs from the
/// top of the ranking.
static torch::Tensor lambdaRankLoss(const torch::Tensor &scores,
                                    const torch::Tensor &labels) {
  torch::Tensor ranks;
  torch::Tensor idealDcg;
  {
    torch::NoGradGuard noGrad;
    // 1-based position of each sample when sorted by score, descending.
    ranks = scores.argsort(/*dim=*/1, /*descending=*/true)
                .argsort(/*dim=*/1, /*descending=*/false)
                .to(torch::kFloat) +
            1;
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

torch::Tensor NeuralCostModel::rankingLoss(const torch::Tensor &scores,
                                           const torch::Tensor &labels) const {
  if (modelOptions.loss == "mse")
    return torch::mse_loss(scores, labels);
  return lambdaRankLoss(scores, modelOptions.gainExponent == 1
                                    ? labels
                                    : labels.pow(modelOptions.gainExponent));
}

static torch::Tensor maskOf(const uint8_t *lengths, size_t count,
                            unsigned length) {
  torch::Tensor lengthTensor =
      torch::from_blob(const_cast<uint8_t *>(lengths),
                       {static_cast<int64_t>(count)}, torch::kUInt8)
          .to(torch::kLong);
  return (torch::arange(static_cast<int64_t>(length)).unsqueeze(0) <
          lengthTensor.unsqueeze(1))
      .to(torch::kFloat);
}

DatasetTensors tcl::tensorsOf(const Dataset &dataset) {
  auto count = static_cast<int64_t>(dataset.size());
  DatasetTensors tensors;
  tensors.tokens = torch::from_blob(
      const_cast<float *>(dataset.tokens.data()),
      {count, dataset.length, static_cast<int64_t>(kFeatureSize)}, torch::kFloat);
  tensors.mask = maskOf(dataset.lengths.data(), dataset.size(), dataset.length);
  tensors.labels = torch::from_blob(const_cast<float *>(dataset.labels.data()),
                                    {count}, torch::kFloat);
  return tensors;
}

NeuralCostModel::NeuralCostModel(ModelOptions options,
                                 std::shared_ptr<ScoringNetworkImpl> network)
    : CostModel(std::move(options)), network(std::move(network)) {
  // LibTorch allocates every intermediate of every batch.
  keepFreedMemoryForReuse();
}

int64_t NeuralCostModel::parameterCount() const {
  int64_t count = tcl::parameterCount(*network);
  if (!modelOptions.perTargetHeads)
    return count;
  // The heads replace the network's own readout.
  const torch::nn::Linear &own = network->readout();
  count -= own->weight.numel() + own->bias.numel();
  return count + (headWeights.defined()
                      ? headWeights.numel() + headBiases.numel()
                      : 0);
}

llvm::Expected<TrainingReport>
NeuralCostModel::train(const Dataset &trainSet, const Dataset &validation) {
  try {
    return trainOrThrow(trainSet, &validation, modelOptions.epochs);
  } catch (const c10::Error &error) {
    return llvm::createStringError(std::string("training failed: ") +
                                   error.what_without_backtrace());
  }
}

llvm::Error NeuralCostModel::update(const Dataset &data, unsigned steps,
                                    const UpdateAnchor &anchor) {
  try {
    auto [groups, perGroup] = batchShape(data);
    size_t batchesPerEpoch = std::max<size_t>(
        1, data.size() / (static_cast<size_t>(groups) * perGroup));
    auto epochs = static_cast<unsigned>((steps + batchesPerEpoch - 1) /
                                        batchesPerEpoch);
    // Per-target heads have no one readout to distill.
    if (anchor.initial && anchor.schedules &&
        !anchor.schedules->groups.empty() && !modelOptions.perTargetHeads) {
      const ModelOptions &theirs = anchor.initial->options();
      if (theirs.kind != modelOptions.kind || theirs.perTargetHeads ||
          anchor.initial->parameterCount() != parameterCount())
        return llvm::createStringError(
            "an update's anchor must be the same network");
      // Same kind and size, and no other class implements these kinds.
      DistillationData anchored{&data, /*validation=*/nullptr,
                                anchor.schedules, /*replay=*/nullptr};
      distillOrThrow(static_cast<const NeuralCostModel &>(*anchor.initial),
                     anchored, anchor.weights, epochs);
    } else {
      trainOrThrow(data, /*validation=*/nullptr, epochs);
    }
    return llvm::Error::success();
  } catch (const c10::Error &error) {
    return llvm::createStringError(std::string("updating the model failed: ") +
                                   error.what_without_backtrace());
  }
}

/// Replayed on the held-out networks' tasks, Mamba found as fast schedules
/// with 10 steps as with 20 (mean best of a task's records at 8 / 16 / 32
/// trials 0.956 / 0.981 / 0.994 against 0.953 / 0.983 / 0.993), at half
/// the update's time, which was 45% of a tuning run. TenSet-MLP's MLP
/// lost with 10 (0.981 against 0.994 at 32 trials) and keeps 20
/// (docs/results/tuning_replay.md).
unsigned NeuralCostModel::onlineUpdateSteps() const {
  return modelOptions.kind == "mamba" ? 10 : 20;
}

/// Scores, their MC-dropout standard deviation and the representation.
/// The readout is linear, so the variance of a score under inverted
/// dropout with probability p on its input e is exact and needs no
/// sampling: p / (1 - p) * sum_j (w_j e_j)^2.
Prediction NeuralCostModel::predictForSampling(const SequenceBatch &batch) {
  useThreads(modelOptions.threads);
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
  torch::Tensor heads;
  torch::Tensor weight = network->readout()->weight.view({1, -1});
  if (modelOptions.perTargetHeads) {
    int64_t head = headOf(batch.target);
    heads = torch::full({embeddings.size(0)}, head, torch::kLong);
    weight = headWeights[head].view({1, -1});
  }
  torch::Tensor scores = readout(embeddings, heads).contiguous();
  double p = std::max(network->dropout, 0.05);
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

std::vector<float> NeuralCostModel::predict(const SequenceBatch &batch) {
  useThreads(modelOptions.threads);
  torch::InferenceMode inference;
  network->eval();
  std::vector<float> scores(batch.count);
  int64_t head = modelOptions.perTargetHeads ? headOf(batch.target) : 0;
  constexpr size_t kChunk = 4096;
  for (size_t begin = 0; begin < batch.count; begin += kChunk) {
    size_t count = std::min(kChunk, batch.count - begin);
    torch::Tensor tokens = torch::from_blob(
        const_cast<float *>(batch.tokens + begin * batch.length * kFeatureSize),
        {static_cast<int64_t>(count), batch.length,
         static_cast<int64_t>(kFeatureSize)},
        torch::kFloat);
    torch::Tensor mask = maskOf(batch.lengths + begin, count, batch.length);
    torch::Tensor out =
        modelOptions.perTargetHeads
            ? readout(network->embed(tokens, mask),
                      torch::full({static_cast<int64_t>(count)}, head, torch::kLong))
            : network->forward(tokens, mask);
    out = out.contiguous();
    std::memcpy(scores.data() + begin, out.data_ptr<float>(),
                count * sizeof(float));
  }
  return scores;
}

std::vector<float> NeuralCostModel::scoreDataset(const Dataset &data) {
  if (!modelOptions.perTargetHeads || data.targets.size() <= 1)
    return predict(data.all());
  useThreads(modelOptions.threads);
  torch::InferenceMode inference;
  network->eval();
  DatasetTensors tensors = tensorsOf(data);
  torch::Tensor scores =
      readout(network->embed(tensors.tokens, tensors.mask), headsOf(data))
          .contiguous();
  const float *values = scores.data_ptr<float>();
  return std::vector<float>(values, values + scores.numel());
}

torch::Tensor NeuralCostModel::readout(const torch::Tensor &representation,
                                       const torch::Tensor &heads) {
  if (!modelOptions.perTargetHeads)
    return network->readoutOf(representation);
  torch::Tensor x = representation;
  if (network->is_training() && network->dropout > 0)
    x = torch::nn::functional::dropout(
        x, torch::nn::functional::DropoutFuncOptions()
               .p(network->dropout)
               .training(true));
  return (x * headWeights.index_select(0, heads)).sum(1) +
         headBiases.index_select(0, heads);
}

int64_t NeuralCostModel::headOf(llvm::StringRef target) const {
  auto found = llvm::find(headTargets, target);
  if (found != headTargets.end())
    return found - headTargets.begin();
  return static_cast<int64_t>(headTargets.size()) - 1;
}

void NeuralCostModel::addHeads(llvm::ArrayRef<std::string> targets) {
  torch::NoGradGuard noGrad;
  for (const std::string &target : targets) {
    if (llvm::is_contained(headTargets, target))
      continue;
    const torch::nn::Linear &own = network->readout();
    torch::Tensor weight = own->weight.detach().clone().view({1, -1});
    torch::Tensor bias = own->bias.detach().clone().view({1});
    headWeights = headWeights.defined() ? torch::cat({headWeights, weight})
                                        : weight;
    headBiases = headBiases.defined() ? torch::cat({headBiases, bias}) : bias;
    headTargets.push_back(target);
  }
  headWeights.set_requires_grad(true);
  headBiases.set_requires_grad(true);
}

torch::Tensor NeuralCostModel::headsOf(const Dataset &data) const {
  std::vector<int64_t> groupHeads;
  for (const DatasetGroup &group : data.groups)
    groupHeads.push_back(headOf(group.target));
  std::vector<int64_t> heads;
  heads.reserve(data.size());
  for (uint32_t group : data.groupOf)
    heads.push_back(groupHeads[group]);
  return torch::tensor(heads, torch::kLong);
}

llvm::Expected<std::string> NeuralCostModel::serialize() const {
  try {
    torch::serialize::OutputArchive archive;
    network->save(archive);
    if (modelOptions.perTargetHeads && headWeights.defined()) {
      archive.write("head_weights", headWeights);
      archive.write("head_biases", headBiases);
    }
    std::ostringstream os;
    archive.save_to(os);
    return os.str();
  } catch (const c10::Error &error) {
    return llvm::createStringError(std::string("cannot save the weights: ") +
                                   error.what_without_backtrace());
  }
}

llvm::Error NeuralCostModel::deserialize(llvm::StringRef bytes) {
  try {
    torch::serialize::InputArchive archive;
    std::istringstream is(bytes.str());
    archive.load_from(is);
    // LibTorch replaces each parameter with the archive's tensor whatever
    // its shape; weights of another network (a header edited, or written
    // by another version) would then fail at the first score, deep in the
    // tuner. They are refused here instead.
    std::vector<std::pair<std::string, std::vector<int64_t>>> expected;
    for (const auto &item : network->named_parameters())
      expected.emplace_back(item.key(), item.value().sizes().vec());
    network->load(archive);
    auto loadedParameters = network->named_parameters();
    for (const auto &[name, sizes] : expected) {
      const torch::Tensor *loaded = loadedParameters.find(name);
      if (!loaded || loaded->sizes().vec() != sizes)
        return llvm::createStringError(
            "the weights do not fit the network the model's "
            "header describes ('" +
            name + "' has another shape)");
    }
    if (modelOptions.perTargetHeads && !trainedTargets.empty()) {
      addHeads(trainedTargets);
      torch::NoGradGuard noGrad;
      torch::Tensor weights, biases;
      archive.read("head_weights", weights);
      archive.read("head_biases", biases);
      if (!weights.sizes().equals(headWeights.sizes()) ||
          !biases.sizes().equals(headBiases.sizes()))
        return llvm::createStringError(
            "the per-target heads do not match the " +
            std::to_string(headTargets.size()) + " targets the model lists");
      headWeights.copy_(weights);
      headBiases.copy_(biases);
    }
    return llvm::Error::success();
  } catch (const c10::Error &error) {
    return llvm::createStringError(std::string("the weights do not load: ") +
                                   error.what_without_backtrace());
  }
}

/// Groups per batch and samples drawn from each: the options', but never
/// more groups than `data` has or more samples than its largest group,
/// which would only repeat the same pairs (the tuner's small updates).
std::pair<unsigned, unsigned>
NeuralCostModel::batchShape(const Dataset &data) const {
  size_t largest = 2;
  for (const DatasetGroup &group : data.groups)
    largest = std::max(largest, group.end - group.begin);
  unsigned groups = std::max<unsigned>(
      1, std::min<size_t>(modelOptions.groupsPerBatch, data.groups.size()));
  unsigned perGroup = std::max<unsigned>(
      2, std::min<size_t>(modelOptions.samplesPerGroup, largest));
  return {groups, perGroup};
}

namespace {
/// An exponential moving average of the weights (Polyak averaging): the
/// average of the last ~1 / (1 - decay) steps generalizes better than any
/// one of them and depends less on the seed. Step t decays by at most
/// (1 + t) / (10 + t), as TensorFlow's ExponentialMovingAverage does, so a
/// short training is not averaged with its initial weights. With decay 0 it
/// is the live weights themselves and costs nothing.
class AveragedWeights {
public:
  AveragedWeights(llvm::ArrayRef<torch::Tensor> parameters, double decay)
      : decay(decay) {
    if (decay > 0)
      for (const torch::Tensor &parameter : parameters)
        average.push_back(parameter.detach().clone());
  }

  void step(llvm::ArrayRef<torch::Tensor> parameters) {
    if (average.empty())
      return;
    ++steps;
    double rate = std::min(decay, (1.0 + steps) / (10.0 + steps));
    torch::NoGradGuard noGrad;
    for (auto [mean, parameter] : llvm::zip(average, parameters))
      mean.mul_(rate).add_(parameter.detach(), 1 - rate);
  }

  void copyTo(llvm::ArrayRef<torch::Tensor> parameters) const {
    torch::NoGradGuard noGrad;
    for (auto [mean, parameter] : llvm::zip(average, parameters))
      parameter.copy_(mean);
  }

  /// Puts the average in the parameters for a scope, then the live
  /// weights back.
  class Swap {
  public:
    Swap(const AveragedWeights &weights, llvm::ArrayRef<torch::Tensor> parameters)
        : parameters(parameters) {
      if (weights.average.empty())
        return;
      for (const torch::Tensor &parameter : parameters)
        live.push_back(parameter.detach().clone());
      weights.copyTo(parameters);
    }
    ~Swap() {
      torch::NoGradGuard noGrad;
      for (auto [parameter, saved] : llvm::zip(parameters, live))
        parameter.copy_(saved);
    }

  private:
    llvm::ArrayRef<torch::Tensor> parameters;
    std::vector<torch::Tensor> live;
  };

private:
  double decay;
  uint64_t steps = 0;
  std::vector<torch::Tensor> average;
};
} // namespace

/// A validation set without a pair to compare (such as an empty one)
/// watches the training set instead.
TrainingReport NeuralCostModel::trainOrThrow(const Dataset &trainSet,
                                             const Dataset *validation,
                                             unsigned epochs,
                                             const ExtraLoss &extra) {
  auto start = std::chrono::steady_clock::now();
  torch::manual_seed(modelOptions.seed);
  useThreads(modelOptions.threads);
  std::mt19937_64 random(modelOptions.seed);
  bool warmStart = !trainedTargets.empty();
  learnTargetsOf(trainSet, validation);
  TrainingReport report;
  if (trainSet.groups.empty())
    return report;
  // A network that starts from trained weights (fine-tuning, distillation)
  // first scores as well as its old weights rank the new data, then dips as
  // it leaves them, and only later rises past its start. Patience counted
  // from that first peak stops it in the dip (a student distilled onto all
  // of a target's records stopped at epoch 10 of 60, best epoch 2, with PCA
  // 0.774 on held-out tasks; trained on, it peaked at epoch 42 with 0.801).
  // Such a network may therefore stop only in the second half of its epochs.
  unsigned earliestStop = warmStart ? epochs / 2 : 0;

  std::vector<torch::Tensor> parameters = network->parameters();
  torch::Tensor sampleHeads;
  if (modelOptions.perTargetHeads) {
    addHeads(trainedTargets);
    parameters.push_back(headWeights);
    parameters.push_back(headBiases);
    sampleHeads = headsOf(trainSet);
  }
  DatasetTensors data = tensorsOf(trainSet);
  torch::optim::Adam optimizer(
      parameters, torch::optim::AdamOptions(modelOptions.learningRate));
  std::vector<size_t> groupOrder(trainSet.groups.size());
  std::iota(groupOrder.begin(), groupOrder.end(), 0);
  auto [groupsPerBatch, perGroup] = batchShape(trainSet);
  size_t batchesPerEpoch = std::max<size_t>(
      1, trainSet.size() / (static_cast<size_t>(groupsPerBatch) * perGroup));

  // Without a validation set (the tuner's small updates) the last weights
  // are kept: an average would hold back what the update just learned.
  AveragedWeights averaged(parameters,
                           validation ? modelOptions.weightAveraging : 0);
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
      torch::Tensor tokens = data.tokens.index_select(0, index);
      torch::Tensor mask = data.mask.index_select(0, index);
      torch::Tensor representation = network->embed(tokens, mask);
      // Scores [groups, perGroup, members]: each member of an ensemble
      // learns from its own loss, as if trained alone on these batches.
      torch::Tensor scores =
          (modelOptions.perTargetHeads
               ? readout(representation, sampleHeads.index_select(0, index))
                     .unsqueeze(1)
               : network->memberScoresOf(representation))
              .view({groupsPerBatch, perGroup, -1});
      torch::Tensor labels =
          data.labels.index_select(0, index).view({groupsPerBatch, perGroup});
      torch::Tensor loss = rankingLoss(scores.select(2, 0), labels);
      for (int64_t member = 1; member < scores.size(2); ++member)
        loss = loss + rankingLoss(scores.select(2, member), labels);
      if (extra)
        loss = loss + extra(random);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      averaged.step(parameters);
      lossSum += loss.item<double>();
    }
    report.epochs = epoch;
    if (!validation)
      continue;
    const Dataset &watch = validation->hasPairs() ? *validation : trainSet;
    double accuracy;
    {
      // Validate, and keep as the best, the averaged weights.
      AveragedWeights::Swap useAverage(averaged, parameters);
      accuracy = validationScore(watch, scoreDataset(watch));
      if (accuracy > bestAccuracy) {
        bestWeights.clear();
        for (const torch::Tensor &parameter : parameters)
          bestWeights.push_back(parameter.detach().clone());
      }
    }
    if (modelOptions.verbose)
      llvm::errs() << llvm::format(
          "epoch %3u  loss %.5f  validation %s %.4f\n", epoch,
          lossSum / batchesPerEpoch, modelOptions.earlyStopping.c_str(), accuracy);
    if (accuracy > bestAccuracy) {
      bestAccuracy = accuracy;
      report.bestEpoch = epoch;
      sinceBest = 0;
    } else if (++sinceBest >= modelOptions.patience && epoch >= earliestStop) {
      break;
    }
  }
  if (!bestWeights.empty()) {
    torch::NoGradGuard noGrad;
    for (auto [parameter, best] : llvm::zip(parameters, bestWeights))
      parameter.copy_(best);
  }
  report.validationScore = bestAccuracy;
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return report;
}

bool tcl::isNeuralKind(llvm::StringRef kind) {
  return kind == "mamba" || kind == "tenset-mlp" || kind == "attention";
}

llvm::Expected<std::unique_ptr<CostModel>>
tcl::createNeuralModel(const ModelOptions &options) {
  NetworkConfig config = defaultNetworkConfig(options.kind, kFeatureSize);
  if (options.dModel)
    config.dModel = options.dModel;
  if (options.dState)
    config.dState = options.dState;
  // Per-target heads read one network, so by default they get one.
  if (options.members)
    config.members = options.members;
  else if (options.perTargetHeads)
    config.members = 1;
  if (options.perTargetHeads && config.members != 1)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "per-target heads read one network: they exclude members");
  if (options.layers)
    config.layers = options.layers;
  if (options.hidden)
    config.hidden = options.hidden;
  config.dropout = options.dropout;
  config.bidirectional = options.bidirectional;
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
  resolved.members = config.members;
  resolved.dState = config.dState;
  resolved.layers = config.layers;
  resolved.hidden = config.hidden;
  return std::unique_ptr<CostModel>(
      new NeuralCostModel(resolved, std::move(*network)));
}
