//===- PoolSampling.h - Choosing what to measure from a pool ----*- C++ -*-===//
//
// The RDU sampler in pool mode (active learning): of a pool of candidates
// per task, measure only a fraction, chosen in rounds. Each round trains a
// model on what is chosen so far and lets the sampler pick the next share of
// every task's candidates in that model's embedding space. Run on an
// already-measured dataset, it answers how much of the pool a model needs:
// the RDU ablation compares a model trained on the chosen fraction with one
// trained on the whole pool, and with one trained on a random fraction.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_POOLSAMPLING_H
#define TCL_TUNE_POOLSAMPLING_H

#include "tcl/Model/CostModel.h"
#include "tcl/Tune/RduSampler.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace tcl {

struct PoolSamplingOptions {
  /// "rdu", "random" (some of every task), "tasks" (whole tasks at
  /// random, as a tuner measures them) or "heavy-tasks" (whole tasks drawn
  /// in proportion to their FLOPs times their occurrences, the tasks a
  /// tuner's scheduler spends its trials on; with `teacherLabelled`, the
  /// networks the teacher was not labelled on first).
  std::string sampler = "rdu";
  /// Share of each task's pool to choose (at least two per task); for
  /// "tasks" and "heavy-tasks", the share of the whole pool.
  double fraction = 0.1;
  /// Rounds: the first share is random, each later one is the sampler's.
  unsigned rounds = 4;
  RduOptions rdu;
  /// The models trained between rounds, for about `roundSteps` gradient
  /// steps each, however few samples are chosen yet.
  ModelOptions model;
  unsigned roundSteps = 300;
  /// A trained model file, such as the teacher of a new target. With one,
  /// each round's model is this one fine-tuned on what is chosen so far, and
  /// the first round picks in its embedding too instead of at random: what
  /// it knows of other targets places the pool before anything is measured,
  /// where a model trained from nothing on two records per task cannot.
  std::string warmStart;
  /// "heavy-tasks": the tasks the teacher learned its last target from
  /// (CostModel::labelledTasks), empty without a teacher. A continual
  /// chain's next tenth then labels what the last one left out.
  std::set<std::string> teacherLabelled;
  uint64_t seed = 0;
  /// One line per round.
  bool verbose = false;
};

/// Indices into `pool` of the chosen samples, sorted.
llvm::Expected<std::vector<size_t>> samplePool(const Dataset &pool,
                                               const PoolSamplingOptions &options);

} // namespace tcl

#endif // TCL_TUNE_POOLSAMPLING_H
