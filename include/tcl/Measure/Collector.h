//===- Collector.h - Measure a dataset of schedules -------------*- C++ -*-===//
//
// Dataset collection: for every task of a list of models and every target,
// draw schedules from the task's space, measure each in an isolated child,
// and append every outcome to the tuning database. Workers are processes
// pinned to cores; each candidate holds its cores' locks (CoreLock) while it
// is built and measured, so two measurements never share a core, and builds
// overlap with each other but never with a timing (MachineLock).
//
// Collection is resumable: what is measured is read back from the database,
// and a restarted collection continues where the killed one stopped.
//
// Re-measurement is the other mode: when a change to code generation makes
// earlier measurements stale, the schedules the database already holds are
// measured again on this machine, and each new record replaces the stale
// ones of its schedule and target. Whole tasks are re-measured, because
// latencies compare only within one task on one machine.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MEASURE_COLLECTOR_H
#define TCL_MEASURE_COLLECTOR_H

#include "tcl/Run/Candidate.h"
#include "tcl/Target/TargetSpec.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tcl {

/// Measure again instead of drawing new schedules.
struct RemeasureOptions {
  /// Records created before this time (seconds since the epoch) are stale.
  int64_t before = 0;
  /// Keys of the tasks to re-measure; every task with stale records when
  /// empty.
  std::vector<std::string> taskKeys;
};

struct CollectionOptions {
  /// Model files; each file's stem names its network ("resnet50.mlir").
  /// Unused when re-measuring: the tasks come from the database.
  std::vector<std::string> models;
  std::vector<TargetSpec> targets;
  std::string database;
  /// Schedules per task and target (fewer when the space is smaller).
  unsigned schedulesPerTask = 100;
  /// Schedules measured per task before moving on to the next task; all
  /// tasks get this many before any gets more, so a short run still covers
  /// every task.
  unsigned roundSize = 25;
  /// Uniform draws per picked schedule: the one farthest (in knobs that
  /// differ) from those already measured is picked.
  unsigned diversityDraws = 4;
  unsigned workers = 1;
  uint64_t seed = 0;
  /// Tasks with fewer FLOPs are left out (their time is call overhead).
  double minTaskFlops = 0;
  /// Measure oneDNN baselines with this tcl-onednn binary (empty: none).
  std::string onednnTool;
  /// Check, time and isolate candidates like this (target fields and
  /// cores are set per task).
  EvaluationOptions evaluation;
  /// Progress bar on stderr; a line every 30 s when stderr is not a tty.
  bool progress = true;
  /// Set: re-measure stale records instead of drawing (schedulesPerTask,
  /// roundSize, diversityDraws and seed are then unused).
  std::optional<RemeasureOptions> remeasure;
};

struct CollectionReport {
  int64_t measured = 0, valid = 0;
  double seconds = 0;
  int64_t tasks = 0, pairs = 0;
};

/// Runs a collection; returns after every (task, target) pair is complete.
llvm::Expected<CollectionReport> collect(const CollectionOptions &options,
                                         llvm::raw_ostream &log);

} // namespace tcl

#endif // TCL_MEASURE_COLLECTOR_H
