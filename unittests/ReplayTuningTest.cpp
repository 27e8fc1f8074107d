//===- ReplayTuningTest.cpp - Tuning replayed on measured records ---------===//

#include "tcl/Tune/ReplayTuning.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace tcl;

namespace {

/// 12 tasks of 24 schedules with one token of two random features; the
/// first feature alone decides latency.
Dataset makeDataset() {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<float> uniform(-1, 1);
  Dataset dataset;
  dataset.length = 1;
  dataset.targets = {"cpu"};
  for (int task = 0; task < 12; ++task) {
    DatasetGroup group;
    group.taskKey = "task" + std::to_string(task);
    group.target = "cpu";
    group.networks = {{"net", 1 + task % 3}};
    group.begin = dataset.size();
    group.bestSeconds = INFINITY;
    for (int sample = 0; sample < 24; ++sample) {
      float a = uniform(random);
      dataset.tokens.resize(dataset.tokens.size() + kFeatureSize, 0.0f);
      float *token = dataset.tokens.data() + dataset.size() * kFeatureSize;
      token[0] = a;
      token[1] = uniform(random);
      dataset.seconds.push_back(std::exp(a));
      dataset.lengths.push_back(1);
      dataset.groupOf.push_back(dataset.groups.size());
      dataset.labels.push_back(0);
      group.bestSeconds = std::min(group.bestSeconds, dataset.seconds.back());
    }
    group.end = dataset.size();
    for (size_t i = group.begin; i < group.end; ++i)
      dataset.labels[i] = static_cast<float>(group.bestSeconds / dataset.seconds[i]);
    dataset.groups.push_back(group);
  }
  return dataset;
}

std::unique_ptr<CostModel> makeModel(llvm::StringRef kind, const Dataset *trainOn) {
  ModelOptions options;
  options.kind = kind.str();
  options.dModel = 16;
  options.layers = 1;
  options.members = 1;
  options.epochs = 30;
  options.patience = 30;
  options.threads = 1;
  auto model = CostModel::create(options);
  EXPECT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  if (trainOn) {
    auto report = (*model)->train(*trainOn, *trainOn);
    EXPECT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  }
  return std::move(*model);
}

ReplayOptions options(llvm::StringRef sampler, unsigned trials) {
  ReplayOptions replay;
  replay.trialsPerTask = trials;
  replay.tuner.sampler = sampler.str();
  replay.tuner.batchSize = 8;
  replay.tuner.updateSteps = 5;
  return replay;
}

TEST(ReplayTuning, RevealingEveryRecordFindsEveryBest) {
  Dataset data = makeDataset();
  std::unique_ptr<CostModel> model = makeModel("random", nullptr);
  auto points = replayTuning(*model, data, options("topk", 24));
  ASSERT_TRUE(static_cast<bool>(points)) << llvm::toString(points.takeError());
  ASSERT_EQ(points->size(), 24u);
  EXPECT_DOUBLE_EQ(points->back().meanBestFound, 1.0);
  EXPECT_DOUBLE_EQ(points->back().networkBestFound.at("net"), 1.0);
  // The best found never gets worse with more trials.
  for (size_t i = 1; i < points->size(); ++i)
    EXPECT_GE((*points)[i].meanBestFound, (*points)[i - 1].meanBestFound);
}

TEST(ReplayTuning, ATrainedModelFindsTheBestSoonerThanRandom) {
  Dataset data = makeDataset();
  std::unique_ptr<CostModel> trained = makeModel("mamba", &data);
  std::unique_ptr<CostModel> random = makeModel("random", nullptr);
  for (const char *sampler : {"topk", "rdu"}) {
    auto guided = replayTuning(*trained, data, options(sampler, 12));
    auto blind = replayTuning(*random, data, options(sampler, 12));
    ASSERT_TRUE(guided && blind);
    // The first round is the model's top 4 whatever the sampler.
    EXPECT_GT((*guided)[3].meanBestFound, 0.95) << sampler;
    EXPECT_GT((*guided)[3].meanBestFound, (*blind)[3].meanBestFound + 0.05)
        << sampler;
  }
}

/// Scores every schedule alike, and counts the records and steps of each
/// online update. Its kind is "random", which is what clone() makes of it.
class UpdateCountingModel : public CostModel {
public:
  UpdateCountingModel() : CostModel([] {
    ModelOptions options;
    options.kind = "random";
    return options;
  }()) {}
  int64_t parameterCount() const override { return 0; }
  llvm::Expected<TrainingReport> train(const Dataset &, const Dataset &) override {
    return TrainingReport{};
  }
  llvm::Error update(const Dataset &data, unsigned steps,
                     const UpdateAnchor &) override {
    updatedOn.push_back(data.size());
    stepsTaken.push_back(steps);
    return llvm::Error::success();
  }
  unsigned onlineUpdateSteps() const override { return 7; }
  std::vector<float> predict(const SequenceBatch &batch) override {
    return std::vector<float>(batch.count, 0.0f);
  }
  std::vector<size_t> updatedOn;
  std::vector<unsigned> stepsTaken;

protected:
  llvm::Expected<std::string> serialize() const override { return ""; }
  llvm::Error deserialize(llvm::StringRef) override {
    return llvm::Error::success();
  }
};

TEST(ReplayTuning, TheUpdateWaitsForARoundTheUpdatedModelScores) {
  Dataset data = makeDataset();
  // Anchored, the model as loaded scores every first round: no update runs
  // until the second round of the first task, which learns from all 12
  // first rounds of 4; then one before each of the 12 second rounds of 8.
  UpdateCountingModel anchored;
  ReplayOptions replay = options("topk", 12);
  ASSERT_TRUE(static_cast<bool>(replayTuning(anchored, data, replay)));
  ASSERT_EQ(anchored.updatedOn.size(), 12u);
  EXPECT_EQ(anchored.updatedOn.front(), 12u * 4);
  EXPECT_EQ(anchored.updatedOn.back(), 12u * 4 + 11 * 8);
  // Unanchored, the updated model scores every round: an update follows
  // each round but the last.
  UpdateCountingModel plain;
  replay.tuner.anchoredUpdate = false;
  ASSERT_TRUE(static_cast<bool>(replayTuning(plain, data, replay)));
  ASSERT_EQ(plain.updatedOn.size(), 23u);
  EXPECT_EQ(plain.updatedOn.front(), 4u);
}

TEST(ReplayTuning, UnsetUpdateStepsAreTheModelsOwn) {
  Dataset data = makeDataset();
  UpdateCountingModel explicitSteps, ownSteps;
  ReplayOptions replay = options("topk", 12);
  ASSERT_TRUE(static_cast<bool>(replayTuning(explicitSteps, data, replay)));
  replay.tuner.updateSteps.reset();
  ASSERT_TRUE(static_cast<bool>(replayTuning(ownSteps, data, replay)));
  ASSERT_FALSE(explicitSteps.stepsTaken.empty());
  ASSERT_FALSE(ownSteps.stepsTaken.empty());
  for (unsigned steps : explicitSteps.stepsTaken)
    EXPECT_EQ(steps, 5u);
  for (unsigned steps : ownSteps.stepsTaken)
    EXPECT_EQ(steps, 7u);
}

TEST(TuneOptions, StalledTasksTakeTheTopK) {
  TuneOptions tuner;
  tuner.sampler = "rdu";
  tuner.stallRounds = 2;
  EXPECT_EQ(tuner.samplerAfter(1), "rdu");
  EXPECT_EQ(tuner.samplerAfter(2), "topk");
  EXPECT_EQ(tuner.samplerAfter(5), "topk");
  tuner.stallRounds = 0;
  EXPECT_EQ(tuner.samplerAfter(100), "rdu");
}

TEST(ReplayTuning, FewerRecordsThanTrialsEndsAtTheRecords) {
  Dataset data = makeDataset();
  std::unique_ptr<CostModel> model = makeModel("random", nullptr);
  auto points = replayTuning(*model, data, options("rdu", 40));
  ASSERT_TRUE(static_cast<bool>(points)) << llvm::toString(points.takeError());
  ASSERT_EQ(points->size(), 40u);
  EXPECT_DOUBLE_EQ(points->back().meanBestFound, 1.0);
}

} // namespace
