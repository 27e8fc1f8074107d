//===- Tuner.h - Tuning a model's tasks in-process --------------*- C++ -*-===//
//
// The embedding API: an MLIR-based tool tunes a ModuleOp of
// linalg-on-tensors with `tuneModule`, or adds the `tcl-tune` pass
// (registerTclTunePasses) to its pipeline.
//
// Tuning runs in rounds. The task scheduler picks a task; evolutionary
// search proposes candidates scored by the cost model; the sampler (RDU,
// or the model's top-k for the comparators) picks a batch (a task's first,
// smaller batch is the model's top-k whatever the sampler); the batch is
// built and measured in isolated processes and every outcome is stored in
// the tuning database; the cost model is updated on what this run measured.
// A run stopped at any point resumes from the database: rerunning it
// continues where it was, and a record once committed is never lost.
//
//   #include "tcl/Tune/Tuner.h"
//   tcl::TuneOptions options;
//   options.target = "x86_64:host:1t";
//   options.trials = 500;
//   options.database = "tuning.db";
//   llvm::Expected<tcl::TuneResult> result =
//       tcl::tuneModule(module, options, llvm::errs());
//   if (!result) ... llvm::toString(result.takeError()) ...
//   // result->schedule: a Transform library; tcl::applySchedule(module,
//   // *result->schedule) schedules the module with it.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_TUNER_H
#define TCL_TUNE_TUNER_H

#include "tcl/Run/Candidate.h"
#include "tcl/Tune/Evolution.h"
#include "tcl/Tune/RduSampler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tcl {

class CostModel;

struct TuneOptions {
  /// A target string (docs/measurement.md), e.g. "x86_64:x86-64-v3:1t".
  std::string target = "x86_64:host:1t";
  /// Candidates measured over all tasks, counting those a previous run of
  /// the same tuning stored in the database.
  unsigned trials = 1000;
  /// Candidates measured per round.
  unsigned batchSize = 16;
  /// Candidates measured in a task's first round: the model's best-scored
  /// ones, whatever the sampler. Every task needs a measurement before the
  /// task scheduler can weigh it, and a pre-trained model's first few picks
  /// are its most likely good ones, so a small first round gives the whole
  /// network a schedule per task early; the full batches then go where the
  /// scheduler sees most gain.
  unsigned firstBatchSize = 4;
  /// The tuning database (SQLite); created if missing.
  std::string database = "tcl-tuning.db";
  /// A cost model file; empty: CostModel::defaultPath, the model distilled
  /// for the target if data/ has one (for "host", also the one for the
  /// CPU it resolves to). A model kind
  /// ("mamba", "xgboost", "random", ...) instead of a path starts that
  /// kind untrained.
  std::string model;
  /// "rdu": the RDU sampler picks each batch from the search's candidates;
  /// "topk": the model's best-scored candidates (TenSet's and Ansor's way).
  std::string sampler = "rdu";
  /// The sampler's weights; the tuner weighs the model's predicted speed
  /// beside R, D and U (RduOptions::performance), as `rdu-p` does.
  RduOptions rdu = [] {
    RduOptions options;
    options.performance = 1.0;
    return options;
  }();
  EvolutionOptions evolution;
  /// The search hands the sampler batchSize x poolFactor of its
  /// best-scored candidates. RDU spreads its picks over the whole pool, so a
  /// wide pool trades predicted speed for coverage, which costs a task that
  /// gets a few dozen trials its best schedule: with 8 batches the tuner
  /// ended 5% further behind oneDNN on ResNet-50 than with 2
  /// (docs/results/tuning.md).
  unsigned poolFactor = 2;
  /// A task whose last `stallRounds` rounds all failed to beat its best
  /// takes the model's top-k until one does (0: never), whatever `sampler`
  /// says. RDU spends picks on what teaches the model; once a task's search
  /// has stopped finding better schedules, the model has learnt the task
  /// and its best-scored candidates are worth more: with RDU throughout,
  /// tcl led TenSet-MLP's top-k in the first rounds and fell behind after a
  /// few hundred trials (docs/results/tuning.md).
  unsigned stallRounds = 2;
  /// Before a task's schedule is chosen, its fastest one is measured again
  /// until it has `confirmations` more measurements, a schedule's latency
  /// being the median of its measurements; at most 4 x `confirmations`
  /// such measurements per task, a resumed run's included (0: none). On a
  /// shared machine the same schedule's median differed by 23% between
  /// processes minutes apart, so the fastest of hundreds of single
  /// measurements is as much the luckiest as the best
  /// (docs/results/tuning.md). Confirmations are records, not trials.
  unsigned confirmations = 2;
  /// Share of each batch the model does not choose (Ansor's epsilon-greedy),
  /// so a wrong model cannot starve the search: first schedules that give a
  /// knob an option the task has never measured (Exploration.h), then
  /// uniform draws from the space.
  double randomShare = 0.1;
  /// Gradient steps of the online update (0: no update). It runs before a
  /// round that the updated model scores, on everything measured so far.
  /// Unset: the model's own (CostModel::onlineUpdateSteps).
  std::optional<unsigned> updateSteps;
  /// Hold the online update to the model as loaded, by distillation on
  /// `anchorSchedules` random schedules of every task (UpdateAnchor), and
  /// let the model as loaded score each task's first round.
  bool anchoredUpdate = true;
  unsigned anchorSchedules = 64;
  /// Processes building candidates at once (timings never overlap).
  unsigned workers = 1;
  uint64_t seed = 0;
  /// Tasks with fewer FLOPs are not tuned (their time is call overhead).
  double minTaskFlops = 1e5;
  /// tcl-onednn, to measure oneDNN's time per task for the reports; empty:
  /// no oneDNN figures.
  std::string onednnTool;
  /// Network name stored with the tasks in the database.
  std::string network = "model";
  /// Measure the whole module, tuned and with the default schedule, at the
  /// end, and oneDNN's time per task again (each task keeps the faster).
  bool endToEnd = false;
  /// Ops that cannot be tuned (dynamic shapes) are warnings and keep the
  /// default schedule; otherwise they fail the run (tcl::prepareTasks).
  bool allowUnsupported = false;
  /// The end-to-end run fills elided weights (dense_resource<__elided__>)
  /// of its copy of the module with random values from this seed
  /// (fillElidedResources); unset: elided weights fail it with a diagnostic.
  /// The module tcl returns keeps them elided.
  std::optional<uint64_t> fillElidedSeed;
  /// Tasks where no measured schedule beats the default schedule keep it
  /// (they get no sequence in the library). Off: every task with a valid
  /// schedule gets its best.
  bool keepDefault = true;
  /// Rewrite channels-first convolutions and poolings (torch-mlir's NCHW)
  /// into channels-last ones first (tcl::rewriteChannelsLast), so that they
  /// are tasks of the vectorizing templates; the module keeps the rewrite.
  bool channelsLast = true;
  /// Live progress and the summary table on the log stream.
  bool progress = true;
  /// Appends one JSON object per round to this file (empty: none): the
  /// task, candidates measured, trials so far, the round's wall seconds and
  /// the estimated module time after it. Benchmarks draw tuning curves from
  /// it; a resumed run appends to the same file.
  std::string historyPath;
  /// How candidates are checked and timed (target fields are set from
  /// `target`).
  EvaluationOptions evaluation;

  /// The sampler of a round of a task whose last `roundsWithoutGain`
  /// rounds did not beat its best (stallRounds).
  llvm::StringRef samplerAfter(unsigned roundsWithoutGain) const;
  /// The online update's gradient steps for `model`: `updateSteps`, or the
  /// model's own when unset.
  unsigned updateStepsFor(const CostModel &model) const;
};

/// What tuning found for one task.
struct TunedTask {
  std::string key, kind;
  /// Occurrences in the module.
  double weight = 0;
  double flops = 0;
  unsigned trials = 0;
  /// The best schedule measured, as "knob=value,..."; empty if nothing ran
  /// correctly.
  std::string bestAssignment;
  std::optional<double> bestSeconds, defaultSeconds, onednnSeconds;
  /// Why the last failed candidate failed: for a task with no valid
  /// schedule, why it was not tuned.
  std::string lastFailure;
  /// The default schedule may win (TuneOptions::keepDefault).
  bool defaultWins = true;

  /// Whether the module keeps the default schedule for this task: nothing
  /// valid was measured, or (with TuneOptions::keepDefault) nothing measured
  /// beats it, so that the tuned module is never slower on a task.
  bool keepsDefault() const {
    return !bestSeconds || (defaultWins && defaultSeconds &&
                            *defaultSeconds <= *bestSeconds);
  }
  /// Nothing valid was measured: the task keeps the default schedule
  /// whatever the tuner was asked.
  bool untuned() const { return !bestSeconds; }
  /// The task's time in the tuned module: the better of the two.
  std::optional<double> chosenSeconds() const {
    return keepsDefault() ? defaultSeconds : bestSeconds;
  }
};

/// Where a tuning run's wall time went, in seconds.
struct TuningTime {
  /// The evolutionary search and the sampler's pick (the cost model's
  /// inference).
  double searching = 0;
  /// Building, checking and timing candidates, and the baselines.
  double measuring = 0;
  /// The cost model's online updates.
  double updating = 0;
};

struct TuneResult {
  std::vector<TunedTask> tasks;
  /// The best schedules as one Transform library: a named sequence per
  /// tuned task (tasks that keep the default schedule have none) and a
  /// @__transform_main that includes them. Stock
  /// `mlir-opt -transform-preload-library -transform-interpreter` applies it
  /// to the module (whose tasks tcl annotated, see applySchedule).
  mlir::OwningOpRef<mlir::ModuleOp> schedule;
  /// Candidates measured by this run, and its wall time.
  unsigned measured = 0;
  double seconds = 0;
  TuningTime time;
  /// Whole-module latencies (endToEnd): tuned, default schedule, and the sum
  /// over tasks of occurrences x oneDNN's time (tcl's time for tasks oneDNN
  /// has no primitive for).
  std::optional<double> tunedSeconds, defaultSeconds, onednnSumSeconds;

  /// Tasks with no valid schedule (TunedTask::untuned).
  unsigned untunedTasks() const {
    return llvm::count_if(tasks,
                          [](const TunedTask &task) { return task.untuned(); });
  }
};

/// Tunes the tasks of `module` (which is not modified). Errors name what
/// went wrong: a bad target, an unreadable database or model, a module
/// without tunable ops.
llvm::Expected<TuneResult> tuneModule(mlir::ModuleOp module,
                                      const TuneOptions &options,
                                      llvm::raw_ostream &log);

/// Registers the `tcl-tune` pass with MLIR's pass registry.
void registerTclTunePasses();

} // namespace tcl

#endif // TCL_TUNE_TUNER_H
