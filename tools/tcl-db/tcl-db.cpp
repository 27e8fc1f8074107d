//===- tcl-db.cpp - Inspect, export, import and merge tuning databases ----===//
//
//   tcl-db summary DB            tasks, networks, records per target, valid %
//   tcl-db list DB               every task with its records per target
//   tcl-db best DB [--target=T]  the fastest valid schedule per task, vs the
//                                fastest vendor library (oneDNN, cuBLAS)
//   tcl-db records DB [--task=K] every record (of one task), with its status
//   tcl-db export DB [-o FILE]   JSON Lines (stdout by default)
//   tcl-db import DB FILE        JSON Lines ('-': stdin); skips known records
//   tcl-db merge DB SOURCE...    adds other databases' contents
//
//===----------------------------------------------------------------------===//

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "mlir/Support/FileUtilities.h"

using namespace tcl;
namespace cl = llvm::cl;

static cl::OptionCategory category("tcl-db options");

static cl::SubCommand summaryCommand("summary", "Tasks, records per target, valid fraction");
static cl::SubCommand listCommand("list", "Every task with its records per target");
static cl::SubCommand bestCommand("best", "The fastest valid schedule per task and target");
static cl::SubCommand recordsCommand("records", "Every record, with its status");
static cl::SubCommand exportCommand("export", "Write the database as JSON Lines");
static cl::SubCommand importCommand("import", "Add JSON Lines to the database");
static cl::SubCommand mergeCommand("merge", "Add other databases to the database");

static cl::opt<std::string> databasePath(
    cl::cat(category), cl::Positional, cl::Required, cl::desc("<database>"),
    cl::sub(summaryCommand), cl::sub(listCommand), cl::sub(bestCommand),
    cl::sub(recordsCommand), cl::sub(exportCommand), cl::sub(importCommand),
    cl::sub(mergeCommand));
static cl::list<std::string> sources(cl::cat(category), cl::Positional, cl::OneOrMore,
                                     cl::desc("<source>..."),
                                     cl::sub(importCommand), cl::sub(mergeCommand));
static cl::opt<bool> asJson(cl::cat(category), "json", cl::desc("Print JSON"), cl::init(false),
                            cl::sub(summaryCommand), cl::sub(bestCommand));
static cl::opt<std::string> targetFilter(cl::cat(category), "target", cl::desc("Only this target"),
                                         cl::init(""), cl::sub(bestCommand));
static cl::opt<std::string> taskKey(cl::cat(category), "task", cl::desc("Only this task (key)"),
                                    cl::init(""), cl::sub(recordsCommand));
static cl::opt<std::string> outputPath(cl::cat(category), "o", cl::desc("Output file"),
                                       cl::init("-"), cl::sub(exportCommand));

static int fail(llvm::Error error) {
  llvm::errs() << "tcl-db: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}

static std::string seconds(std::optional<double> value) {
  if (!value)
    return "-";
  if (*value >= 1e-3)
    return llvm::formatv("{0:F3} ms", *value * 1e3);
  return llvm::formatv("{0:F1} us", *value * 1e6);
}

/// Opens an existing database; only import and merge create one.
static llvm::Expected<std::unique_ptr<TuningDatabase>> openDatabase(bool create) {
  if (!create && !llvm::sys::fs::exists(databasePath))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no database '" + databasePath + "'");
  return TuningDatabase::open(databasePath, create);
}

static int runSummary(TuningDatabase &db) {
  llvm::Expected<DatabaseSummary> summary = db.summary();
  if (!summary)
    return fail(summary.takeError());
  if (asJson) {
    llvm::json::Object networks, kinds;
    for (const auto &[name, count] : summary->tasksByNetwork)
      networks[name] = count;
    for (const auto &[name, count] : summary->tasksByKind)
      kinds[name] = count;
    llvm::json::Array targets;
    for (const TargetSummary &target : summary->targets) {
      llvm::json::Object byStatus;
      for (const auto &[status, count] : target.byStatus)
        byStatus[status] = count;
      targets.push_back(llvm::json::Object{
          {"target", target.target},       {"machine", target.machine},
          {"tasks", target.tasks},         {"records", target.records},
          {"valid", target.valid},         {"by_status", std::move(byStatus)},
          {"baselines", target.baselines}});
    }
    llvm::outs() << llvm::formatv(
        "{0:2}\n", llvm::json::Value(llvm::json::Object{
                       {"tasks", summary->tasks},
                       {"schedules", summary->schedules},
                       {"records", summary->records},
                       {"valid", summary->valid},
                       {"models", summary->models},
                       {"tasks_by_network", std::move(networks)},
                       {"tasks_by_kind", std::move(kinds)},
                       {"targets", std::move(targets)}}));
    return 0;
  }
  auto &os = llvm::outs();
  os << llvm::formatv("database: {0}\n", databasePath);
  os << llvm::formatv("tasks: {0}   schedules: {1}   records: {2}   valid: {3} "
                      "({4:P1})   models: {5}\n",
                      summary->tasks, summary->schedules, summary->records,
                      summary->valid,
                      summary->records ? double(summary->valid) / summary->records : 0.0,
                      summary->models);
  os << "tasks by network:";
  for (const auto &[name, count] : summary->tasksByNetwork)
    os << " " << name << "=" << count;
  os << "\ntasks by kind:";
  for (const auto &[name, count] : summary->tasksByKind)
    os << " " << name << "=" << count;
  os << "\n\n";
  os << llvm::formatv("{0,-24} {1,6} {2,9} {3,9} {4,7}  {5,-9} {6}\n", "target",
                      "tasks", "records", "valid", "valid%", "baselines",
                      "failures by status");
  for (const TargetSummary &target : summary->targets) {
    std::string failures;
    for (const auto &[status, count] : target.byStatus)
      if (status != "ok")
        failures += (failures.empty() ? "" : " ") + status + "=" + std::to_string(count);
    os << llvm::formatv("{0,-24} {1,6} {2,9} {3,9} {4,7:P1}  {5,-9} {6}\n",
                        target.target, target.tasks, target.records, target.valid,
                        target.records ? double(target.valid) / target.records : 0.0,
                        target.baselines, failures.empty() ? "-" : failures);
    os << "  machine: " << target.machine << "\n";
  }
  return 0;
}

static int runBest(TuningDatabase &db) {
  llvm::Expected<std::vector<BestRow>> rows = db.best(targetFilter);
  if (!rows)
    return fail(rows.takeError());
  if (asJson) {
    llvm::json::Array array;
    for (const BestRow &row : *rows)
      array.push_back(llvm::json::Object{
          {"task", row.taskKey},
          {"kind", row.kind},
          {"target", row.target},
          {"machine", row.machine},
          {"flops", row.flops},
          {"median_s", row.medianSeconds},
          {"valid_records", row.validRecords},
          {"vendor", row.baselineLibrary},
          {"vendor_median_s", row.baselineSeconds
                                  ? llvm::json::Value(*row.baselineSeconds)
                                  : llvm::json::Value(nullptr)},
          {"assignment", row.assignment}});
    llvm::outs() << llvm::formatv("{0:2}\n", llvm::json::Value(std::move(array)));
    return 0;
  }
  llvm::outs() << llvm::formatv(
      "{0,-24} {1,-30} {2,12} {3,9} {4,-7} {5,12} {6,9} {7,6}\n", "target",
      "task", "best", "GFLOP/s", "library", "vendor", "vs vendor", "valid");
  for (const BestRow &row : *rows) {
    std::string ratio = row.baselineSeconds
                            ? llvm::formatv("{0:F2}", *row.baselineSeconds /
                                                          row.medianSeconds)
                                  .str()
                            : "-";
    llvm::outs() << llvm::formatv(
        "{0,-24} {1,-30} {2,12} {3,9:F2} {4,-7} {5,12} {6,9} {7,6}\n",
        row.target, row.kind + "_" + row.taskKey, seconds(row.medianSeconds),
        row.flops / row.medianSeconds / 1e9,
        row.baselineLibrary.empty() ? "-" : row.baselineLibrary,
        seconds(row.baselineSeconds), ratio, row.validRecords);
  }
  return 0;
}

static int runRecords(TuningDatabase &db) {
  llvm::Expected<std::vector<RecordRow>> rows = db.records(taskKey);
  if (!rows)
    return fail(rows.takeError());
  for (const RecordRow &row : *rows)
    llvm::outs() << llvm::formatv("{0,-24} {1,-18} {2,-13} {3,12} {4}{5}\n",
                                  row.target, row.taskKey, row.status,
                                  seconds(row.medianSeconds),
                                  row.assignment,
                                  row.error.empty() ? "" : "\n    error: " + row.error);
  return 0;
}

static int runList(TuningDatabase &db) {
  auto query = db.connection().prepare(
      "SELECT t.key, t.kind, t.flops, (SELECT GROUP_CONCAT(network || '*' || "
      "occurrences, ' ') FROM task_networks WHERE task_id = t.id), (SELECT "
      "GROUP_CONCAT(name || '=' || n, ' ') FROM (SELECT g.name AS name, "
      "COUNT(*) AS n FROM records r JOIN schedules s ON s.id = r.schedule_id "
      "JOIN targets g ON g.id = r.target_id WHERE s.task_id = t.id GROUP BY "
      "g.name)) FROM tasks t ORDER BY t.flops DESC, t.key");
  if (!query)
    return fail(query.takeError());
  llvm::outs() << llvm::formatv("{0,-34} {1,10}  {2,-40} {3}\n", "task", "MFLOP",
                                "networks", "records by target");
  while (true) {
    llvm::Expected<bool> row = query->step();
    if (!row)
      return fail(row.takeError());
    if (!*row)
      return 0;
    llvm::outs() << llvm::formatv("{0,-34} {1,10:F2}  {2,-40} {3}\n",
                                  query->text(1) + "_" + query->text(0),
                                  query->real(2) / 1e6, query->text(3),
                                  query->text(4).empty() ? "-" : query->text(4));
  }
}

static int runExport(TuningDatabase &db) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(outputPath, &error);
  if (!out) {
    llvm::errs() << "tcl-db: " << error << "\n";
    return 1;
  }
  if (llvm::Error failure = db.exportJsonLines(out->os()))
    return fail(std::move(failure));
  out->keep();
  return 0;
}

static int runImport(TuningDatabase &db) {
  for (const std::string &source : sources) {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(source);
    if (!buffer) {
      llvm::errs() << "tcl-db: cannot read '" << source
                   << "': " << buffer.getError().message() << "\n";
      return 1;
    }
    int64_t added = 0;
    if (llvm::Error error = db.importJsonLines((*buffer)->getBuffer(), source, added))
      return fail(std::move(error));
    llvm::outs() << "tcl-db: " << source << ": " << added << " new records\n";
  }
  return 0;
}

static int runMerge(TuningDatabase &db) {
  for (const std::string &source : sources) {
    if (!llvm::sys::fs::exists(source)) {
      llvm::errs() << "tcl-db: no database '" << source << "'\n";
      return 1;
    }
    auto other = TuningDatabase::open(source, /*create=*/false);
    if (!other)
      return fail(other.takeError());
    std::string text;
    llvm::raw_string_ostream os(text);
    if (llvm::Error error = (*other)->exportJsonLines(os))
      return fail(std::move(error));
    int64_t added = 0;
    if (llvm::Error error = db.importJsonLines(text, source, added))
      return fail(std::move(error));
    llvm::outs() << "tcl-db: " << source << ": " << added << " new records\n";
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tcl-db: inspect, export, import and merge "
                              "tuning databases\n");
  bool creates = importCommand || mergeCommand;
  if (!summaryCommand && !listCommand && !bestCommand && !recordsCommand &&
      !exportCommand && !creates) {
    llvm::errs() << "tcl-db: missing command (summary, list, best, records, "
                    "export, import or merge; see --help)\n";
    return 1;
  }
  auto db = openDatabase(creates);
  if (!db)
    return fail(db.takeError());
  if (summaryCommand)
    return runSummary(**db);
  if (listCommand)
    return runList(**db);
  if (bestCommand)
    return runBest(**db);
  if (recordsCommand)
    return runRecords(**db);
  if (exportCommand)
    return runExport(**db);
  if (importCommand)
    return runImport(**db);
  return runMerge(**db);
}
