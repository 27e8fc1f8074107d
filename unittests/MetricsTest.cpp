//===- MetricsTest.cpp - TenSet's ranking metrics -------------------------===//

#include "tcl/Model/Metrics.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tcl;

namespace {
/// Appends one group of `seconds` for task `key` on target "t", labelled by
/// normalized throughput as the dataset loader labels it.
void addGroup(Dataset &dataset, const std::string &key,
              std::map<std::string, int64_t> networks,
              const std::vector<double> &seconds) {
  DatasetGroup group;
  group.taskKey = key;
  group.target = "t";
  group.networks = std::move(networks);
  group.begin = dataset.size();
  group.bestSeconds = *std::min_element(seconds.begin(), seconds.end());
  for (double value : seconds) {
    dataset.seconds.push_back(value);
    dataset.labels.push_back(static_cast<float>(group.bestSeconds / value));
    dataset.lengths.push_back(1);
    dataset.groupOf.push_back(dataset.groups.size());
    dataset.tokens.resize(dataset.tokens.size() + kFeatureSize, 0.0f);
  }
  group.end = dataset.size();
  dataset.groups.push_back(group);
}

/// Two groups: task "a" (weight 2 in net1) with latencies 1, 2, 4 and task
/// "b" (weight 1 in net1 and net2) with latencies 10, 20.
Dataset makeDataset() {
  Dataset dataset;
  dataset.length = 1;
  addGroup(dataset, "a", {{"net1", 2}}, {1, 2, 4});
  addGroup(dataset, "b", {{"net1", 1}, {"net2", 1}}, {10, 20});
  return dataset;
}
} // namespace

TEST(Metrics, PerfectScoresRankEverythingRight) {
  Dataset dataset = makeDataset();
  RankingMetrics metrics = evaluateRanking(dataset, dataset.labels);
  EXPECT_DOUBLE_EQ(metrics.pairwiseAccuracy, 1.0);
  EXPECT_DOUBLE_EQ(metrics.top1, 1.0);
  EXPECT_DOUBLE_EQ(metrics.top5, 1.0);
  EXPECT_NEAR(metrics.rmse, 0.0, 1e-7);
}

TEST(Metrics, ReversedScoresFollowTenSetsDefinitions) {
  Dataset dataset = makeDataset();
  // Slowest first in both groups.
  std::vector<float> scores = {0.1f, 0.2f, 0.3f, 0.1f, 0.2f};
  RankingMetrics metrics = evaluateRanking(dataset, scores);
  EXPECT_DOUBLE_EQ(metrics.pairwiseAccuracy, 0.0);
  // net1: (2*1 + 1*10) / (2*4 + 1*20) = 12/28; net2: 10/20. Mean of both.
  EXPECT_NEAR(metrics.topByNetwork["net1 @ t"].first, 12.0 / 28.0, 1e-12);
  EXPECT_NEAR(metrics.topByNetwork["net2 @ t"].first, 0.5, 1e-12);
  EXPECT_NEAR(metrics.top1, (12.0 / 28.0 + 0.5) / 2, 1e-12);
  // Every group has at most 5 schedules: top-5 always holds the best.
  EXPECT_DOUBLE_EQ(metrics.top5, 1.0);
  // Per task: a's highest score is its slowest schedule (1 vs 4 s).
  ASSERT_EQ(metrics.byTask.size(), 2u);
  const TaskRanking &a = metrics.byTask.begin()->second;
  EXPECT_NEAR(a.top1, 0.25, 1e-12);
  EXPECT_EQ(a.samples, 3);
  EXPECT_EQ(a.pairs, 3);
  EXPECT_DOUBLE_EQ(a.pairwiseAccuracy, 0.0);
  EXPECT_NEAR(a.networkShare.at("net1"), 2.0 / 12.0, 1e-12);
  EXPECT_EQ(a.taskKey, "a");
  EXPECT_EQ(a.target, "t");
  // Only net2: task b alone.
  RankingMetrics net2 = evaluateRanking(dataset, scores, {"net2"});
  EXPECT_EQ(net2.topByNetwork.size(), 1u);
  EXPECT_NEAR(net2.top1, 0.5, 1e-12);
}

TEST(Metrics, PerTaskEntriesKeepEveryMachinesGroup) {
  // Task a measured on a second CPU of the same target: its own group.
  Dataset dataset = makeDataset();
  addGroup(dataset, "a", {{"net1", 2}}, {1, 2, 4});
  RankingMetrics metrics = evaluateRanking(dataset, dataset.labels);
  ASSERT_EQ(metrics.byTask.size(), 3u);
  EXPECT_EQ(metrics.byTask.count("a @ t #2"), 1u);
  // net1's best time counts task a twice: 2 * 1 + 2 * 1 + 1 * 10.
  EXPECT_NEAR(metrics.byTask["a @ t #2"].networkShare.at("net1"), 2.0 / 14.0, 1e-12);
}

TEST(Metrics, NormalizedDcgRewardsTheBestOnTop) {
  Dataset dataset = makeDataset();
  EXPECT_DOUBLE_EQ(normalizedDcg(dataset, dataset.labels), 1.0);
  // Group a, labels 1, 1/2, 1/4: the best last, then the best in the middle.
  std::vector<float> bestLast = {0.0f, 0.2f, 0.1f, 0.9f, 0.1f};
  std::vector<float> bestSecond = {0.1f, 0.2f, 0.0f, 0.9f, 0.1f};
  double ideal = 1 + 0.5 / std::log2(3.0) + 0.25 / 2;
  double last = 0.5 + 0.25 / std::log2(3.0) + 1.0 / 2;
  EXPECT_NEAR(normalizedDcg(dataset, bestLast), (last / ideal + 1) / 2, 1e-12);
  EXPECT_GT(normalizedDcg(dataset, bestSecond), normalizedDcg(dataset, bestLast));
  // A sharper gain makes the same mistakes cost more.
  EXPECT_LT(normalizedDcg(dataset, bestLast, 4), normalizedDcg(dataset, bestLast, 1));
}

TEST(Metrics, PairsWithEqualLatencyDoNotCount) {
  Dataset dataset = makeDataset();
  dataset.seconds[1] = dataset.seconds[0];
  // a: pairs (0,2), (1,2) right, (0,1) tied; b: right.
  std::vector<float> scores = {0.9f, 0.1f, 0.0f, 0.9f, 0.1f};
  EXPECT_DOUBLE_EQ(pairwiseAccuracy(dataset, scores), 1.0);
  scores[3] = 0.0f; // b now wrong: 2 right of 3
  EXPECT_NEAR(pairwiseAccuracy(dataset, scores), 2.0 / 3.0, 1e-12);
}

TEST(Metrics, SplittingByNetworkKeepsTestTasksOutOfTraining) {
  Dataset dataset = makeDataset();
  auto [train, test] = splitByNetworks(dataset, {"net2"});
  ASSERT_EQ(train.groups.size(), 1u);
  EXPECT_EQ(train.groups[0].taskKey, "a");
  ASSERT_EQ(test.groups.size(), 1u);
  EXPECT_EQ(test.groups[0].taskKey, "b");
  EXPECT_EQ(test.size(), 2u);
  EXPECT_FLOAT_EQ(test.labels[1], 0.5f);
}

TEST(Metrics, GroupSplitsKeepGroupsWholeAndAreSeeded) {
  Dataset dataset = makeDataset();
  addGroup(dataset, "c", {{"net2", 1}}, {3, 6, 9});
  // A tenth of three groups still holds one out, so it can validate.
  auto [first, rest] = dataset.splitGroups(0.1, 7);
  ASSERT_EQ(first.groups.size(), 1u);
  ASSERT_EQ(rest.groups.size(), 2u);
  EXPECT_EQ(first.size() + rest.size(), dataset.size());
  for (const Dataset *part : {&first, &rest})
    for (const DatasetGroup &group : part->groups) {
      const DatasetGroup &whole = *llvm::find_if(
          dataset.groups,
          [&](const DatasetGroup &g) { return g.taskKey == group.taskKey; });
      EXPECT_EQ(group.end - group.begin, whole.end - whole.begin);
    }
  auto [again, unused] = dataset.splitGroups(0.1, 7);
  EXPECT_EQ(first.groups.front().taskKey, again.groups.front().taskKey);
}

TEST(Metrics, SampleSplitsKeepLabelsAndAreSeeded) {
  Dataset dataset = makeDataset();
  auto [first, rest] = dataset.splitSamples(0.5, 7);
  EXPECT_EQ(first.size() + rest.size(), dataset.size());
  auto [again, unused] = dataset.splitSamples(0.5, 7);
  EXPECT_EQ(first.seconds, again.seconds);
  for (size_t i = 0; i < rest.size(); ++i)
    EXPECT_FLOAT_EQ(rest.labels[i],
                    static_cast<float>(rest.groups[rest.groupOf[i]].bestSeconds /
                                       rest.seconds[i]));
}
