//===- TuningDatabase.h - The SQLite tuning database ------------*- C++ -*-===//
//
// Everything tcl measures lands here: tasks (with their standalone payload,
// so a record can be replayed or featurized without the model it came
// from), schedules (a knob assignment and the hash of the concrete script it
// produces), records (one measurement of one schedule on one target on one
// machine, with its status), vendor baselines and trained cost models.
//
// The file is in WAL mode and every record is its own transaction: a
// collector killed at any moment loses at most the measurement in flight,
// and several worker processes write to one database at once.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_DB_TUNINGDATABASE_H
#define TCL_DB_TUNINGDATABASE_H

#include "tcl/DB/Sqlite.h"
#include "tcl/Target/Machine.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcl {

struct TaskRow {
  std::string key;
  std::string kind;
  double flops = 0;
  /// The task as a standalone module (`tcl-extract-tasks outline-dir=`).
  std::string payload;
  /// Occurrences of the task in each network that contains it.
  std::map<std::string, int64_t> networks;
};

struct TargetRow {
  /// The target string users type, e.g. "x86_64:x86-64-v3:1t".
  std::string name;
  std::string cpu, features;
  int64_t threads = 1;
};

/// One measurement (or failed attempt) of a schedule.
struct RecordRow {
  std::string taskKey;
  std::string target;
  MachineInfo machine;
  std::string assignment;
  std::string scriptHash;
  /// "ok", "compile_error", "timeout", "crash" or "wrong_result".
  std::string status;
  std::optional<double> medianSeconds, minSeconds, spread;
  int64_t samples = 0;
  double compileSeconds = 0;
  /// Everything the candidate cost: build, measurement, check, process.
  double wallSeconds = 0;
  int64_t vectorOps = 0;
  bool scalarFallback = false;
  std::string error;
  /// Seconds since the epoch.
  int64_t createdAt = 0;
  /// Globally unique: imports and merges skip records they already hold.
  std::string uid;
};

/// A vendor library's time for a task on a target.
struct BaselineRow {
  std::string taskKey;
  std::string target;
  MachineInfo machine;
  std::string library;   ///< "onednn"
  std::string primitive; ///< e.g. "convolution_forward (nhwc)"
  std::string status;    ///< "ok" or "unsupported" / "failed"
  std::optional<double> medianSeconds, minSeconds, spread;
  int64_t samples = 0;
  std::string error;
  int64_t createdAt = 0;
};

/// The fastest schedule of a task on a target and machine, as the tuner
/// chooses it (TuningDatabase::best).
struct BestRow {
  std::string taskKey, kind, target, machine, assignment;
  double flops = 0;
  /// The median of the schedule's records' medians.
  double medianSeconds = 0;
  /// Valid records of the schedules that may be chosen.
  int64_t validRecords = 0;
  /// The fastest vendor library's time on the same target and machine
  /// (oneDNN on CPUs, cuBLAS or cuDNN on GPUs), and which library it was.
  std::optional<double> baselineSeconds;
  std::string baselineLibrary;
};

struct TargetSummary {
  std::string target, machine;
  int64_t tasks = 0, records = 0, valid = 0;
  std::map<std::string, int64_t> byStatus;
  int64_t baselines = 0;
};

struct DatabaseSummary {
  int64_t tasks = 0, schedules = 0, records = 0, valid = 0, models = 0;
  std::map<std::string, int64_t> tasksByNetwork;
  std::map<std::string, int64_t> tasksByKind;
  std::vector<TargetSummary> targets;
};

class TuningDatabase {
public:
  /// Opens `path`, creating the file and schema when `create`; an existing
  /// file must carry tcl's schema.
  static llvm::Expected<std::unique_ptr<TuningDatabase>>
  open(llvm::StringRef path, bool create = true);

  /// Adds a task (or finds it by key) and returns its id.
  llvm::Expected<int64_t> addTask(const TaskRow &task);
  /// Records that `network` contains `occurrences` instances of a task.
  llvm::Error addTaskNetwork(llvm::StringRef taskKey, llvm::StringRef network,
                             int64_t occurrences);
  llvm::Error addTarget(const TargetRow &target);

  /// Appends one record in its own transaction.
  llvm::Error addRecord(const RecordRow &record);
  /// Appends `record` and, in the same transaction, deletes the records of
  /// its schedule on its target that were created before `before` (seconds
  /// since the epoch), on any machine: a measurement that replaces stale ones
  /// never coexists with them, and a killed re-measurement loses nothing.
  llvm::Error replaceStaleRecords(const RecordRow &record, int64_t before);
  /// Adds or replaces the baseline of (task, target, machine, library).
  llvm::Error addBaseline(const BaselineRow &baseline);

  /// Assignments already measured for a task on a target and machine (any
  /// status): a resumed collection continues after them.
  llvm::Expected<std::vector<std::string>>
  measuredAssignments(llvm::StringRef taskKey, llvm::StringRef target,
                      const MachineInfo &machine);
  /// Assignments of a task with a record on `target` created before `before`
  /// (any machine, any status), each once, in first-measured order: what a
  /// re-measurement still has to measure.
  llvm::Expected<std::vector<std::string>>
  staleAssignments(llvm::StringRef taskKey, llvm::StringRef target,
                   int64_t before);
  llvm::Expected<bool> hasBaseline(llvm::StringRef taskKey,
                                   llvm::StringRef target,
                                   const MachineInfo &machine,
                                   llvm::StringRef library);
  llvm::Expected<int64_t> countRecords();
  /// Id of the newest record (0 when there is none).
  llvm::Expected<int64_t> lastRecordId();
  /// Records newer than `afterId`, all or only status ok.
  llvm::Expected<int64_t> countRecordsAfter(int64_t afterId, bool validOnly);

  /// Every task with its networks, oldest first.
  llvm::Expected<std::vector<TaskRow>> tasks();
  llvm::Expected<std::vector<TargetRow>> targets();
  /// Records of one task (all tasks if empty), on all targets, oldest first.
  llvm::Expected<std::vector<RecordRow>> records(llvm::StringRef taskKey = "");
  llvm::Expected<std::vector<BaselineRow>> baselines();
  /// The fastest schedule per task, target and machine, optionally only for
  /// `target`: by the median of its valid (status ok, vectorized as asked)
  /// records, among the schedules with no other record.
  llvm::Expected<std::vector<BestRow>> best(llvm::StringRef target = "");
  llvm::Expected<DatabaseSummary> summary();

  /// One JSON object per line: every task, then every record and baseline,
  /// each self-contained (tasks by key, targets and machines by name).
  llvm::Error exportJsonLines(llvm::raw_ostream &os);
  /// Adds the objects of `exportJsonLines` output; records already present
  /// (same uid) are skipped, so importing twice changes nothing. Errors name
  /// the offending line.
  llvm::Error importJsonLines(llvm::StringRef text, llvm::StringRef sourceName,
                              int64_t &added);

  sqlite::Connection &connection() { return *db; }

private:
  explicit TuningDatabase(std::unique_ptr<sqlite::Connection> db)
      : db(std::move(db)) {}
  llvm::Error createSchema();
  llvm::Expected<int64_t> taskId(llvm::StringRef key);
  llvm::Expected<int64_t> targetId(llvm::StringRef name);
  llvm::Expected<int64_t> machineId(const MachineInfo &machine);
  /// addRecord / addBaseline without their own transaction.
  llvm::Error insertRecord(const RecordRow &record);
  llvm::Error insertBaseline(const BaselineRow &baseline);
  llvm::Expected<int64_t> scheduleId(int64_t task, llvm::StringRef assignment,
                                     llvm::StringRef hash);

  std::unique_ptr<sqlite::Connection> db;
};

/// A fresh 128-bit random identifier in hex.
std::string makeUid();

} // namespace tcl

#endif // TCL_DB_TUNINGDATABASE_H
