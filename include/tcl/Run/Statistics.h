//===- Statistics.h - Robust summaries of timing samples --------*- C++ -*-===//

#ifndef TCL_RUN_STATISTICS_H
#define TCL_RUN_STATISTICS_H

#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <vector>

namespace tcl {

class ContentionMonitor;

/// Latency samples in seconds and their summary. Machines are shared and
/// noisy, so the median is the reported figure and the spread says how far
/// to trust it.
struct Timing {
  std::vector<double> samples;
  double median = 0;
  double min = 0;
  double max = 0;
  /// (p90 - p10) / median: relative spread that ignores single outliers.
  double relativeSpread = 0;
  /// Calls of the body per sample (a sample is their mean): short bodies are
  /// batched so that each sample is long enough for the clock.
  unsigned callsPerSample = 1;
  /// Samples dropped because the core was contended while they ran, and the
  /// seconds spent on them and on waiting for the core to be quiet again.
  unsigned contendedSamples = 0;
  double contendedSeconds = 0;
  /// The core stayed contended past the policy's patience: the samples
  /// after that point were kept whatever the contention.
  bool contended = false;
};

/// How long to measure. Timing stops as soon as `minRepeats` samples agree
/// within `targetSpread`, or at `maxRepeats` samples, or when the timed
/// budget `maxSeconds` is spent (but never before `minRepeats`): stable
/// candidates cost little, noisy ones get more samples.
struct MeasurementPolicy {
  /// Untimed calls, and at least `warmupSeconds` of them: caches, TLBs and
  /// the clock frequency settle before the first sample.
  unsigned warmup = 2;
  double warmupSeconds = 0.01;
  unsigned minRepeats = 5;
  unsigned maxRepeats = 50;
  double targetSpread = 0.02;
  double maxSeconds = 0.2;
  /// Shortest sample: bodies faster than this are called several times per
  /// sample.
  double minSampleSeconds = 2e-4;
  /// A sample counts only if the contention monitor found the core quiet
  /// before and after it; the monitor's probe may be this much slower than
  /// its fastest run and still be quiet. 0 keeps every sample. On the EPYC
  /// VM the probe ran in about 3.5 us at best, 5-6 us usually, and 2.4x
  /// that while another tenant shared the core: 0.8 separates the last from
  /// the first two (0.15 also rejected the usual state, and nearly every
  /// measurement waited out its patience).
  double contentionTolerance = 0.8;
  /// How long to wait, in all, for contended phases to pass before keeping
  /// samples regardless.
  double maxContendedSeconds = 3;

  /// Whether timing consults a contention monitor at all.
  bool gatesOnContention() const;

  /// Exactly `repeats` single-call samples after `warmup` calls.
  static MeasurementPolicy fixed(unsigned warmup, unsigned repeats);
};

/// Median of `values` (mean of the middle two for even sizes); 0 if empty.
double median(llvm::ArrayRef<double> values);
/// Linear-interpolated percentile, `fraction` in [0, 1].
double percentile(llvm::ArrayRef<double> values, double fraction);
/// Summarizes samples into a Timing.
Timing summarize(std::vector<double> samples);

/// Times `body` with a monotonic clock under `policy`, keeping only the
/// samples that `monitor` brackets with quiet probes.
Timing measure(const std::function<void()> &body,
               const MeasurementPolicy &policy, ContentionMonitor &monitor);

/// The same, with a CoreContentionProbe when the policy has a
/// contention tolerance, and no monitor otherwise.
Timing measure(const std::function<void()> &body,
               const MeasurementPolicy &policy);

} // namespace tcl

#endif // TCL_RUN_STATISTICS_H
