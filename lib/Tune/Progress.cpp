//===- Progress.cpp - What the tuner prints while it works ----------------===//

#include "Progress.h"

#include "tcl/Support/Duration.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tcl;

static std::string formatSeconds(std::optional<double> seconds) {
  if (!seconds)
    return "-";
  if (*seconds >= 1)
    return llvm::formatv("{0:F2} s", *seconds);
  if (*seconds >= 1e-3)
    return llvm::formatv("{0:F3} ms", *seconds * 1e3);
  return llvm::formatv("{0:F1} us", *seconds * 1e6);
}

/// "2.10x" when both are known: how many times faster `best` is.
static std::string speedup(std::optional<double> reference,
                           std::optional<double> best) {
  if (!reference || !best || *best <= 0)
    return "-";
  return llvm::formatv("{0:F2}x", *reference / *best);
}

static std::string gflops(const TunedTask &task) {
  if (!task.bestSeconds || *task.bestSeconds <= 0)
    return "-";
  return llvm::formatv("{0:F1}", task.flops / *task.bestSeconds * 1e-9);
}

void tcl::printRound(llvm::raw_ostream &os, const RoundReport &report) {
  const TunedTask &task = *report.task;
  double rate = report.elapsedSeconds > 0
                    ? report.measuredThisRun / report.elapsedSeconds
                    : 0;
  unsigned left = report.trialsWanted > report.trialsDone
                      ? report.trialsWanted - report.trialsDone
                      : 0;
  os << llvm::formatv(
      "[{0,3}/{1}] {2,-18} {3}  trials {4,4}  best {5,10}  {6,7} GFLOP/s  "
      "{7,6} default  {8,6} oneDNN | {9}/{10} trials  model {11}  {12:F2}/s  "
      "ETA {13}\n",
      report.taskIndex + 1, report.taskCount, task.kind,
      llvm::StringRef(task.key).take_front(8), task.trials,
      formatSeconds(task.bestSeconds), gflops(task),
      speedup(task.defaultSeconds, task.bestSeconds),
      speedup(task.onednnSeconds, task.bestSeconds), report.trialsDone,
      report.trialsWanted, formatSeconds(report.estimatedSeconds), rate,
      rate > 0 ? formatDuration(left / rate) : std::string("?"));
  os.flush();
}

/// "12.3 ms tuned against 20.1 ms <name> (1.63x), 18 of 20 tasks": the
/// tuned module's time (TunedTask::chosenSeconds) against `baseline` summed
/// over the same tasks, those that have both, so that a task without a
/// valid measurement is not a free win.
static void printSum(llvm::raw_ostream &os, const TuneResult &result,
                     llvm::StringRef name,
                     std::optional<double> TunedTask::*baseline) {
  std::optional<double> tuned, reference;
  unsigned both = 0;
  for (const TunedTask &task : result.tasks) {
    std::optional<double> chosen = task.chosenSeconds();
    if (!chosen || !(task.*baseline))
      continue;
    tuned = tuned.value_or(0) + task.weight * *chosen;
    reference = reference.value_or(0) + task.weight * *(task.*baseline);
    ++both;
  }
  os << llvm::formatv("\n  {0} tuned against {1} {2} ({3}), {4} of {5} tasks",
                      formatSeconds(tuned), formatSeconds(reference), name,
                      speedup(reference, tuned), both, result.tasks.size());
}

/// The tasks that nothing valid ran for, with why: a run that tuned
/// nothing must not read like one that won.
static void printUntuned(llvm::raw_ostream &os, const TuneResult &result) {
  unsigned untuned = result.untunedTasks();
  if (!untuned)
    return;
  os << llvm::formatv("\nUNTUNED: {0} of {1} tasks have no valid schedule and "
                      "keep the default one:\n",
                      untuned, result.tasks.size());
  for (const TunedTask &task : result.tasks)
    if (task.untuned())
      os << llvm::formatv("  {0,-18} {1,-16} {2} trials: {3}\n", task.kind,
                          task.key, task.trials,
                          task.lastFailure.empty()
                              ? std::string("no candidate measured (the trials ran out first)")
                              : llvm::StringRef(task.lastFailure)
                                    .take_front(160)
                                    .str());
}

void tcl::printSummary(llvm::raw_ostream &os, const TuneResult &result) {
  os << llvm::formatv("\n{0,-18} {1,-16} {2,6} {3,6} {4,11} {5,8} {6,11} "
                      "{7,11} {8,8} {9,8}  {10}\n",
                      "kind", "task", "count", "trials", "best", "GFLOP/s",
                      "default", "oneDNN", "vs dflt", "vs dnnl", "uses");
  for (const TunedTask &task : result.tasks)
    os << llvm::formatv("{0,-18} {1,-16} {2,6} {3,6} {4,11} {5,8} {6,11} "
                        "{7,11} {8,8} {9,8}  {10}\n",
                        task.kind, task.key, static_cast<int64_t>(task.weight),
                        task.trials,
                        formatSeconds(task.bestSeconds), gflops(task),
                        formatSeconds(task.defaultSeconds),
                        formatSeconds(task.onednnSeconds),
                        speedup(task.defaultSeconds, task.bestSeconds),
                        speedup(task.onednnSeconds, task.bestSeconds),
                        task.untuned()        ? "UNTUNED"
                        : task.keepsDefault() ? "default"
                                              : "tuned");
  os << "\nall tasks, sum of count x latency over the tasks with both figures:";
  printSum(os, result, "default schedule", &TunedTask::defaultSeconds);
  printSum(os, result, "oneDNN", &TunedTask::onednnSeconds);
  os << "\n";
  if (result.tunedSeconds || result.defaultSeconds)
    os << llvm::formatv("end to end (whole module, measured): {0} tuned, {1} "
                        "default schedule ({2}); oneDNN per-op sum {3} "
                        "(each op's faster time of the run's start and end; "
                        "tasks without a oneDNN primitive at tcl's time)\n",
                        formatSeconds(result.tunedSeconds),
                        formatSeconds(result.defaultSeconds),
                        speedup(result.defaultSeconds, result.tunedSeconds),
                        formatSeconds(result.onednnSumSeconds));
  os << llvm::formatv("{0} candidates measured in {1}: {2} searching and "
                      "sampling, {3} measuring, {4} updating the model\n",
                      result.measured, formatDuration(result.seconds),
                      formatDuration(result.time.searching),
                      formatDuration(result.time.measuring),
                      formatDuration(result.time.updating));
  printUntuned(os, result);
  os.flush();
}
