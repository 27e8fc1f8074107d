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

bool MeasurementPolicy::gatesOnContention() const {
  return contentionTolerance > 0 && maxContendedSeconds > 0;
}

namespace {
/// For policies that keep every sample: never consulted.
class NoMonitor : public ContentionMonitor {
public:
  bool quiet() override { return true; }
};
} // namespace

Timing tcl::measure(const std::function<void()> &body,
                    const MeasurementPolicy &policy) {
  if (!policy.gatesOnContention()) {
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

  bool gating = policy.gatesOnContention();
  unsigned contendedSamples = 0;
  double contendedSeconds = 0;
  // Waits, probing every millisecond, until the core is quiet; gives up
  // (and stops gating) once the patience is spent.
  auto waitUntilQuiet = [&] {
    if (!gating)
      return;
    Clock::time_point start = Clock::now();
    while (!monitor.quiet()) {
      if (contendedSeconds + secondsSince(start) >= policy.maxContendedSeconds) {
        gating = false;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    contendedSeconds += secondsSince(start);
  };

  std::vector<double> samples;
  samples.reserve(policy.minRepeats);
  waitUntilQuiet();
  Clock::time_point timedStart = Clock::now();
  double contendedBeforeStart = contendedSeconds;
  while (samples.size() < std::max(1u, policy.maxRepeats)) {
    Clock::time_point start = Clock::now();
    for (unsigned i = 0; i < calls; ++i)
      body();
    double seconds = secondsSince(start);
    // The probe after this sample is the probe before the next one.
    if (gating && !monitor.quiet()) {
      ++contendedSamples;
      contendedSeconds += seconds;
      waitUntilQuiet();
      continue;
    }
    samples.push_back(seconds / calls);
    if (samples.size() < policy.minRepeats)
      continue;
    double quietSeconds = secondsSince(timedStart) -
                          (contendedSeconds - contendedBeforeStart);
    if (quietSeconds >= policy.maxSeconds)
      break;
    if (policy.targetSpread > 0 &&
        summarize(samples).relativeSpread <= policy.targetSpread)
      break;
  }
  Timing timing = summarize(std::move(samples));
  timing.callsPerSample = calls;
  timing.contendedSamples = contendedSamples;
  timing.contendedSeconds = contendedSeconds;
  // Gating that began and stopped ran out of patience.
  timing.contended = policy.gatesOnContention() && !gating;
  return timing;
}
