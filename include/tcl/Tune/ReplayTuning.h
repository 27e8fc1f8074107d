//===- ReplayTuning.h - Tuning replayed on measured records -----*- C++ -*-===//
//
// A tuning run costs minutes of measurement per network, and a shared
// machine's drift makes two runs minutes apart hard to compare. Replaying
// tuning on a dataset that is already measured (TenSet's "search with a
// cost model over measured programs") isolates what the cost model, the
// sampler and the online update contribute, in seconds and without noise:
//
// - each (task, target) group of the dataset is a task, and its records are
//   the only candidates the search can propose;
// - rounds visit the tasks in turn, as a task scheduler that shares the
//   budget evenly would; a round picks a batch exactly as the tuner does
//   (pickToMeasure: the model's first `firstBatchSize` for a task's first
//   round, then top-k or RDU over the best `poolFactor` batches, top-k once
//   the task stalls, and a random share), "measures" it by revealing its
//   labels, and updates the model online on everything revealed so far, as
//   the tuner does after a round;
// - after each trial of a task, the best latency found so far is known.
//
// What it cannot show is the search itself: the tuner's evolution proposes
// schedules no dataset holds, and its random share starts with options a
// task has never measured (Exploration.h), where the replay draws the
// task's records at random.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_REPLAYTUNING_H
#define TCL_TUNE_REPLAYTUNING_H

#include "tcl/Model/CostModel.h"
#include "tcl/Tune/Tuner.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace tcl {

struct ReplayOptions {
  /// Trials per task (fewer where a task has fewer records).
  unsigned trialsPerTask = 32;
  /// The tuner's batch sizes, sampler, pool, random share and online update
  /// steps; the rest of TuneOptions does not apply.
  TuneOptions tuner;
};

/// Where the replay stands after `trials` trials of every task.
struct ReplayPoint {
  unsigned trials = 0;
  /// Mean over tasks of (the task's best latency in the dataset / the best
  /// found so far): 1 when every task has found its best record.
  double meanBestFound = 0;
  /// Per network: the sum over its tasks of occurrences x best latency in
  /// the dataset, over the same sum with the best found so far (the
  /// tuner's estimate of the network, relative to its optimum).
  std::map<std::string, double> networkBestFound;
};

/// Replays tuning of every group of `tasks` with `model`, which the online
/// update changes. One point per trial count, from 1 to trialsPerTask.
llvm::Expected<std::vector<ReplayPoint>>
replayTuning(CostModel &model, const Dataset &tasks,
             const ReplayOptions &options);

} // namespace tcl

#endif // TCL_TUNE_REPLAYTUNING_H
