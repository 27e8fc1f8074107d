//===- Statistics.h - Robust summaries of timing samples --------*- C++ -*-===//

#ifndef TCL_RUN_STATISTICS_H
#define TCL_RUN_STATISTICS_H

#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <vector>

namespace tcl {

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
};

/// Median of `values` (mean of the middle two for even sizes); 0 if empty.
double median(llvm::ArrayRef<double> values);
/// Linear-interpolated percentile, `fraction` in [0, 1].
double percentile(llvm::ArrayRef<double> values, double fraction);
/// Summarizes samples into a Timing.
Timing summarize(std::vector<double> samples);

/// Calls `body` `warmup` times untimed, then `repeats` times timed with a
/// monotonic clock.
Timing measure(const std::function<void()> &body, unsigned warmup,
               unsigned repeats);

} // namespace tcl

#endif // TCL_RUN_STATISTICS_H
