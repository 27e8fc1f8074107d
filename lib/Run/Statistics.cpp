//===- Statistics.cpp - Robust summaries of timing samples ----------------===//

#include "tcl/Run/Statistics.h"
#include "tcl/Run/ContentionProbe.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

using namespace tcl;

double tcl::percentile(llvm::ArrayRef<double> values, double fraction) {
  if (values.empty())
    return 0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  double position = fraction * static_cast<double>(sorted.size() - 1);
  size_t lower = static_cast<size_t>(position);
  size_t upper = std::min(lower + 1, sorted.size() - 1);
  double weight = position - static_cast<double>(lower);
  return sorted[lower] * (1 - weight) + sorted[upper] * weight;
}

double tcl::median(llvm::ArrayRef<double> values) {
  return percentile(values, 0.5);
}

Timing tcl::summarize(std::vector<double> samples) {
  Timing timing;
  timing.samples = std::move(samples);
  if (timing.samples.empty())
    return timing;
  timing.median = median(timing.samples);
  timing.min = *std::min_element(timing.samples.begin(), timing.samples.end());
  timing.max = *std::max_element(timing.samples.begin(), timing.samples.end());
  if (timing.median > 0)
    timing.relativeSpread = (percentile(timing.samples, 0.9) -
                             percentile(timing.samples, 0.1)) /
                            timing.median;
  return timing;
}

MeasurementPolicy MeasurementPolicy::fixed(unsigned warmup,
                                           unsigned repeats) {
  MeasurementPolicy policy;
  policy.warmup = warmup;
  policy.warmupSeconds = 0;
  policy.minRepeats = policy.maxRepeats = std::max(1u, repeats);
  policy.targetSpread = 0;
  policy.maxSeconds = 0;
  policy.minSampleSeconds = 0;
  policy.contentionTolerance = 0;
  return policy;
}

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace

namespace {
/// Keeps every sample.
class NoMonitor : public ContentionMonitor {
public:
  bool quiet() override { return true; }
};
} // namespace

Timing tcl::measure(const std::function<void()> &body,
                    const MeasurementPolicy &policy) {
  if (policy.contentionTolerance <= 0) {
    NoMonitor keepAll;
    return measure(body, policy, keepAll);
  }
  CoreContentionProbe probe(policy.contentionTolerance);
  return measure(body, policy, probe);
}

Timing tcl::measure(const std::function<void()> &body,
                    const MeasurementPolicy &policy,
                    ContentionMonitor &monitor) {
  // Warm-up; its fastest call estimates the body's duration (a slow one may
  // have been preempted).
  double oneCall = std::numeric_limits<double>::infinity();
  Clock::time_point warmupStart = Clock::now();
  for (unsigned i = 0; i < policy.warmup ||
                       secondsSince(warmupStart) < policy.warmupSeconds;
       ++i) {
    Clock::time_point start = Clock::now();
    body();
    oneCall = std::min(oneCall, secondsSince(start));
  }
  unsigned calls = 1;
  if (oneCall > 0 && oneCall < policy.minSampleSeconds)
    calls = static_cast<unsigned>(std::ceil(policy.minSampleSeconds / oneCall));

  Timing timing;
  bool gating =
      policy.contentionTolerance > 0 && policy.maxContendedSeconds > 0;
  // Waits, probing every millisecond, until the core is quiet; gives up
  // (and stops gating) once the patience is spent.
  auto waitUntilQuiet = [&] {
    if (!gating)
      return;
    Clock::time_point start = Clock::now();
    while (gating && !monitor.quiet()) {
      if (timing.contendedSeconds + secondsSince(start) >=
          policy.maxContendedSeconds) {
        gating = false;
        timing.contended = true;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    timing.contendedSeconds += secondsSince(start);
  };

  std::vector<double> samples;
  samples.reserve(policy.minRepeats);
  waitUntilQuiet();
  Clock::time_point timedStart = Clock::now();
  double contendedBeforeStart = timing.contendedSeconds;
  while (samples.size() < std::max(1u, policy.maxRepeats)) {
    Clock::time_point start = Clock::now();
    for (unsigned i = 0; i < calls; ++i)
      body();
    double seconds = secondsSince(start);
    // The probe after this sample is the probe before the next one.
    if (gating && !monitor.quiet()) {
      ++timing.contendedSamples;
      timing.contendedSeconds += seconds;
      waitUntilQuiet();
      continue;
    }
    samples.push_back(seconds / calls);
    if (samples.size() < policy.minRepeats)
      continue;
    double quietSeconds = secondsSince(timedStart) -
                          (timing.contendedSeconds - contendedBeforeStart);
    if (quietSeconds >= policy.maxSeconds)
      break;
    if (policy.targetSpread > 0 &&
        summarize(samples).relativeSpread <= policy.targetSpread)
      break;
  }
  Timing summary = summarize(std::move(samples));
  summary.callsPerSample = calls;
  summary.contendedSamples = timing.contendedSamples;
  summary.contendedSeconds = timing.contendedSeconds;
  summary.contended = timing.contended;
  return summary;
}
