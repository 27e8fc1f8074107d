//===- TuningTask.h - One task's state during tuning ------------*- C++ -*-===//
//
// Internal to the tuner: a task's space, featurizer and evaluator, what has
// been measured of it (read back from the database on resume), and the
// helpers that turn its schedules into model inputs and records.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_LIB_TUNE_TUNINGTASK_H
#define TCL_LIB_TUNE_TUNINGTASK_H

#include "tcl/Features/TaskFeaturizer.h"
#include "tcl/Measure/TaskList.h"
#include "tcl/Model/Dataset.h"
#include "tcl/Run/Candidate.h"
#include "tcl/Target/CpuTarget.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tcl {

/// Featurized schedules, owned: what a SequenceBatch views.
struct OwnedBatch {
  std::vector<float> tokens;
  std::vector<uint8_t> lengths;
  unsigned length = 0;
  SequenceBatch view() const {
    return {tokens.data(), lengths.data(), lengths.size(), length};
  }
};

class TuningTask {
public:
  TuningTask(OutlinedTask task, double weight, std::unique_ptr<TaskFeaturizer> featurizer)
      : info(std::move(task)), weight(weight), featurizer(std::move(featurizer)) {}

  const OutlinedTask info;
  /// Occurrences in the module being tuned.
  const double weight;
  std::unique_ptr<TaskFeaturizer> featurizer;
  std::unique_ptr<CandidateEvaluator> evaluator;

  /// Every schedule measured, valid or not, as Space::format writes it.
  std::set<std::string> measured;
  /// Valid schedules in the order they were first measured, each with its
  /// latency: the median over its measurements (the median of one timing's
  /// samples each). Tuner::confirmBest measures leaders again; everything
  /// else has one.
  std::vector<std::pair<std::string, double>> valid;
  /// Records of schedules measured before (Tuner::confirmBest), this run's
  /// and those read back, so that a resumed run takes no more than the
  /// limit.
  unsigned confirmations = 0;
  /// Why the last failed measurement failed ("wrong_result: ..."): what
  /// the summary shows for a task with no valid schedule.
  std::string lastFailure;
  /// The space has no unmeasured legal schedule left.
  bool exhausted = false;
  /// Rounds in a row, the last one included, that did not beat the best
  /// this task had before them (TuneOptions::stallRounds). A resumed run
  /// starts counting afresh.
  unsigned roundsWithoutGain = 0;
  /// The default schedule's and oneDNN's times, once measured (none if
  /// they failed or oneDNN has no primitive for the task).
  std::optional<double> defaultSeconds, onednnSeconds;
  bool defaultMeasured = false, onednnMeasured = false;

  const Space &space() const { return featurizer->space(); }
  /// Adds a record read back or just measured.
  void addRecord(const RecordRow &record);
  /// How many valid measurements `schedule` has.
  size_t timesMeasured(llvm::StringRef schedule) const;
  /// The fastest valid schedule, if any.
  std::optional<std::pair<std::string, double>> best() const;
  /// The fastest valid schedule's time; infinity if nothing valid ran, so
  /// that any measurement beats it.
  double bestSeconds() const;
  /// Every schedule measured, valid or not, back in this space.
  std::vector<Assignment> measuredAssignments() const;
  /// The valid schedules with their latencies, back in this space, fastest
  /// first (ties in the order measured).
  std::vector<std::pair<Assignment, double>> timedAssignments() const;
  /// A schedule as the database stores it, back in this space; none if it
  /// is not one of the space's.
  std::optional<Assignment> parse(llvm::StringRef text) const;
  /// Featurizes `schedules` into one batch padded to the longest.
  OwnedBatch featurize(llvm::ArrayRef<Assignment> schedules) const;
  /// Appends the valid measurements as one group of `dataset` (labels: the
  /// best latency / latency); nothing if fewer than two.
  void appendTo(Dataset &dataset, llvm::StringRef target) const;
  /// Appends `schedules` of this task with their latencies as one group of
  /// `dataset` (labels: the best latency / latency); nothing if empty.
  void appendGroup(Dataset &dataset, llvm::StringRef target,
                   llvm::ArrayRef<Assignment> schedules,
                   llvm::ArrayRef<double> seconds) const;

private:
  /// Per valid schedule: its index in `valid` and every measurement.
  struct Timings {
    size_t index;
    std::vector<double> seconds;
  };
  std::map<std::string, Timings, std::less<>> timings;
  /// Schedules with a failed measurement.
  std::set<std::string> failedSchedules;
};

} // namespace tcl

#endif // TCL_LIB_TUNE_TUNINGTASK_H
