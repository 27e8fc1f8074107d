//===- tcl-run.cpp - Lower, JIT-compile, run and check a linalg module ----===//
//
// Runs the entry function of a linalg-on-tensors module on random inputs:
// lowers it with tcl-lower-cpu, compiles it with LLVM's JIT for a chosen CPU
// target, reports the median latency over repeats, and optionally checks
// every output against the same module lowered to naive loops.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Run/Candidate.h"
#include "tcl/Run/ElidedResources.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Space/Space.h"
#include "tcl/Run/MeasurementOptions.h"
#include "tcl/Support/Version.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <numeric>

using namespace mlir;
using namespace tcl;
namespace cl = llvm::cl;

static cl::OptionCategory category("tcl-run options");
static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                                  cl::init("forward"), cl::cat(category));
static cl::opt<std::string> cpu("cpu", cl::desc("LLVM CPU name or 'host'"),
                                cl::init("host"), cl::cat(category));
static cl::opt<std::string>
    features("features", cl::desc("LLVM feature overrides, e.g. -avx512f"),
             cl::init(""), cl::cat(category));
static cl::opt<unsigned> threads("num-threads", cl::desc("Threads running the outer parallel loops"), cl::init(1),
                                 cl::cat(category));
static cl::opt<std::string>
    schedule("schedule", cl::desc("'default' heuristic, naive 'loops', or a schedule file (.mlir)"),
             cl::init("default"), cl::cat(category));
static cl::opt<bool> channelsLast(
    "channels-last",
    cl::desc("The default schedule first rewrites channels-first convolutions "
             "and poolings into channels-last ones (=false: keep them)"),
    cl::init(true), cl::cat(category));
static MeasurementOptions measurement(category);
static cl::opt<bool>
    check("check",
          cl::desc("Compare outputs with the module lowered to naive loops"),
          cl::init(false), cl::cat(category));
static cl::opt<double> absTolerance("atol", cl::desc("Absolute tolerance"),
                            cl::init(1e-4), cl::cat(category));
static cl::opt<double> relTolerance("rtol", cl::desc("Relative tolerance"),
                            cl::init(1e-3), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(0), cl::cat(category));
static cl::opt<uint64_t> fillElided(
    "fill-elided",
    cl::desc("Fill weights whose values the file elides "
             "(dense_resource<__elided__>) with random values from this seed "
             "(positive where a square root or logarithm reads them)"),
    cl::value_desc("seed"), cl::cat(category));
static cl::opt<std::string> jsonPath("json",
                                     cl::desc("Also write results as JSON"),
                                     cl::init(""), cl::cat(category));
static cl::opt<unsigned> randomSchedules(
    "random-schedules",
    cl::desc("Instead of one schedule, draw this many random legal schedules "
             "from the module's CPU space and evaluate each"),
    cl::init(0), cl::cat(category));
static cl::opt<uint64_t> scheduleSeed(
    "schedule-seed", cl::desc("First seed of --random-schedules draws"),
    cl::init(1), cl::cat(category));
static cl::list<unsigned> cores(
    "cores", cl::CommaSeparated,
    cl::desc("Build and measure on these cores, holding their locks so that "
             "no other tcl measurement shares them (default: any core, no "
             "lock)"),
    cl::cat(category));
static cl::opt<unsigned> profile(
    "profile",
    cl::desc("After timing, call the entry this many more times with every "
             "top-level op timed, and print where the time goes: the ops "
             "of the tasks and the glue between them (copies, fills, "
             "allocations)"),
    cl::value_desc("calls"), cl::init(0), cl::cat(category));
static cl::opt<unsigned>
    profileTop("profile-top",
               cl::desc("Ops --profile lists, the slowest first"), cl::init(20),
               cl::cat(category));
static cl::opt<unsigned> timeoutSeconds(
    "timeout", cl::desc("Seconds one schedule may take to compile and run"),
    cl::init(300), cl::cat(category));

static std::string formatSeconds(double seconds) {
  if (seconds >= 1)
    return llvm::formatv("{0:F3} s", seconds);
  if (seconds >= 1e-3)
    return llvm::formatv("{0:F3} ms", seconds * 1e3);
  return llvm::formatv("{0:F2} us", seconds * 1e6);
}

static llvm::json::Object resultJson(const CandidateResult &result) {
  llvm::json::Array samples, checks;
  for (double sample : result.timing.samples)
    samples.push_back(sample);
  for (auto [index, check] : llvm::enumerate(result.checks))
    checks.push_back(llvm::json::Object{
        {"output", int64_t(index)},
        {"ok", check.comparison.ok()},
        {"max_abs_error", check.comparison.maxAbsError},
        {"max_rel_error", check.comparison.maxRelError},
        {"mismatches", check.comparison.mismatches},
        {"non_finite", check.comparison.nonFinite},
        {"non_finite_reference", check.comparison.nonFiniteReference}});
  return llvm::json::Object{
      {"ok", result.ok},
      {"failure", result.failure},
      {"compile_s", result.compileSeconds},
      {"median_s", result.timing.median},
      {"min_s", result.timing.min},
      {"relative_spread", result.timing.relativeSpread},
      {"samples_s", std::move(samples)},
      {"contended_samples", result.timing.contendedSamples},
      {"contended_s", result.timing.contendedSeconds},
      {"contended", result.timing.contended},
      {"vector_ops", result.vectorOps},
      {"scalar_fallback", result.scalarFallback()},
      {"checks", std::move(checks)},
      {"profile", profileToJson(result.profile)}};
}

/// Prints one schedule's result the way the single-schedule mode reports it.
static void printResult(const CandidateResult &result, double flops) {
  llvm::outs() << "  compile:    " << formatSeconds(result.compileSeconds)
               << "\n"
               << "  latency:    median " << formatSeconds(result.timing.median)
               << ", min " << formatSeconds(result.timing.min) << ", spread "
               << llvm::formatv("{0:P1}", result.timing.relativeSpread) << " ("
               << result.timing.samples.size() << " runs";
  if (result.timing.contendedSamples)
    llvm::outs() << ", " << result.timing.contendedSamples
                 << " dropped: core contended";
  if (result.timing.contended)
    llvm::outs() << "; still contended after "
                 << formatSeconds(result.timing.contendedSeconds);
  llvm::outs() << ")\n";
  if (flops > 0)
    llvm::outs() << "  throughput: "
                 << llvm::formatv("{0:F2} GFLOP/s ({1:F3} GFLOP per call)",
                                  flops / result.timing.median / 1e9, flops / 1e9)
                 << "\n";
  llvm::outs() << "  vector ops: " << result.vectorOps
               << (result.scalarFallback()
                       ? " (SCALAR: the schedule vectorizes but the code has "
                         "no vector ops)"
                       : "")
               << "\n";
  for (auto [index, output] : llvm::enumerate(result.outputs))
    llvm::outs() << llvm::formatv(
        "  output #{0}:  {1}, min {2:E3}, max {3:E3}, mean {4:E3}\n", index,
        output.type, output.min, output.max, output.mean);
  for (auto [index, check] : llvm::enumerate(result.checks)) {
    const Comparison &cmp = check.comparison;
    llvm::outs() << "  check:      output #" << index << " ("
                 << result.outputs[index].type << ") ";
    if (cmp.nonFiniteReference) {
      llvm::outs() << "CANNOT BE JUDGED: the naive-loops reference has "
                   << cmp.nonFiniteReference
                   << " NaN or infinite values (inputs outside the ops' "
                      "domain?)";
      if (cmp.mismatches)
        llvm::outs() << ", and " << cmp.mismatches
                     << " of the other elements differ";
      llvm::outs() << "\n";
      continue;
    }
    llvm::outs() << (cmp.ok() ? "matches" : "DIFFERS FROM")
                 << " the naive-loops reference: max abs err "
                 << llvm::formatv("{0:E2}", cmp.maxAbsError) << ", max rel err "
                 << llvm::formatv("{0:E2}", cmp.maxRelError);
    if (!cmp.ok())
      llvm::outs() << ", " << cmp.mismatches << " mismatches ("
                   << cmp.nonFinite << " NaN or infinite), first at "
                   << cmp.firstMismatch << " (got " << check.got
                   << ", expected " << check.expected << ")";
    llvm::outs() << "\n";
  }
}

/// Where one call's time goes: the total per category, then the slowest
/// ops with their source locations.
static void printProfile(const std::vector<ProfiledOp> &ops) {
  double total = 0;
  llvm::MapVector<llvm::StringRef, std::pair<double, unsigned>> byCategory;
  for (const ProfiledOp &op : ops) {
    total += op.seconds;
    auto &[seconds, count] = byCategory[op.category];
    seconds += op.seconds;
    ++count;
  }
  llvm::outs() << "  profile:    " << ops.size() << " top-level ops, "
               << formatSeconds(total) << " per call (medians of " << profile
               << " calls)\n";
  for (auto &[name, entry] : byCategory)
    llvm::outs() << llvm::formatv(
        "    {0,-8} {1,4} ops {2,12} {3,6:P1}\n", name, entry.second,
        formatSeconds(entry.first), total > 0 ? entry.first / total : 0.0);
  std::vector<size_t> order(ops.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return ops[a].seconds > ops[b].seconds;
  });
  order.resize(std::min<size_t>(order.size(), profileTop));
  llvm::outs() << "    slowest ops:\n";
  for (size_t index : order)
    llvm::outs() << llvm::formatv(
        "    #{0,-4} {1,12} {2,6:P1}  {3,-8} {4,-16} {5}\n", index,
        formatSeconds(ops[index].seconds),
        total > 0 ? ops[index].seconds / total : 0.0, ops[index].category,
        ops[index].op, ops[index].location);
}

static OwningOpRef<ModuleOp> parseFile(llvm::StringRef path,
                                       MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << "tcl-run: " << error << "\n";
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// Draws `randomSchedules` legal schedules from the module's CPU space and
/// evaluates each; returns the JSON of every candidate.
static int runRandomSchedules(ModuleOp module, const CpuTarget &target,
                              CandidateEvaluator &evaluator,
                              llvm::json::Object &report) {
  OwningOpRef<ModuleOp> annotated = module.clone();
  auto space = buildCpuSpace(*annotated, target);
  if (failed(space))
    return 1;
  FailureOr<Space> knobs = Space::fromScript(**space);
  if (failed(knobs))
    return 1;
  llvm::outs() << "tcl-run: " << inputPath << " @" << entry << ", "
               << randomSchedules << " random legal schedules of "
               << knobs->countLegal() << ", " << threads << " thread(s)\n";
  llvm::json::Array candidates;
  unsigned failures = 0, scalar = 0;
  std::optional<double> best;
  std::string bestSchedule;
  for (unsigned draw = 0; draw < randomSchedules; ++draw) {
    uint64_t drawSeed = scheduleSeed + draw;
    std::optional<Assignment> assignment = knobs->sample(drawSeed);
    if (!assignment) {
      llvm::errs() << "tcl-run: no legal schedule in the space\n";
      return 1;
    }
    OwningOpRef<ModuleOp> schedule = (*space)->clone();
    knobs->concretize(*schedule, *assignment);
    CandidateResult result = evaluator.evaluate(*schedule);
    std::string text = knobs->format(*assignment);
    if (!result.ok) {
      ++failures;
      llvm::outs() << llvm::formatv("  #{0,-4} FAILED  {1}\n      schedule: {2}\n",
                                    drawSeed, result.failure, text);
    } else {
      double seconds = result.timing.median;
      scalar += result.scalarFallback();
      llvm::outs() << llvm::formatv(
          "  #{0,-4} {1,12} {2,9:F2} GFLOP/s  compile {3,9}{4}\n", drawSeed,
          formatSeconds(seconds), evaluator.flops() / seconds / 1e9,
          formatSeconds(result.compileSeconds),
          result.scalarFallback() ? "  SCALAR" : "");
      if (!result.scalarFallback() && (!best || seconds < *best)) {
        best = seconds;
        bestSchedule = text;
      }
    }
    llvm::json::Object entry = resultJson(result);
    entry["seed"] = int64_t(drawSeed);
    entry["schedule"] = text;
    candidates.push_back(std::move(entry));
  }
  llvm::outs() << "random schedules: " << randomSchedules << " evaluated, "
               << failures << " failed, " << scalar << " scalar\n";
  if (best)
    llvm::outs() << "best: " << formatSeconds(*best) << ", "
                 << llvm::formatv("{0:F2}", evaluator.flops() / *best / 1e9)
                 << " GFLOP/s: " << bestSchedule << "\n";
  report["candidates"] = std::move(candidates);
  report["failures"] = int64_t(failures);
  if (best) {
    report["best_median_s"] = *best;
    report["best_schedule"] = bestSchedule;
  }
  return failures ? 2 : 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { tcl::printVersion(os); });
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tcl-run: lower a linalg module for a CPU, run it, time it, check it\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  transform::registerTuneExtension(registry);
  // Candidates run in forked children; thread pools do not survive fork().
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseFile(inputPath, context, sourceMgr);
  if (!module)
    return 1;
  if (fillElided.getNumOccurrences())
    fillElidedResources(*module, fillElided);

  EvaluationOptions options;
  options.entry = entry;
  options.cpu = cpu;
  options.features = features;
  options.threads = threads;
  options.channelsLast = channelsLast;
  options.inputSeed = seed;
  options.check = check;
  options.absTolerance = absTolerance;
  options.relTolerance = relTolerance;
  options.measurement = measurement.policy();
  options.limits.timeoutSeconds = timeoutSeconds;
  options.profileCalls = profile;
  options.cores.assign(cores.begin(), cores.end());
  // Resolved once up front: a bad --cpu or --features is reported before
  // anything is compiled.
  llvm::Expected<CpuTarget> target = CpuTarget::resolve(cpu, features, threads);
  if (!target) {
    llvm::errs() << "tcl-run: " << llvm::toString(target.takeError()) << "\n";
    return 1;
  }
  auto evaluator = CandidateEvaluator::create(*module, options);
  if (failed(evaluator))
    return 1;

  llvm::json::Object report{{"input", inputPath}, {"entry", entry},
                            {"cpu", cpu},         {"features", features},
                            {"threads", int64_t(threads)},
                            {"flops", (*evaluator)->flops()}};
  int exitCode = 0;
  if (randomSchedules > 0) {
    exitCode = runRandomSchedules(*module, *target, **evaluator, report);
  } else {
    OwningOpRef<ModuleOp> scheduleModule;
    llvm::StringRef fallback = schedule;
    llvm::SourceMgr scheduleSourceMgr;
    if (llvm::StringRef(schedule).ends_with(".mlir")) {
      scheduleModule = parseFile(schedule, context, scheduleSourceMgr);
      if (!scheduleModule)
        return 1;
      fallback = "default";
    } else if (schedule != "default" && schedule != "loops") {
      llvm::errs() << "tcl-run: unknown schedule '" << schedule
                   << "' (expected 'default', 'loops' or a schedule file "
                      "ending in .mlir)\n";
      return 1;
    }
    CandidateResult result =
        (*evaluator)->evaluate(scheduleModule.get(), fallback);
    llvm::outs() << "tcl-run: " << inputPath << " @" << entry << ", schedule "
                 << schedule << ", " << threads << " thread(s)\n";
    if (!result.ok && result.checks.empty()) {
      llvm::errs() << "tcl-run: " << result.failure << "\n";
      return 1;
    }
    printResult(result, (*evaluator)->flops());
    if (!result.profile.empty())
      printProfile(result.profile);
    report["schedule"] = schedule;
    for (auto &[key, value] : resultJson(result))
      report[key] = value;
    if (!result.ok) {
      llvm::errs() << "tcl-run: " << result.failure << "\n";
      exitCode = 2;
    }
  }

  if (!jsonPath.empty()) {
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(jsonPath, &error);
    if (!out) {
      llvm::errs() << "tcl-run: " << error << "\n";
      return 1;
    }
    out->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
              << "\n";
    out->keep();
  }
  return exitCode;
}
