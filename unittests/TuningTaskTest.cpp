//===- TuningTaskTest.cpp - A task's measurements during tuning ----------===//
//
// What the tuner chooses from: a schedule's latency is the median of its
// measurements, and one that failed once is never chosen.
//
//===----------------------------------------------------------------------===//

#include "../lib/Tune/TuningTask.h"

#include "gtest/gtest.h"

using namespace tcl;

namespace {

RecordRow record(const std::string &schedule, std::optional<double> seconds) {
  RecordRow row;
  row.assignment = schedule;
  row.status = seconds ? "ok" : "crash";
  row.medianSeconds = seconds;
  return row;
}

/// The parts under test need no featurizer.
TuningTask makeTask() { return TuningTask(OutlinedTask{}, 1.0, nullptr); }

TEST(TuningTask, BestIsTheMedianOfEachSchedulesMeasurements) {
  TuningTask task = makeTask();
  task.addRecord(record("a", 1.0));
  task.addRecord(record("b", 1.2));
  ASSERT_TRUE(task.best());
  EXPECT_EQ(task.best()->first, "a");
  // Measured again, "a" was lucky the first time.
  task.addRecord(record("a", 1.5));
  task.addRecord(record("a", 1.4));
  EXPECT_EQ(task.best()->first, "b");
  EXPECT_DOUBLE_EQ(task.bestSeconds(), 1.2);
  EXPECT_EQ(task.timesMeasured("a"), 3u);
  EXPECT_EQ(task.timesMeasured("b"), 1u);
  // One entry per schedule, in first-measured order, at its median.
  ASSERT_EQ(task.valid.size(), 2u);
  EXPECT_EQ(task.valid[0].first, "a");
  EXPECT_DOUBLE_EQ(task.valid[0].second, 1.4);
  EXPECT_EQ(task.measured.size(), 2u);
  EXPECT_EQ(task.confirmations, 2u);
}

TEST(TuningTask, AScheduleThatFailedOnceIsNeverChosen) {
  TuningTask task = makeTask();
  task.addRecord(record("a", 1.0));
  task.addRecord(record("b", 2.0));
  task.addRecord(record("c", 3.0));
  task.addRecord(record("a", std::nullopt));
  EXPECT_EQ(task.best()->first, "b");
  EXPECT_EQ(task.timesMeasured("a"), 0u);
  // A later valid record does not bring it back.
  task.addRecord(record("a", 0.5));
  EXPECT_EQ(task.best()->first, "b");
  // The schedules after it keep their place.
  task.addRecord(record("c", 1.0));
  ASSERT_EQ(task.valid.size(), 2u);
  EXPECT_EQ(task.valid[1].first, "c");
  EXPECT_DOUBLE_EQ(task.valid[1].second, 2.0);
  EXPECT_EQ(task.best()->first, "b");
  EXPECT_EQ(task.confirmations, 3u);
}

TEST(TuningTask, NothingValidHasNoBest) {
  TuningTask task = makeTask();
  task.addRecord(record("a", std::nullopt));
  EXPECT_FALSE(task.best());
  EXPECT_EQ(task.bestSeconds(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(task.measured.size(), 1u);
}

} // namespace
