//===- Progress.h - What the tuner prints while it works --------*- C++ -*-===//

#ifndef TCL_LIB_TUNE_PROGRESS_H
#define TCL_LIB_TUNE_PROGRESS_H

#include "tcl/Tune/Tuner.h"

#include "llvm/Support/raw_ostream.h"

namespace tcl {

/// A task's line after one of its rounds, and the run's totals.
struct RoundReport {
  const TunedTask *task = nullptr;
  size_t taskIndex = 0, taskCount = 0;
  unsigned trialsDone = 0, trialsWanted = 0;
  /// Sum over tasks of occurrences x best latency (tasks measured so far).
  double estimatedSeconds = 0;
  double elapsedSeconds = 0;
  /// Measured by this run (the rate and ETA count these only).
  unsigned measuredThisRun = 0;
};

/// "[ 3/20] conv_2d_nhwc_hwcf 1a2b..  trials 48  best 1.234 ms  45.6 GFLOP/s
///  2.10x default  0.83x oneDNN | 240/1000 trials  model 12.3 ms  4.1/s
///  ETA 3m05s"
void printRound(llvm::raw_ostream &os, const RoundReport &report);

/// The table of every task, then the estimated (and, when measured, the
/// end-to-end) latency of the module against the default schedule and
/// oneDNN.
void printSummary(llvm::raw_ostream &os, const TuneResult &result);

} // namespace tcl

#endif // TCL_LIB_TUNE_PROGRESS_H
