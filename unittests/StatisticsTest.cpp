//===- StatisticsTest.cpp - Timing summaries ------------------------------===//

#include "tcl/Run/Statistics.h"
#include "tcl/Run/ContentionProbe.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>

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
  policy.contentionTolerance = 0;
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
  policy.contentionTolerance = 0;
  Timing timing = measure([] {}, policy);
  EXPECT_GE(timing.samples.size(), 3u);
  EXPECT_LT(timing.samples.size(), 1000000u);
}

namespace {
/// Answers from a script, then "quiet" once it runs out.
class ScriptedMonitor : public ContentionMonitor {
public:
  explicit ScriptedMonitor(std::vector<bool> answers)
      : answers(std::move(answers)) {}
  bool quiet() override {
    ++asked;
    return next < answers.size() ? answers[next++] : true;
  }
  std::vector<bool> answers;
  size_t next = 0;
  unsigned asked = 0;
};

MeasurementPolicy fiveSamples() {
  MeasurementPolicy policy;
  policy.warmup = 1;
  policy.warmupSeconds = 0;
  policy.minRepeats = policy.maxRepeats = 5;
  policy.targetSpread = 0;
  policy.minSampleSeconds = 0;
  return policy;
}
} // namespace

TEST(Statistics, SamplesFollowedByAContendedProbeAreDropped) {
  // Quiet before the first sample and after it; contended after the
  // second, and still on the first look while waiting.
  ScriptedMonitor monitor({true, true, false, false, true});
  int calls = 0;
  Timing timing = measure([&] { ++calls; }, fiveSamples(), monitor);
  EXPECT_EQ(timing.samples.size(), 5u);
  EXPECT_EQ(timing.contendedSamples, 1u);
  EXPECT_FALSE(timing.contended);
  EXPECT_GT(timing.contendedSeconds, 0.0);
  EXPECT_EQ(calls, 1 + 6); // warm-up, five kept samples and a dropped one
}

TEST(Statistics, ContentionThatOutlastsThePatienceKeepsEverySample) {
  ScriptedMonitor monitor(std::vector<bool>(1000000, false));
  MeasurementPolicy policy = fiveSamples();
  policy.maxContendedSeconds = 0.005;
  Timing timing = measure([] {}, policy, monitor);
  EXPECT_TRUE(timing.contended);
  EXPECT_EQ(timing.samples.size(), 5u);
  EXPECT_GE(timing.contendedSeconds, 0.005);
}

TEST(Statistics, FixedRepeatsNeverConsultTheMonitor) {
  ScriptedMonitor monitor({false, false, false});
  Timing timing = measure([] {}, MeasurementPolicy::fixed(1, 3), monitor);
  EXPECT_EQ(monitor.asked, 0u);
  EXPECT_EQ(timing.samples.size(), 3u);
}

TEST(Statistics, ContentionProbeSharesItsFastestRun) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(
      llvm::sys::fs::createUniqueDirectory("tcl-probe-test", directory));
  ASSERT_EQ(setenv("TCL_CORE_LOCK_DIR", directory.c_str(), 1), 0);
  double reference;
  {
    CoreContentionProbe probe(0.8);
    reference = probe.referenceSeconds();
    EXPECT_GT(reference, 0.0);
    EXPECT_TRUE(std::isfinite(reference));
    EXPECT_GT(CoreContentionProbe::runOnce(), 0.0);
    probe.quiet();
    reference = probe.referenceSeconds();
  }
  llvm::SmallString<128> file(directory);
  llvm::sys::path::append(file, "contention-probe-reference");
  auto written = llvm::MemoryBuffer::getFile(file);
  ASSERT_TRUE(bool(written)) << "no reference file in " << directory.c_str();
  EXPECT_NEAR(std::strtod((*written)->getBufferStart(), nullptr), reference,
              reference * 1e-6);
  // A second process starts from the shared reference (or a faster run).
  CoreContentionProbe second(0.8);
  EXPECT_LE(second.referenceSeconds(), reference);
  unsetenv("TCL_CORE_LOCK_DIR");
  llvm::sys::fs::remove_directories(directory);
}
