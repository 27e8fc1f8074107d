//===- CostModel.cpp - Creating, saving and loading cost models -----------===//
//
// A model file is one line of magic, one line of JSON (the options, the
// targets trained on and the tasks each was learned from, the token layout)
// and the model's own bytes: LibTorch weights or an XGBoost booster. The
// JSON line makes a file inspectable with `head -2` and lets `load` refuse a
// model featurized differently.
//
//===----------------------------------------------------------------------===//

#include "tcl/Model/CostModel.h"
#include "tcl/Model/Metrics.h"
#include "ModelKinds.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>

using namespace tcl;
namespace json = llvm::json;

static constexpr llvm::StringLiteral kMagic = "tcl-cost-model 1";

CostModel::~CostModel() = default;

llvm::ArrayRef<llvm::StringLiteral> tcl::costModelKinds() {
  static constexpr llvm::StringLiteral kinds[] = {"mamba", "tenset-mlp",
                                                  "attention", "xgboost",
                                                  "random"};
  return kinds;
}

/// The training options a user can get wrong.
static llvm::Error checkTrainingOptions(const ModelOptions &options) {
  if (options.loss != "lambdarank" && options.loss != "mse")
    return llvm::createStringError("unknown loss '" + options.loss +
                                   "' (expected lambdarank or mse)");
  if (options.earlyStopping != "pca" && options.earlyStopping != "ndcg")
    return llvm::createStringError("unknown early-stopping metric '" +
                                   options.earlyStopping +
                                   "' (expected pca or ndcg)");
  if (!(options.gainExponent > 0))
    return llvm::createStringError("the gain exponent must be positive");
  if (!(options.weightAveraging >= 0 && options.weightAveraging < 1))
    return llvm::createStringError(
        "the weight averaging decay must be in [0, 1)");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<CostModel>>
CostModel::create(const ModelOptions &options) {
  if (llvm::Error error = checkTrainingOptions(options))
    return std::move(error);
  if (options.kind == "xgboost")
    return createXGBoostModel(options);
  if (options.kind == "random")
    return createRandomModel(options);
  if (isNeuralKind(options.kind))
    return createNeuralModel(options);
  std::string known;
  for (llvm::StringRef kind : costModelKinds())
    known += (known.empty() ? "" : ", ") + kind.str();
  return llvm::createStringError("unknown cost model '" + options.kind +
                                 "' (expected one of " + known + ")");
}

void CostModel::learnTargetsOf(const Dataset &trainSet,
                               const Dataset *validation) {
  for (const std::string &target : trainSet.targets) {
    if (llvm::is_contained(trainedTargets, target))
      continue;
    trainedTargets.push_back(target);
    std::set<std::string> &tasks = labelledTaskKeys[target];
    for (const Dataset *set : {&trainSet, validation})
      if (set)
        for (const DatasetGroup &group : set->groups)
          if (group.target == target)
            tasks.insert(group.taskKey);
  }
}

const std::set<std::string> *CostModel::lastTargetTasks() const {
  if (trainedTargets.empty())
    return nullptr;
  auto tasks = labelledTaskKeys.find(trainedTargets.back());
  return tasks == labelledTaskKeys.end() ? nullptr : &tasks->second;
}

void CostModel::learnTargetsOf(const CostModel &other) {
  for (const std::string &target : other.trainedTargets) {
    if (llvm::is_contained(trainedTargets, target))
      continue;
    trainedTargets.push_back(target);
    auto tasks = other.labelledTaskKeys.find(target);
    if (tasks != other.labelledTaskKeys.end())
      labelledTaskKeys[target] = tasks->second;
  }
}

static json::Object
optionsToJson(const ModelOptions &options, llvm::ArrayRef<std::string> targets,
              const std::map<std::string, std::set<std::string>> &labelled) {
  json::Array targetList;
  for (const std::string &target : targets)
    targetList.push_back(target);
  json::Object labelledList;
  for (const auto &[target, tasks] : labelled)
    labelledList[target] = json::Array(tasks);
  return json::Object{
      {"kind", options.kind},          {"d_model", options.dModel},
      {"d_state", options.dState},     {"layers", options.layers},
      {"members", options.members},
      {"bidirectional", options.bidirectional},
      {"hidden", options.hidden},      {"dropout", options.dropout},
      {"per_target_heads", options.perTargetHeads},
      {"loss", options.loss},          {"gain_exponent", options.gainExponent},
      {"weight_averaging", options.weightAveraging},
      {"learning_rate", options.learningRate},
      {"epochs", options.epochs},      {"groups_per_batch", options.groupsPerBatch},
      {"samples_per_group", options.samplesPerGroup},
      {"patience", options.patience},  {"early_stopping", options.earlyStopping},
      {"seed", static_cast<int64_t>(options.seed)},
      {"feature_size", static_cast<int64_t>(kFeatureSize)},
      {"feature_version", static_cast<int64_t>(kFeatureVersion)},
      {"max_tokens", static_cast<int64_t>(kMaxTokens)},
      {"targets", std::move(targetList)},
      {"labelled_tasks", std::move(labelledList)}};
}

llvm::Error CostModel::save(llvm::StringRef path) const {
  llvm::Expected<std::string> bytes = serialize();
  if (!bytes)
    return bytes.takeError();
  std::string header;
  llvm::raw_string_ostream os(header);
  os << kMagic << "\n" << json::Value(optionsToJson(modelOptions, trainedTargets,
                                          labelledTaskKeys))
     << "\n";
  // Write a sibling file and rename it over `path`: a crash mid-write never
  // leaves a truncated model where a good one was.
  llvm::SmallString<256> temporary(path);
  temporary += ".tmp";
  {
    std::error_code error;
    llvm::raw_fd_ostream file(temporary, error);
    if (error)
      return llvm::createStringError("cannot write '" + temporary +
                                     "': " + error.message());
    file << header << *bytes;
    file.close();
    if (file.has_error())
      return llvm::createStringError("cannot write '" + temporary +
                                     "': " + file.error().message());
  }
  if (std::error_code error = llvm::sys::fs::rename(temporary, path))
    return llvm::createStringError("cannot write '" + path +
                                   "': " + error.message());
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<CostModel>> CostModel::clone() const {
  llvm::Expected<std::string> bytes = serialize();
  if (!bytes)
    return bytes.takeError();
  llvm::Expected<std::unique_ptr<CostModel>> copy = create(modelOptions);
  if (!copy)
    return copy.takeError();
  (*copy)->trainedTargets = trainedTargets;
  (*copy)->labelledTaskKeys = labelledTaskKeys;
  if (llvm::Error error = (*copy)->deserialize(*bytes))
    return std::move(error);
  return copy;
}

Prediction CostModel::predictForSampling(const SequenceBatch &batch) {
  Prediction prediction;
  prediction.scores = predict(batch);
  prediction.embeddingSize = kFeatureSize;
  prediction.embeddings.assign(batch.count * kFeatureSize, 0.0f);
  for (size_t i = 0; i < batch.count; ++i) {
    unsigned length = std::max<unsigned>(1, batch.lengths[i]);
    float *row = prediction.embeddings.data() + i * kFeatureSize;
    const float *tokens = batch.tokens + i * batch.length * kFeatureSize;
    for (unsigned t = 0; t < batch.lengths[i]; ++t)
      for (size_t f = 0; f < kFeatureSize; ++f)
        row[f] += tokens[t * kFeatureSize + f] / length;
  }
  return prediction;
}

std::string CostModel::modelFileName(llvm::StringRef target) {
  std::string name = "cost-model-" + target.str() + ".tclm";
  std::replace(name.begin(), name.end(), ':', '-');
  return name;
}

std::string CostModel::defaultPath(llvm::ArrayRef<std::string> targets) {
  if (const char *path = std::getenv("TCL_COST_MODEL"))
    return path;
  for (const std::string &target : targets) {
    llvm::SmallString<256> distilled(TCL_DATA_DIR);
    llvm::sys::path::append(distilled, modelFileName(target));
    if (llvm::sys::fs::exists(distilled))
      return std::string(distilled);
  }
  return TCL_DATA_DIR "/cost-model-cpu.tclm";
}

llvm::Error CostModel::setTrainingOptions(const ModelOptions &options) {
  if (llvm::Error error = checkTrainingOptions(options))
    return error;
  modelOptions.loss = options.loss;
  modelOptions.gainExponent = options.gainExponent;
  modelOptions.weightAveraging = options.weightAveraging;
  modelOptions.learningRate = options.learningRate;
  modelOptions.epochs = options.epochs;
  modelOptions.patience = options.patience;
  modelOptions.earlyStopping = options.earlyStopping;
  modelOptions.groupsPerBatch = options.groupsPerBatch;
  modelOptions.samplesPerGroup = options.samplesPerGroup;
  modelOptions.seed = options.seed;
  modelOptions.threads = options.threads;
  modelOptions.verbose = options.verbose;
  return llvm::Error::success();
}

double CostModel::validationScore(const Dataset &validation,
                                  llvm::ArrayRef<float> scores) const {
  if (modelOptions.earlyStopping == "ndcg")
    return normalizedDcg(validation, scores, modelOptions.gainExponent);
  return pairwiseAccuracy(validation, scores);
}

llvm::Expected<TrainingReport>
CostModel::distill(const CostModel &, const DistillationData &,
                   const DistillationOptions &) {
  return llvm::createStringError(
      modelOptions.kind +
      " models have no representation to distill; use mamba, "
      "tenset-mlp or attention");
}

llvm::Expected<std::unique_ptr<CostModel>>
CostModel::load(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path +
                                   "': " + buffer.getError().message());
  llvm::StringRef text = (*buffer)->getBuffer();
  auto [magic, afterMagic] = text.split('\n');
  if (magic != kMagic)
    return llvm::createStringError("'" + path + "' is not a tcl cost model");
  auto [header, bytes] = afterMagic.split('\n');
  llvm::Expected<json::Value> parsed = json::parse(header);
  if (!parsed)
    return llvm::createStringError(
        "'" + path + "': bad header: " + llvm::toString(parsed.takeError()));
  const json::Object *object = parsed->getAsObject();
  if (!object)
    return llvm::createStringError("'" + path + "': bad header");
  if (object->getInteger("feature_size") != static_cast<int64_t>(kFeatureSize))
    return llvm::createStringError(
        "'" + path + "' was trained on " +
        std::to_string(object->getInteger("feature_size").value_or(0)) +
        " features per token, this tcl makes " + std::to_string(kFeatureSize) +
        "; retrain it");
  // Files from before the version was recorded have version 1's layout.
  int64_t featureVersion = object->getInteger("feature_version").value_or(1);
  if (featureVersion != kFeatureVersion)
    return llvm::createStringError("'" + path + "' was trained on version " +
                                   std::to_string(featureVersion) +
                                   " of the features, this tcl makes version " +
                                   std::to_string(kFeatureVersion) +
                                   "; retrain it");
  ModelOptions options;
  options.kind = object->getString("kind").value_or("").str();
  options.dModel = object->getInteger("d_model").value_or(0);
  options.dState = object->getInteger("d_state").value_or(0);
  // Models saved before members existed are one network.
  options.members = object->getInteger("members").value_or(1);
  options.layers = object->getInteger("layers").value_or(0);
  // Models saved before backward blocks existed are causal.
  options.bidirectional = object->getBoolean("bidirectional").value_or(false);
  options.hidden = object->getInteger("hidden").value_or(0);
  // Models saved before dropout existed were trained without it.
  options.dropout = object->getNumber("dropout").value_or(0);
  options.perTargetHeads = object->getBoolean("per_target_heads").value_or(false);
  options.loss = object->getString("loss").value_or("lambdarank").str();
  // Models saved before these options existed were trained with gain
  // exponent 1 and without weight averaging.
  options.gainExponent = object->getNumber("gain_exponent").value_or(1);
  options.weightAveraging = object->getNumber("weight_averaging").value_or(0);
  options.learningRate = object->getNumber("learning_rate").value_or(1e-3);
  options.epochs = object->getInteger("epochs").value_or(0);
  options.groupsPerBatch = object->getInteger("groups_per_batch").value_or(16);
  options.samplesPerGroup = object->getInteger("samples_per_group").value_or(32);
  options.patience = object->getInteger("patience").value_or(0);
  options.earlyStopping = object->getString("early_stopping").value_or("pca").str();
  options.seed = object->getInteger("seed").value_or(0);
  llvm::Expected<std::unique_ptr<CostModel>> model = create(options);
  if (!model)
    return llvm::createStringError("'" + path +
                                   "': " + llvm::toString(model.takeError()));
  if (const json::Array *targets = object->getArray("targets"))
    for (const json::Value &target : *targets)
      if (auto name = target.getAsString())
        (*model)->trainedTargets.push_back(name->str());
  if (const json::Object *labelled = object->getObject("labelled_tasks"))
    for (const auto &[target, tasks] : *labelled) {
      const json::Array *keys = tasks.getAsArray();
      if (!keys)
        return llvm::createStringError("'" + path +
                                       "': bad header: labelled_tasks of '" +
                                       target.str() + "' is not a list");
      std::set<std::string> &known = (*model)->labelledTaskKeys[target.str()];
      for (const json::Value &key : *keys)
        if (auto name = key.getAsString())
          known.insert(name->str());
    }
  if (llvm::Error error = (*model)->deserialize(bytes))
    return llvm::createStringError("'" + path +
                                   "': " + llvm::toString(std::move(error)));
  return model;
}
