//===- DistillationTest.cpp - Continual distillation and per-target heads -===//

#include "tcl/Model/CostModel.h"
#include "tcl/Model/Metrics.h"

#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"

#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace tcl;

namespace {

/// Groups of 24 schedules with two random features in their one token; on
/// target "old" the first feature decides latency, on "new" both do, so a
/// model of "old" ranks "new" only partly right; on "reversed" the first
/// feature decides it the other way round, so a model of "old" ranks it
/// backwards.
Dataset makeDataset(const std::string &target, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  Dataset dataset;
  dataset.length = 1;
  dataset.targets = {target};
  for (int task = 0; task < 12; ++task) {
    DatasetGroup group;
    group.taskKey = "task" + std::to_string(task);
    group.target = target;
    group.networks = {{"net", 1}};
    group.begin = dataset.size();
    std::vector<double> seconds;
    for (int sample = 0; sample < 24; ++sample) {
      float a = uniform(random), b = uniform(random);
      dataset.tokens.resize(dataset.tokens.size() + kFeatureSize, 0.0f);
      float *token = dataset.tokens.data() + dataset.size() * kFeatureSize;
      token[0] = a;
      token[1] = b;
      token[2] = target == "old" ? 0.0f : 1.0f;
      seconds.push_back(std::exp(target == "new"        ? a - 1.5 * b
                                 : target == "reversed" ? -a
                                                        : a));
      dataset.seconds.push_back(seconds.back());
      dataset.lengths.push_back(1);
      dataset.groupOf.push_back(dataset.groups.size());
      dataset.labels.push_back(0);
    }
    group.end = dataset.size();
    group.bestSeconds = *std::min_element(seconds.begin(), seconds.end());
    for (size_t i = group.begin; i < group.end; ++i)
      dataset.labels[i] = static_cast<float>(group.bestSeconds / dataset.seconds[i]);
    dataset.groups.push_back(group);
  }
  return dataset;
}

ModelOptions smallMamba() {
  ModelOptions options;
  options.kind = "mamba";
  options.dModel = 16;
  options.layers = 1;
  options.epochs = 40;
  options.patience = 40;
  options.threads = 1;
  return options;
}

std::unique_ptr<CostModel> trained(const ModelOptions &options,
                                   const Dataset &data) {
  auto model = CostModel::create(options);
  EXPECT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());
  auto report = (*model)->train(data, data);
  EXPECT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  return std::move(*model);
}

double accuracy(CostModel &model, const Dataset &data) {
  return pairwiseAccuracy(data, model.predict(data.all()));
}

} // namespace

TEST(Distillation, LearnsTheNewTargetWithoutGrowingOrForgetting) {
  Dataset old = makeDataset("old", 1), fresh = makeDataset("new", 2);
  std::unique_ptr<CostModel> teacher = trained(smallMamba(), old);
  double teacherOnOld = accuracy(*teacher, old);
  double teacherOnNew = accuracy(*teacher, fresh);
  ASSERT_GT(teacherOnOld, 0.9);

  // The student starts as the teacher, as tcl-train --distill loads it.
  std::unique_ptr<CostModel> student = trained(smallMamba(), old);
  auto [labelled, unlabelled] = fresh.splitSamples(0.25, 0);
  Dataset replay = old.splitSamples(0.2, 0).first;
  DistillationData data{&labelled, &labelled, &fresh, &replay};
  auto report = student->distill(*teacher, data, DistillationOptions());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());

  EXPECT_EQ(student->parameterCount(), teacher->parameterCount());
  EXPECT_EQ(student->targets(), (std::vector<std::string>{"old", "new"}));
  EXPECT_GT(accuracy(*student, fresh), teacherOnNew + 0.05);
  EXPECT_GT(accuracy(*student, old), teacherOnOld - 0.05);
}

TEST(Distillation, RecordsTheTasksEachTargetWasLearnedFrom) {
  Dataset old = makeDataset("old", 1), fresh = makeDataset("new", 2);
  std::unique_ptr<CostModel> teacher = trained(smallMamba(), old);
  std::unique_ptr<CostModel> student = trained(smallMamba(), old);
  // The new target's labels cover four tasks of twelve, as a chain's tenth
  // covers some of the tasks.
  Dataset labelled = fresh.selectGroups([](const DatasetGroup &group) {
    return group.taskKey < "task4" && group.taskKey.size() == 5;
  });
  // Early stopping watches a fifth task: measured, so recorded too.
  Dataset validation = fresh.selectGroups(
      [](const DatasetGroup &group) { return group.taskKey == "task4"; });
  Dataset replay = old.splitSamples(0.2, 0).first;
  DistillationData data{&labelled, &validation, &fresh, &replay};
  auto report = student->distill(*teacher, data, DistillationOptions());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());

  std::set<std::string> all,
      five = {"task0", "task1", "task2", "task3", "task4"};
  for (const DatasetGroup &group : old.groups)
    all.insert(group.taskKey);
  std::map<std::string, std::set<std::string>> expected = {{"old", all},
                                                           {"new", five}};
  // The replay of "old" does not replace what "old" was learned from.
  EXPECT_EQ(student->labelledTasks(), expected);

  // The model file keeps them for the next step of the chain.
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("student", "tclm", path));
  ASSERT_FALSE(static_cast<bool>(student->save(path)));
  auto loaded = CostModel::load(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(static_cast<bool>(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ((*loaded)->targets(), (std::vector<std::string>{"old", "new"}));
  EXPECT_EQ((*loaded)->labelledTasks(), expected);
  ASSERT_NE((*loaded)->lastTargetTasks(), nullptr);
  EXPECT_EQ(*(*loaded)->lastTargetTasks(), five);
}

TEST(AnchoredUpdate, ForgetsLessOfTheTasksItHasNotMeasured) {
  // A tuner's update: a few measurements of two tasks whose latency also
  // depends on the second feature, in tokens that look like the old ones.
  Dataset old = makeDataset("old", 1), fresh = makeDataset("new", 2);
  for (size_t i = 0; i < fresh.size(); ++i)
    fresh.tokens[i * kFeatureSize + 2] = 0.0f;
  std::vector<size_t> measured;
  for (unsigned task = 0; task < 2; ++task)
    for (size_t i = 0; i < 6; ++i)
      measured.push_back(fresh.groups[task].begin + i);
  Dataset update = fresh.select(measured);

  std::unique_ptr<CostModel> initial = trained(smallMamba(), old);
  auto plain = initial->clone(), anchored = initial->clone();
  ASSERT_TRUE(plain && anchored);
  ASSERT_FALSE(static_cast<bool>((*plain)->update(update, 300)));
  UpdateAnchor anchor;
  anchor.initial = initial.get();
  anchor.schedules = &old;
  ASSERT_FALSE(static_cast<bool>((*anchored)->update(update, 300, anchor)));

  double before = accuracy(*initial, old);
  double afterPlain = accuracy(**plain, old);
  double afterAnchored = accuracy(**anchored, old);
  EXPECT_GT(afterAnchored, afterPlain + 0.03)
      << before << " " << afterPlain << " " << afterAnchored;
  // Both learn what they were shown.
  EXPECT_GT(accuracy(**anchored, update), accuracy(*initial, update));
}

TEST(AnchoredUpdate, NeedsTheSameNetwork) {
  Dataset old = makeDataset("old", 1);
  std::unique_ptr<CostModel> model = trained(smallMamba(), old);
  ModelOptions wider = smallMamba();
  wider.dModel = 24;
  std::unique_ptr<CostModel> other = trained(wider, old);
  UpdateAnchor anchor;
  anchor.initial = other.get();
  anchor.schedules = &old;
  llvm::Error error = model->update(old, 5, anchor);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("same network"),
            std::string::npos);
}

TEST(Distillation, DoesNotFollowATeacherWhereItIsWrong) {
  Dataset old = makeDataset("old", 1), reversed = makeDataset("reversed", 2);
  std::unique_ptr<CostModel> teacher = trained(smallMamba(), old);
  ASSERT_LT(accuracy(*teacher, reversed), 0.1);

  // A few labels against a teacher that ranks every task backwards: the
  // teacher is trusted nowhere, and the labels decide.
  std::unique_ptr<CostModel> student = trained(smallMamba(), old);
  auto [labelled, unlabelled] = reversed.splitSamples(0.25, 0);
  DistillationData data{&labelled, &labelled, &reversed, nullptr};
  auto report = student->distill(*teacher, data, DistillationOptions());
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_GT(accuracy(*student, reversed), 0.8);
}

TEST(Distillation, AWarmStartedModelTrainsAtLeastHalfItsEpochs) {
  // A model that already ranks its data stops improving at once; started
  // from scratch, patience 1 would end it after an epoch or two.
  Dataset old = makeDataset("old", 1);
  std::unique_ptr<CostModel> model = trained(smallMamba(), old);
  ModelOptions impatient = smallMamba();
  impatient.epochs = 20;
  impatient.patience = 1;
  ASSERT_FALSE(static_cast<bool>(model->setTrainingOptions(impatient)));
  auto report = model->train(old, old);
  ASSERT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
  EXPECT_GE(report->epochs, 10u);
}

/// Mean squared distance between two models' embeddings of `data`.
static double embeddingDrift(CostModel &a, CostModel &b, const Dataset &data) {
  Prediction first = a.predictForSampling(data.all());
  Prediction second = b.predictForSampling(data.all());
  EXPECT_EQ(first.embeddings.size(), second.embeddings.size());
  double sum = 0;
  for (size_t i = 0; i < first.embeddings.size(); ++i)
    sum += std::pow(first.embeddings[i] - second.embeddings[i], 2);
  return sum / std::max<size_t>(1, first.embeddings.size());
}

/// Mean squared distance between two models' scores of `data`, each
/// task's standardized: how far apart they rank, not how they scale.
static double rankingDrift(CostModel &a, CostModel &b, const Dataset &data) {
  std::vector<float> first = a.predict(data.all()), second = b.predict(data.all());
  auto standardized = [](llvm::ArrayRef<float> scores) {
    double mean = 0, square = 0;
    for (float score : scores)
      mean += score / scores.size();
    for (float score : scores)
      square += std::pow(score - mean, 2) / scores.size();
    std::vector<double> result;
    for (float score : scores)
      result.push_back((score - mean) / (std::sqrt(square) + 1e-6));
    return result;
  };
  double sum = 0;
  for (const DatasetGroup &group : data.groups) {
    size_t size = group.end - group.begin;
    std::vector<double> x = standardized({first.data() + group.begin, size});
    std::vector<double> y = standardized({second.data() + group.begin, size});
    for (size_t i = 0; i < size; ++i)
      sum += std::pow(x[i] - y[i], 2);
  }
  return sum / std::max<size_t>(1, data.size());
}

/// A teacher of "old", a quarter of "new" labelled, and a fifth of "old" as
/// the replay: the setting in which each distillation weight is held alone
/// to see that it holds its own set and not the other.
class DistillationWeights : public testing::Test {
protected:
  DistillationWeights()
      : old(makeDataset("old", 1)), fresh(makeDataset("new", 2)),
        teacher(trained(smallMamba(), old)),
        labelled(fresh.splitSamples(0.25, 0).first),
        replay(old.splitSamples(0.2, 0).first),
        data{&labelled, &labelled, &fresh, &replay} {}

  /// A student of "old" distilled onto "new" with `weights`.
  std::unique_ptr<CostModel> distilled(const DistillationOptions &weights) {
    std::unique_ptr<CostModel> student = trained(smallMamba(), old);
    auto report = student->distill(*teacher, data, weights);
    EXPECT_TRUE(static_cast<bool>(report)) << llvm::toString(report.takeError());
    return student;
  }

  Dataset old, fresh;
  std::unique_ptr<CostModel> teacher;
  Dataset labelled, replay;
  DistillationData data;
};

TEST_F(DistillationWeights, HoldTheNewTargetsAndTheReplaysRepresentationsApart) {
  // Each weight held high with the other at zero; scores are left free.
  auto heldOnRepresentations = [&](double onNewTarget, double onReplay) {
    DistillationOptions weights;
    weights.scoreWeight = 0;
    weights.replayScoreWeight = 0;
    weights.representationWeight = onNewTarget;
    weights.replayRepresentationWeight = onReplay;
    return distilled(weights);
  };
  std::unique_ptr<CostModel> heldOnNew = heldOnRepresentations(20, 0);
  std::unique_ptr<CostModel> heldOnReplay = heldOnRepresentations(0, 20);
  EXPECT_LT(embeddingDrift(*heldOnNew, *teacher, fresh),
            embeddingDrift(*heldOnReplay, *teacher, fresh));
  EXPECT_LT(embeddingDrift(*heldOnReplay, *teacher, replay),
            embeddingDrift(*heldOnNew, *teacher, replay));
}

TEST_F(DistillationWeights, HoldTheNewTargetsAndTheReplaysScoresApart) {
  // Each weight held high with the other at zero, against neither;
  // representations and the replay's labels are left (almost) free, so
  // only the scores hold.
  auto heldOnScores = [&](double onNewTarget, double onReplay) {
    DistillationOptions weights;
    weights.scoreWeight = onNewTarget;
    weights.replayScoreWeight = onReplay;
    weights.representationWeight = 0;
    weights.replayRepresentationWeight = 0;
    weights.replayWeight = 1e-6;
    return distilled(weights);
  };
  std::unique_ptr<CostModel> heldOnNew = heldOnScores(20, 0);
  std::unique_ptr<CostModel> heldOnReplay = heldOnScores(0, 20);
  std::unique_ptr<CostModel> free = heldOnScores(0, 0);
  EXPECT_LT(rankingDrift(*heldOnNew, *teacher, fresh),
            rankingDrift(*free, *teacher, fresh));
  EXPECT_LT(rankingDrift(*heldOnReplay, *teacher, replay),
            rankingDrift(*free, *teacher, replay));
}

TEST(Distillation, NeedsTheTeachersNetwork) {
  Dataset old = makeDataset("old", 1), fresh = makeDataset("new", 2);
  std::unique_ptr<CostModel> teacher = trained(smallMamba(), old);
  DistillationData data{&fresh, &fresh, &fresh, nullptr};

  ModelOptions wider = smallMamba();
  wider.dModel = 32;
  auto other = CostModel::create(wider);
  ASSERT_TRUE(static_cast<bool>(other));
  auto report = (*other)->distill(*teacher, data, DistillationOptions());
  ASSERT_FALSE(static_cast<bool>(report));
  EXPECT_NE(llvm::toString(report.takeError()).find("must be the teacher's network"),
            std::string::npos);

  ModelOptions trees;
  trees.kind = "xgboost";
  auto xgboost = CostModel::create(trees);
  ASSERT_TRUE(static_cast<bool>(xgboost));
  report = (*xgboost)->distill(*teacher, data, DistillationOptions());
  ASSERT_FALSE(static_cast<bool>(report));
  EXPECT_NE(llvm::toString(report.takeError()).find("no representation"),
            std::string::npos);
}

TEST(MultiTask, AHeadPerTargetScoresEachTargetItsWay) {
  Dataset old = makeDataset("old", 1), fresh = makeDataset("new", 2);
  ModelOptions options = smallMamba();
  options.perTargetHeads = true;
  // Two targets' groups share the steps one target's would get.
  options.epochs = options.patience = 120;
  Dataset both = concatenate(old, fresh);
  EXPECT_EQ(both.targets, (std::vector<std::string>{"old", "new"}));
  std::unique_ptr<CostModel> model = trained(options, both);

  // Per-target heads read one network, whatever members the kind defaults to.
  ModelOptions oneNetwork = smallMamba();
  oneNetwork.members = 1;
  std::unique_ptr<CostModel> single = trained(oneNetwork, old);
  // Two heads of d_model + 1 replace the one readout.
  EXPECT_EQ(model->parameterCount(), single->parameterCount() + 16 + 1);
  // As well as one readout on both targets' data would (about 0.8 and 0.9
  // here), and each target through its own head: the heads differ.
  EXPECT_GT(accuracy(*model, old), 0.75);
  EXPECT_GT(accuracy(*model, fresh), 0.85);
  SequenceBatch batch = fresh.all();
  std::vector<float> asNew = model->predict(batch);
  batch.target = "old";
  EXPECT_NE(model->predict(batch), asNew);
}

TEST(CostModelFiles, DistilledModelsAreNamedAfterTheirTarget) {
  EXPECT_EQ(CostModel::modelFileName("x86_64:x86-64-v2:1t"),
            "cost-model-x86_64-x86-64-v2-1t.tclm");
  EXPECT_EQ(CostModel::modelFileName("nvvm:sm_90"), "cost-model-nvvm-sm_90.tclm");
}
