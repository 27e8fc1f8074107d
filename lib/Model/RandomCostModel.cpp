//===- RandomCostModel.cpp - The floor every model must beat --------------===//

#include "ModelKinds.h"

#include <random>

using namespace tcl;

namespace {
/// Uniform random scores (seeded): what search without a model does.
class RandomCostModel : public CostModel {
public:
  explicit RandomCostModel(ModelOptions options) : CostModel(std::move(options)) {}
  int64_t parameterCount() const override { return 0; }
  llvm::Expected<TrainingReport> train(const Dataset &trainSet,
                                       const Dataset &) override {
    // Trained anew on `trainSet` alone.
    trainedTargets.clear();
    labelledTaskKeys.clear();
    learnTargetsOf(trainSet);
    return TrainingReport{};
  }
  llvm::Error update(const Dataset &, unsigned,
                     const UpdateAnchor &) override {
    return llvm::Error::success();
  }
  std::vector<float> predict(const SequenceBatch &batch) override {
    std::vector<float> scores(batch.count);
    for (float &score : scores)
      score = static_cast<float>(random() >> 11) * 0x1.0p-53f;
    return scores;
  }

protected:
  llvm::Expected<std::string> serialize() const override { return ""; }
  llvm::Error deserialize(llvm::StringRef) override {
    return llvm::Error::success();
  }

private:
  std::mt19937_64 random{modelOptions.seed};
};
} // namespace

llvm::Expected<std::unique_ptr<CostModel>>
tcl::createRandomModel(const ModelOptions &options) {
  return std::unique_ptr<CostModel>(new RandomCostModel(options));
}
