//===- TaskSchedulerTest.cpp - Sharing trials among tasks -----------------===//

#include "tcl/Tune/TaskScheduler.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tcl;

static TaskSchedulerOptions noExploration() {
  TaskSchedulerOptions options;
  options.epsilon = 0;
  return options;
}

TEST(TaskScheduler, EveryTaskGetsARoundFirst) {
  TaskScheduler scheduler({1, 5, 2}, noExploration());
  for (size_t expected = 0; expected < 3; ++expected) {
    size_t task = scheduler.next();
    EXPECT_EQ(task, expected);
    scheduler.record(task, 8, 1e-3);
  }
}

TEST(TaskScheduler, RoundsGoWhereTheModuleSpendsItsTime) {
  // Same progress per trial; task 1 occurs 10x as often, so it gets the
  // rounds until its weighted gradient falls below task 0's.
  TaskScheduler scheduler({1, 10}, noExploration());
  scheduler.record(0, 8, 1e-3);
  scheduler.record(1, 8, 1e-3);
  EXPECT_EQ(scheduler.next(), 1u);
  unsigned roundsOfOne = 0;
  for (int round = 0; round < 20; ++round) {
    size_t task = scheduler.next();
    roundsOfOne += task == 1;
    scheduler.record(task, 8, 1e-3);
  }
  EXPECT_GT(roundsOfOne, 14u);
  EXPECT_LT(roundsOfOne, 20u); // task 0 is not starved forever
}

TEST(TaskScheduler, ImprovingTasksAreFavoured) {
  // Both tasks are now at 0.5 ms, but task 0 just halved its latency
  // while task 1 has been stuck: task 0's next trials promise more.
  TaskScheduler scheduler({1, 1}, noExploration());
  scheduler.record(0, 8, 1e-3);
  scheduler.record(1, 8, 0.5e-3);
  scheduler.record(0, 8, 0.5e-3);
  scheduler.record(1, 8, 0.5e-3);
  EXPECT_EQ(scheduler.next(), 0u);
}

TEST(TaskScheduler, RetiredTasksAreSkipped) {
  TaskScheduler scheduler({1, 1}, noExploration());
  scheduler.retire(0);
  EXPECT_EQ(scheduler.next(), 1u);
  scheduler.retire(1);
  EXPECT_EQ(scheduler.next(), scheduler.tasks());
}

TEST(TaskScheduler, EstimatedTotalWeighsBestLatencies) {
  TaskScheduler scheduler({2, 3}, noExploration());
  EXPECT_EQ(scheduler.estimatedTotal(), 0.0);
  scheduler.record(0, 4, 1.0);
  scheduler.record(1, 4, std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(scheduler.estimatedTotal(), 2.0);
  scheduler.record(1, 4, 0.5);
  EXPECT_DOUBLE_EQ(scheduler.estimatedTotal(), 3.5);
  EXPECT_EQ(scheduler.trials(1), 8u);
}

TEST(TaskScheduler, ATaskWhereNothingRunsIsNotRetriedForever) {
  TaskScheduler scheduler({1, 1}, noExploration());
  scheduler.record(0, 8, 1e-3);
  for (int round = 0; round < 3; ++round)
    scheduler.record(1, 8, std::numeric_limits<double>::infinity());
  EXPECT_EQ(scheduler.next(), 0u);
}
