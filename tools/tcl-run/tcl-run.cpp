//===- tcl-run.cpp - Lower, JIT-compile, run and check a linalg module ----===//
//
// Runs the entry function of a linalg-on-tensors module on random inputs:
// lowers it with tcl-lower-cpu, compiles it with LLVM's JIT for a chosen CPU
// target, reports the median latency over repeats, and optionally checks
// every output against the same module lowered to naive loops.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Run/JitModule.h"
#include "tcl/Run/Statistics.h"
#include "tcl/Support/Version.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

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
static cl::opt<unsigned> warmup("warmup", cl::desc("Untimed calls"),
                                cl::init(2), cl::cat(category));
static cl::opt<unsigned> repeats("repeats", cl::desc("Timed calls"),
                                 cl::init(10), cl::cat(category));
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
static cl::opt<std::string> jsonPath("json",
                                     cl::desc("Also write results as JSON"),
                                     cl::init(""), cl::cat(category));

namespace {
/// A module lowered and compiled for one schedule, with its compile time.
struct Build {
  std::unique_ptr<JitModule> module;
  double compileSeconds = 0;
};
} // namespace

static FailureOr<Build> lowerAndCompile(ModuleOp module,
                                        llvm::StringRef scheduleName) {
  auto start = std::chrono::steady_clock::now();
  CpuLoweringOptions options;
  options.cpu = cpu;
  options.features = features;
  options.threads = threads;
  options.schedule = scheduleName.str();
  PassManager pm(module->getContext());
  if (failed(buildCpuLoweringPipeline(pm, options)) || failed(pm.run(module)))
    return failure();
  llvm::Expected<CpuTarget> target = CpuTarget::resolve(cpu, features, threads);
  if (!target) {
    llvm::errs() << "tcl-run: " << llvm::toString(target.takeError()) << "\n";
    return failure();
  }
  llvm::Expected<std::unique_ptr<JitModule>> jit =
      JitModule::compile(module, *target);
  if (!jit) {
    llvm::errs() << "tcl-run: JIT compilation failed: "
                 << llvm::toString(jit.takeError()) << "\n";
    return failure();
  }
  Build build;
  build.module = std::move(*jit);
  build.compileSeconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  return build;
}

static std::string formatSeconds(double seconds) {
  if (seconds >= 1)
    return llvm::formatv("{0:F3} s", seconds);
  if (seconds >= 1e-3)
    return llvm::formatv("{0:F3} ms", seconds * 1e3);
  return llvm::formatv("{0:F2} us", seconds * 1e6);
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
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputPath, &error);
  if (!file) {
    llvm::errs() << "tcl-run: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  FailureOr<EntrySignature> signature = readEntrySignature(*module, entry);
  if (failed(signature))
    return 1;
  double flops = extractTasks(*module).totalFlops();
  OwningOpRef<ModuleOp> reference = check ? module->clone() : nullptr;

  FailureOr<Build> build = lowerAndCompile(*module, schedule);
  if (failed(build))
    return 1;
  std::vector<HostTensor> inputs, outputs;
  signature->allocate(seed, inputs, outputs);
  llvm::Expected<std::function<void()>> call =
      build->module->bind(entry, inputs, outputs);
  if (!call) {
    llvm::errs() << "tcl-run: " << llvm::toString(call.takeError()) << "\n";
    return 1;
  }
  Timing timing = measure(*call, warmup, std::max(1u, unsigned(repeats)));

  llvm::outs() << "tcl-run: " << inputPath << " @" << entry << ", schedule "
               << schedule << ", " << threads << " thread(s)\n"
               << "  compile:    " << formatSeconds(build->compileSeconds)
               << "\n"
               << "  latency:    median " << formatSeconds(timing.median)
               << ", min " << formatSeconds(timing.min) << ", spread "
               << llvm::formatv("{0:P1}", timing.relativeSpread) << " ("
               << timing.samples.size() << " runs)\n";
  if (flops > 0)
    llvm::outs() << "  throughput: "
                 << llvm::formatv("{0:F2} GFLOP/s ({1:F3} GFLOP per call)",
                                  flops / timing.median / 1e9, flops / 1e9)
                 << "\n";

  for (auto [index, output] : llvm::enumerate(outputs)) {
    double lo = output.at(0), hi = output.at(0), sum = 0;
    for (int64_t i = 0; i < output.numElements(); ++i) {
      lo = std::min(lo, output.at(i));
      hi = std::max(hi, output.at(i));
      sum += output.at(i);
    }
    llvm::outs() << llvm::formatv(
        "  output #{0}:  {1}, min {2:E3}, max {3:E3}, mean {4:E3}\n", index,
        output.typeString(), lo, hi, sum / output.numElements());
  }

  llvm::json::Array checks;
  bool allMatch = true;
  if (check) {
    FailureOr<Build> naive = lowerAndCompile(*reference, "loops");
    if (failed(naive))
      return 1;
    std::vector<HostTensor> refInputs, refOutputs;
    signature->allocate(seed, refInputs, refOutputs);
    if (llvm::Error err = naive->module->call(entry, refInputs, refOutputs)) {
      llvm::errs() << "tcl-run: " << llvm::toString(std::move(err)) << "\n";
      return 1;
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      Comparison cmp = outputs[i].compare(refOutputs[i], absTolerance, relTolerance);
      allMatch &= cmp.ok();
      llvm::outs() << "  check:      output #" << i << " ("
                   << outputs[i].typeString() << ") "
                   << (cmp.ok() ? "matches" : "DIFFERS FROM")
                   << " the naive-loops reference: max abs err "
                   << llvm::formatv("{0:E2}", cmp.maxAbsError)
                   << ", max rel err "
                   << llvm::formatv("{0:E2}", cmp.maxRelError);
      if (!cmp.ok())
        llvm::outs() << ", " << cmp.mismatches << " mismatches, first at "
                     << cmp.firstMismatch << " (got "
                     << outputs[i].at(cmp.firstMismatch) << ", expected "
                     << refOutputs[i].at(cmp.firstMismatch) << ")";
      llvm::outs() << "\n";
      checks.push_back(llvm::json::Object{{"output", int64_t(i)},
                                          {"ok", cmp.ok()},
                                          {"max_abs_error", cmp.maxAbsError},
                                          {"max_rel_error", cmp.maxRelError},
                                          {"mismatches", cmp.mismatches}});
    }
  }

  if (!jsonPath.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(jsonPath, &error);
    if (!out) {
      llvm::errs() << "tcl-run: " << error << "\n";
      return 1;
    }
    llvm::json::Array samples;
    for (double sample : timing.samples)
      samples.push_back(sample);
    llvm::json::Object result{
        {"input", inputPath},        {"entry", entry},
        {"schedule", schedule},      {"cpu", cpu},
        {"features", features},      {"threads", int64_t(threads)},
        {"compile_s", build->compileSeconds},
        {"median_s", timing.median}, {"min_s", timing.min},
        {"relative_spread", timing.relativeSpread},
        {"samples_s", std::move(samples)},
        {"flops", flops},            {"checks", std::move(checks)}};
    out->os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(result)))
              << "\n";
    out->keep();
  }
  if (!allMatch) {
    llvm::errs() << "tcl-run: outputs differ from the reference\n";
    return 2;
  }
  return 0;
}
