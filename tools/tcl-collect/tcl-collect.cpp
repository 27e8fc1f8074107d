//===- tcl-collect.cpp - Measure a dataset of schedules -------------------===//
//
// Draws schedules for every task of the given models on every target,
// measures them in isolated, core-pinned workers and appends the outcomes
// (and oneDNN baselines) to a tuning database. Run the same command again
// to resume a killed collection or to extend it (--schedules-per-task).
//
// With --remeasure-before, measures again what the database already holds
// (after a change to code generation), replacing the stale records; the
// same command resumes it too.
//
//===----------------------------------------------------------------------===//

#include "tcl/Measure/Collector.h"
#include "tcl/Run/CoreLock.h"
#include "tcl/Run/MeasurementOptions.h"
#include "tcl/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <ctime>

using namespace tcl;
namespace cl = llvm::cl;

static cl::OptionCategory category("tcl-collect options");
static cl::list<std::string> models(cl::Positional, cl::ZeroOrMore,
                                    cl::desc("<model.mlir>..."),
                                    cl::cat(category));
static cl::opt<std::string> database("db", cl::desc("Tuning database (created if missing)"),
                                     cl::Required, cl::cat(category));
static cl::list<std::string>
    targets("targets", cl::CommaSeparated,
            cl::desc("Targets, e.g. x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t"),
            cl::cat(category));
static cl::opt<unsigned> schedulesPerTask("schedules-per-task",
                                          cl::desc("Schedules per task and target"),
                                          cl::init(100), cl::cat(category));
static cl::opt<unsigned> roundSize(
    "round-size",
    cl::desc("Schedules per task per round; every task gets a round before "
             "any gets the next"),
    cl::init(25), cl::cat(category));
static cl::opt<unsigned> diversityDraws(
    "diversity-draws",
    cl::desc("Uniform draws per pick; the one farthest from the measured "
             "schedules is measured (1: uniform sampling)"),
    cl::init(4), cl::cat(category));
static cl::opt<unsigned> workers("workers",
                                 cl::desc("Worker processes (0: one per core)"),
                                 cl::init(0), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the schedule draws"),
                              cl::init(0), cl::cat(category));
static cl::opt<double> minTaskFlops("min-task-flops",
                                    cl::desc("Leave out smaller tasks"),
                                    cl::init(0), cl::cat(category));
static cl::opt<std::string> onednn(
    "onednn",
    cl::desc("tcl-onednn binary for baselines ('none': no baselines; "
             "default: the one next to tcl-collect)"),
    cl::init(""), cl::cat(category));
static cl::opt<unsigned> timeoutSeconds(
    "timeout", cl::desc("Seconds one candidate may take to compile and run"),
    cl::init(60), cl::cat(category));
static cl::opt<unsigned> memoryLimitMb(
    "memory-limit-mb", cl::desc("Address-space limit of a candidate's process"),
    cl::init(8192), cl::cat(category));
static cl::opt<bool> noProgress("no-progress", cl::desc("No progress bar"),
                                cl::init(false), cl::cat(category));
static cl::opt<std::string> injectFault(
    "inject-fault",
    cl::desc("Break every candidate on purpose: crash, hang or wrong-result "
             "(tests of the measuring side)"),
    cl::init("none"), cl::Hidden, cl::cat(category));
static cl::opt<std::string> remeasureBefore(
    "remeasure-before",
    cl::desc("Measure again, on this machine, the schedules whose records "
             "were created before this time (YYYY-MM-DD[THH:MM[:SS]] UTC, or "
             "seconds since the epoch), replacing those records, instead of "
             "drawing new ones; the tasks come from the database"),
    cl::init(""), cl::cat(category));
static cl::list<std::string>
    taskKeys("tasks", cl::CommaSeparated,
             cl::desc("With --remeasure-before: only these tasks (keys)"),
             cl::cat(category));
static MeasurementOptions measurement(category);

/// Seconds since the epoch of a UTC date, date and time, or a plain number.
static std::optional<int64_t> parseTime(llvm::StringRef text) {
  int64_t seconds = 0;
  if (!text.getAsInteger(10, seconds))
    return seconds;
  std::string owned = text.str();
  for (const char *format : {"%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"}) {
    std::tm parsed = {};
    const char *end = strptime(owned.c_str(), format, &parsed);
    if (end && *end == '\0')
      return int64_t(timegm(&parsed));
  }
  return std::nullopt;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tcl-collect: measure a dataset of schedules\n");

  CollectionOptions options;
  if (!remeasureBefore.empty()) {
    std::optional<int64_t> before = parseTime(remeasureBefore);
    if (!before) {
      llvm::errs() << "tcl-collect: --remeasure-before '" << remeasureBefore
                   << "' is not YYYY-MM-DD[THH:MM[:SS]] or seconds since the "
                      "epoch\n";
      return 1;
    }
    if (!models.empty()) {
      llvm::errs() << "tcl-collect: --remeasure-before takes its tasks from "
                      "the database, not from model files (select them "
                      "with --tasks)\n";
      return 1;
    }
    if (!llvm::sys::fs::exists(database)) {
      llvm::errs() << "tcl-collect: no database '" << database
                   << "' to re-measure\n";
      return 1;
    }
    options.remeasure = RemeasureOptions{*before, {taskKeys.begin(), taskKeys.end()}};
  } else if (models.empty()) {
    llvm::errs() << "tcl-collect: no model files (or --remeasure-before)\n";
    return 1;
  } else if (!taskKeys.empty()) {
    llvm::errs() << "tcl-collect: --tasks selects tasks to re-measure; it "
                    "needs --remeasure-before\n";
    return 1;
  }
  options.models.assign(models.begin(), models.end());
  for (const std::string &path : options.models)
    if (!llvm::sys::fs::exists(path)) {
      llvm::errs() << "tcl-collect: no such model file '" << path << "'\n";
      return 1;
    }
  if (targets.empty())
    targets.push_back("x86_64:host:1t");
  for (const std::string &text : targets) {
    llvm::Expected<TargetSpec> spec = TargetSpec::parse(text);
    if (!spec) {
      llvm::errs() << "tcl-collect: " << llvm::toString(spec.takeError()) << "\n";
      return 1;
    }
    options.targets.push_back(*spec);
  }
  std::optional<InjectedFault> fault = parseInjectedFault(injectFault);
  if (!fault) {
    llvm::errs() << "tcl-collect: unknown --inject-fault '" << injectFault
                 << "' (expected none, crash, hang or wrong-result)\n";
    return 1;
  }
  if (schedulesPerTask == 0 || roundSize == 0) {
    llvm::errs() << "tcl-collect: --schedules-per-task and --round-size must "
                    "be at least 1\n";
    return 1;
  }
  options.database = database;
  options.schedulesPerTask = schedulesPerTask;
  options.roundSize = roundSize;
  options.diversityDraws = diversityDraws;
  options.workers = workers ? unsigned(workers) : allowedCores().size();
  options.seed = seed;
  options.minTaskFlops = minTaskFlops;
  options.progress = !noProgress;
  options.evaluation.measurement = measurement.policy();
  options.evaluation.limits.timeoutSeconds = timeoutSeconds;
  options.evaluation.limits.memoryBytes = uint64_t(memoryLimitMb) << 20;
  options.evaluation.injectedFault = *fault;
  if (onednn != "none") {
    std::string tool = onednn;
    if (tool.empty()) {
      llvm::SmallString<256> sibling(llvm::sys::path::parent_path(
          llvm::sys::fs::getMainExecutable(argv[0], (void *)&main)));
      llvm::sys::path::append(sibling, "tcl-onednn");
      tool = sibling.str().str();
    }
    if (!llvm::sys::fs::can_execute(tool)) {
      llvm::errs() << "tcl-collect: cannot run '" << tool
                   << "' for baselines (use --onednn=PATH or --onednn=none)\n";
      return 1;
    }
    options.onednnTool = tool;
  }

  llvm::Expected<CollectionReport> report = collect(options, llvm::errs());
  if (!report) {
    llvm::errs() << "tcl-collect: " << llvm::toString(report.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << llvm::formatv(
      "tcl-collect: {0} tasks, {1} (task, target) pairs; measured {2} "
      "candidates ({3} valid) in {4:F1} s: {5:F2} measurements/s\n",
      report->tasks, report->pairs, report->measured, report->valid,
      report->seconds, report->seconds > 0 ? report->measured / report->seconds : 0);
  return 0;
}
