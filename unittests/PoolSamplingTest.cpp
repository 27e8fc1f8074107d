//===- PoolSamplingTest.cpp - Choosing whole tasks of a pool --------------===//

#include "tcl/Tune/PoolSampling.h"

#include "gtest/gtest.h"

#include <set>

using namespace tcl;

namespace {

/// A pool of `records` records per task, task i of `flops[i]` FLOPs occurring
/// `occurrences[i]` times in one network. The whole-task samplers read only
/// the groups, so the records carry no tokens.
Dataset pool(const std::vector<double> &flops,
             const std::vector<int64_t> &occurrences, size_t records) {
  Dataset dataset;
  for (size_t task = 0; task < flops.size(); ++task) {
    DatasetGroup group;
    group.taskKey = "task" + std::to_string(task);
    group.flops = flops[task];
    group.networks["net"] = occurrences[task];
    group.begin = dataset.size();
    for (size_t i = 0; i < records; ++i) {
      dataset.labels.push_back(1.0f);
      dataset.seconds.push_back(1.0);
      dataset.groupOf.push_back(static_cast<uint32_t>(task));
    }
    group.end = dataset.size();
    dataset.groups.push_back(group);
  }
  return dataset;
}

/// The tasks whose records `chosen` holds, each checked to be whole.
std::set<size_t> chosenTasks(const Dataset &dataset,
                             const std::vector<size_t> &chosen) {
  std::set<size_t> tasks;
  for (size_t index : chosen)
    tasks.insert(dataset.groupOf[index]);
  size_t records = 0;
  for (size_t task : tasks)
    records += dataset.groups[task].end - dataset.groups[task].begin;
  EXPECT_EQ(records, chosen.size()) << "a task was taken in part";
  return tasks;
}

std::vector<size_t> sample(const Dataset &dataset, const std::string &sampler,
                           double fraction, uint64_t seed,
                           const std::set<std::string> &teacherLabelled = {}) {
  PoolSamplingOptions options;
  options.sampler = sampler;
  options.fraction = fraction;
  options.seed = seed;
  options.teacherLabelled = teacherLabelled;
  auto chosen = samplePool(dataset, options);
  EXPECT_TRUE(static_cast<bool>(chosen));
  return chosen ? *chosen : std::vector<size_t>();
}

/// Of 1,000 seeds, how many draw one task, `task` among them, at `fraction`.
int timesChosen(const Dataset &dataset, size_t task, double fraction) {
  int times = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed)
    times += chosenTasks(dataset, sample(dataset, "heavy-tasks", fraction, seed))
                 .count(task);
  return times;
}

TEST(PoolSamplingTest, HeavyTasksTakeTheNetworksTimeFirst) {
  // Task 3 holds almost all of the FLOPs: every seed measures it first.
  Dataset dataset = pool({1e6, 1e6, 1e6, 1e12, 1e6}, {1, 1, 1, 1, 1}, 10);
  for (uint64_t seed = 0; seed < 50; ++seed)
    EXPECT_EQ(chosenTasks(dataset, sample(dataset, "heavy-tasks", 0.2, seed)),
              std::set<size_t>{3})
        << "seed " << seed;
}

TEST(PoolSamplingTest, HeavyTasksWeighOccurrences) {
  // The same FLOPs, but task 0 occurs twelve times in the network.
  Dataset dataset = pool({1e9, 1e9}, {12, 1}, 10);
  int first = timesChosen(dataset, 0, 0.5);
  // Drawn in proportion to 12 : 1, 923 of 1,000 expected.
  EXPECT_GT(first, 890);
  EXPECT_LT(first, 955);
}

TEST(PoolSamplingTest, HeavyTasksAreDrawnNotRanked) {
  // A draw in proportion to 3 : 1, not the heavier task every time: the
  // seeds of a benchmark see different tasks.
  Dataset dataset = pool({3e9, 1e9}, {1, 1}, 10);
  int first = timesChosen(dataset, 0, 0.5);
  EXPECT_GT(first, 700);
  EXPECT_LT(first, 800);
}

/// Two networks of four tasks: "large" with tasks 0-3 of 1e12 FLOPs and
/// "small" with tasks 4-7 of 1e9, ten records each.
Dataset twoNetworks() {
  Dataset dataset = pool({1e12, 1e12, 1e12, 1e12, 1e9, 1e9, 1e9, 1e9},
                         std::vector<int64_t>(8, 1), 10);
  for (size_t task = 0; task < dataset.groups.size(); ++task)
    dataset.groups[task].networks = {{task < 4 ? "large" : "small", 1}};
  return dataset;
}

TEST(PoolSamplingTest, HeavyTasksComplementTheTeachersLabels) {
  Dataset dataset = twoNetworks();
  // Without a teacher, a quarter of the pool is two of the large tasks.
  for (uint64_t seed = 0; seed < 50; ++seed)
    for (size_t task :
         chosenTasks(dataset, sample(dataset, "heavy-tasks", 0.25, seed)))
      EXPECT_LT(task, 4u) << "seed " << seed;
  // A teacher labelled on the large network's tasks 0 and 1: a task of the
  // small network, which its labels left out whole, weighs twice one of the
  // large network's other half, and tasks 0 and 1 come last.
  std::set<std::string> labelled = {"task0", "task1"};
  int small = 0, again = 0, draws = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed)
    for (size_t task : chosenTasks(
             dataset, sample(dataset, "heavy-tasks", 0.25, seed, labelled))) {
      small += task >= 4;
      again += task < 2;
      ++draws;
    }
  EXPECT_EQ(draws, 2000);
  EXPECT_EQ(again, 0);
  // Weights 0.25 per small task, 0.125 per large one left out: two draws
  // without replacement hold 0.8 + 0.8 * 0.75 + 0.2 * 1 / 1.125 = 1.58
  // small tasks on average, 1,578 of 2,000 expected.
  EXPECT_GT(small, 1500);
  EXPECT_LT(small, 1660);
}

TEST(PoolSamplingTest, ATeacherLabelledOnEverythingDrawsAsNone) {
  Dataset dataset = twoNetworks();
  std::set<std::string> everything;
  for (const DatasetGroup &group : dataset.groups)
    everything.insert(group.taskKey);
  for (uint64_t seed = 0; seed < 50; ++seed)
    EXPECT_EQ(sample(dataset, "heavy-tasks", 0.25, seed, everything),
              sample(dataset, "heavy-tasks", 0.25, seed))
        << "seed " << seed;
}

TEST(PoolSamplingTest, WholeTasksUntilTheFraction) {
  Dataset dataset = pool({1e9, 2e9, 3e9, 4e9, 5e9, 6e9, 7e9, 8e9, 9e9, 1e10},
                         std::vector<int64_t>(10, 1), 10);
  for (const char *sampler : {"tasks", "heavy-tasks"}) {
    // 30% of 100 records: three tasks of ten.
    EXPECT_EQ(chosenTasks(dataset, sample(dataset, sampler, 0.3, 7)).size(), 3u)
        << sampler;
    // A share that ends inside a task takes that task whole.
    EXPECT_EQ(chosenTasks(dataset, sample(dataset, sampler, 0.25, 7)).size(), 3u)
        << sampler;
  }
}

TEST(PoolSamplingTest, UnknownSamplerIsAnError) {
  PoolSamplingOptions options;
  options.sampler = "greedy";
  auto chosen = samplePool(pool({1e9}, {1}, 4), options);
  ASSERT_FALSE(static_cast<bool>(chosen));
  EXPECT_NE(llvm::toString(chosen.takeError()).find("heavy-tasks"),
            std::string::npos);
}

} // namespace
