//===- XGBoostCostModel.cpp - Ansor's gradient-boosted trees --------------===//
//
// Ansor's cost model: gradient-boosted regression trees fit to normalized
// throughput. Trees read fixed-width rows, so each sequence is flattened
// to `length` tokens (padding zeros); the length is fixed at training and
// saved with the booster.
//
//===----------------------------------------------------------------------===//

#include "ModelKinds.h"
#include "tcl/Model/Metrics.h"

#include <xgboost/c_api.h>

#include <chrono>
#include <cmath>
#include <cstring>

using namespace tcl;

static llvm::Error check(int status, const llvm::Twine &what) {
  if (status == 0)
    return llvm::Error::success();
  return llvm::createStringError("xgboost: " + what + ": " + XGBGetLastError());
}

namespace {
/// Owns a DMatrix handle.
struct Matrix {
  DMatrixHandle handle = nullptr;
  ~Matrix() {
    if (handle)
      XGDMatrixFree(handle);
  }
};

class XGBoostCostModel : public CostModel {
public:
  explicit XGBoostCostModel(ModelOptions options) : CostModel(std::move(options)) {}
  ~XGBoostCostModel() override {
    if (booster)
      XGBoosterFree(booster);
  }

  /// The leaves of all trees: the values the ensemble learned.
  int64_t parameterCount() const override {
    bst_ulong trees = 0;
    const char **dumps = nullptr;
    if (!booster ||
        XGBoosterDumpModelEx(booster, "", 0, "json", &trees, &dumps) != 0)
      return 0;
    int64_t leaves = 0;
    for (bst_ulong tree = 0; tree < trees; ++tree)
      for (llvm::StringRef text = dumps[tree];;) {
        size_t found = text.find("\"leaf\"");
        if (found == llvm::StringRef::npos)
          break;
        ++leaves;
        text = text.drop_front(found + 6);
      }
    return leaves;
  }

  /// Ansor's online model: boosted trees do not continue training on new
  /// data, so each update retrains on everything measured so far, one
  /// boosting round per step (in epochs of 10). Trees have no
  /// representation to hold to an anchor.
  llvm::Error update(const Dataset &data, unsigned steps,
                     const UpdateAnchor &) override {
    unsigned saved = modelOptions.epochs;
    modelOptions.epochs = std::max(1u, (steps + 9) / 10);
    llvm::Expected<TrainingReport> report = train(data, Dataset());
    modelOptions.epochs = saved;
    return report.takeError();
  }

  llvm::Expected<TrainingReport> train(const Dataset &trainSet,
                                       const Dataset &validation) override {
    auto start = std::chrono::steady_clock::now();
    // Trained anew on `trainSet` alone.
    trainedTargets.clear();
    labelledTaskKeys.clear();
    learnTargetsOf(trainSet, &validation);
    length = trainSet.length;
    Matrix matrix;
    std::vector<float> rows = flatten(trainSet.all());
    if (llvm::Error error = check(
            XGDMatrixCreateFromMat(rows.data(), trainSet.size(), width(), NAN,
                                   &matrix.handle),
            "creating the training matrix"))
      return std::move(error);
    if (llvm::Error error =
            check(XGDMatrixSetFloatInfo(matrix.handle, "label",
                                        trainSet.labels.data(), trainSet.size()),
                  "setting labels"))
      return std::move(error);
    if (booster)
      XGBoosterFree(booster);
    if (llvm::Error error = check(XGBoosterCreate(&matrix.handle, 1, &booster),
                                  "creating the booster"))
      return std::move(error);
    // Ansor's parameters (python/tvm/auto_scheduler/cost_model/xgb_model.py).
    std::string threads = std::to_string(modelOptions.threads);
    std::string seed = std::to_string(modelOptions.seed);
    std::string eta = std::to_string(modelOptions.learningRate >= 0.01
                                         ? modelOptions.learningRate
                                         : 0.2);
    std::pair<const char *, const char *> parameters[] = {
        {"objective", "reg:squarederror"}, {"max_depth", "10"},
        {"gamma", "0.001"},                {"min_child_weight", "0"},
        {"eta", eta.c_str()},              {"nthread", threads.c_str()},
        {"seed", seed.c_str()},            {"verbosity", "0"}};
    for (auto [name, value] : parameters)
      if (llvm::Error error = check(XGBoosterSetParam(booster, name, value),
                                    "setting " + llvm::Twine(name)))
        return std::move(error);

    TrainingReport report;
    const Dataset &watch = validation.hasPairs() ? validation : trainSet;
    double best = -1;
    unsigned sinceBest = 0;
    // One "epoch" is 10 boosting rounds.
    for (unsigned epoch = 1; epoch <= modelOptions.epochs; ++epoch) {
      for (unsigned round = 0; round < 10; ++round)
        if (llvm::Error error = check(
                XGBoosterUpdateOneIter(booster, (epoch - 1) * 10 + round,
                                       matrix.handle),
                "boosting"))
          return std::move(error);
      report.epochs = epoch;
      std::vector<float> scores = predict(watch.all());
      double accuracy = validationScore(watch, scores);
      if (modelOptions.verbose)
        llvm::errs() << llvm::format("rounds %4u  validation %s %.4f\n",
                                     epoch * 10,
                                     modelOptions.earlyStopping.c_str(), accuracy);
      if (accuracy > best) {
        best = accuracy;
        report.bestEpoch = epoch;
        sinceBest = 0;
      } else if (++sinceBest >= modelOptions.patience) {
        break;
      }
    }
    // Keep the trees of the best epoch.
    BoosterHandle sliced = nullptr;
    if (llvm::Error error = check(
            XGBoosterSlice(booster, 0, report.bestEpoch * 10, 1, &sliced),
            "keeping the best rounds"))
      return std::move(error);
    XGBoosterFree(booster);
    booster = sliced;
    report.validationScore = best;
    report.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    return report;
  }

  std::vector<float> predict(const SequenceBatch &batch) override {
    std::vector<float> scores(batch.count, 0.0f);
    if (!booster || batch.count == 0)
      return scores;
    std::vector<float> rows = flatten(batch);
    Matrix matrix;
    if (XGDMatrixCreateFromMat(rows.data(), batch.count, width(), NAN,
                               &matrix.handle) != 0)
      return scores;
    bst_ulong count = 0;
    const float *out = nullptr;
    if (XGBoosterPredict(booster, matrix.handle, 0, 0, 0, &count, &out) == 0)
      std::memcpy(scores.data(), out,
                  std::min<size_t>(count, batch.count) * sizeof(float));
    return scores;
  }

protected:
  llvm::Expected<std::string> serialize() const override {
    if (!booster)
      return llvm::createStringError("the model is not trained");
    bst_ulong size = 0;
    const char *bytes = nullptr;
    if (llvm::Error error = check(
            XGBoosterSaveModelToBuffer(booster, "{\"format\": \"ubj\"}", &size,
                                       &bytes),
            "saving"))
      return std::move(error);
    return std::to_string(length) + "\n" + std::string(bytes, size);
  }

  llvm::Error deserialize(llvm::StringRef bytes) override {
    auto [lengthText, model] = bytes.split('\n');
    if (lengthText.getAsInteger(10, length) || length == 0 ||
        length > kMaxTokens)
      return llvm::createStringError("bad sequence length in the model");
    if (booster)
      XGBoosterFree(booster);
    if (llvm::Error error = check(XGBoosterCreate(nullptr, 0, &booster),
                                  "creating the booster"))
      return error;
    return check(XGBoosterLoadModelFromBuffer(booster, model.data(), model.size()),
                 "loading");
  }

private:
  size_t width() const { return static_cast<size_t>(length) * kFeatureSize; }

  /// Rows of `length` tokens, truncated or zero-padded.
  std::vector<float> flatten(const SequenceBatch &batch) const {
    std::vector<float> rows(batch.count * width(), 0.0f);
    unsigned copied = std::min(length, batch.length);
    for (size_t i = 0; i < batch.count; ++i)
      std::memcpy(rows.data() + i * width(),
                  batch.tokens + i * batch.length * kFeatureSize,
                  copied * kFeatureSize * sizeof(float));
    return rows;
  }

  BoosterHandle booster = nullptr;
  unsigned length = 0;
};

} // namespace

llvm::Expected<std::unique_ptr<CostModel>>
tcl::createXGBoostModel(const ModelOptions &options) {
  return std::unique_ptr<CostModel>(new XGBoostCostModel(options));
}
