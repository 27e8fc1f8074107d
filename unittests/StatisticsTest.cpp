//===- StatisticsTest.cpp - Timing summaries ------------------------------===//

#include "tcl/Run/Statistics.h"

#include "gtest/gtest.h"

using namespace tcl;

TEST(Statistics, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

TEST(Statistics, PercentileInterpolates) {
  std::vector<double> values = {0, 10, 20, 30, 40};
  EXPECT_DOUBLE_EQ(percentile(values, 0.0), 0);
  EXPECT_DOUBLE_EQ(percentile(values, 1.0), 40);
  EXPECT_DOUBLE_EQ(percentile(values, 0.1), 4);
}

TEST(Statistics, SummaryIgnoresOneOutlierInTheSpread) {
  std::vector<double> samples(20, 1.0);
  samples[7] = 50.0; // one preempted run
  Timing timing = summarize(samples);
  EXPECT_DOUBLE_EQ(timing.median, 1.0);
  EXPECT_DOUBLE_EQ(timing.min, 1.0);
  EXPECT_DOUBLE_EQ(timing.max, 50.0);
  EXPECT_DOUBLE_EQ(timing.relativeSpread, 0.0);
}

TEST(Statistics, MeasureRunsWarmupAndRepeats) {
  int calls = 0;
  Timing timing = measure([&] { ++calls; }, MeasurementPolicy::fixed(3, 5));
  EXPECT_EQ(calls, 8);
  EXPECT_EQ(timing.samples.size(), 5u);
  EXPECT_EQ(timing.callsPerSample, 1u);
  EXPECT_GE(timing.min, 0.0);
}

TEST(Statistics, AdaptiveMeasureBatchesShortBodiesAndStopsWhenStable) {
  MeasurementPolicy policy;
  policy.minRepeats = 5;
  policy.maxRepeats = 1000;
  policy.targetSpread = 0.5;
  policy.minSampleSeconds = 1e-4;
  volatile double sink = 0;
  Timing timing = measure(
      [&] {
        for (int i = 0; i < 100; ++i)
          sink = sink + i;
      },
      policy);
  // A ~100 ns body is batched into samples of >= 0.1 ms.
  EXPECT_GT(timing.callsPerSample, 10u);
  EXPECT_GE(timing.samples.size(), 5u);
  EXPECT_LT(timing.samples.size(), 1000u);
}

TEST(Statistics, AdaptiveMeasureStopsAtTheTimeBudget) {
  MeasurementPolicy policy;
  policy.minRepeats = 3;
  policy.maxRepeats = 1000000;
  policy.targetSpread = 0; // never "stable enough"
  policy.maxSeconds = 0.05;
  Timing timing = measure([] {}, policy);
  EXPECT_GE(timing.samples.size(), 3u);
  EXPECT_LT(timing.samples.size(), 1000000u);
}
