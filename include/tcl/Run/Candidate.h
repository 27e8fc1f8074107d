//===- Candidate.h - Compile, run and check one schedule --------*- C++ -*-===//
//
// A candidate is one schedule of one module. Evaluating it applies the
// schedule, lowers and JIT-compiles the module for the target, times the
// entry function on fixed random inputs, checks the outputs against the
// naive-loops reference, and checks that the code is as vectorized as the
// schedule asked. Everything after the schedule runs in an isolated child
// process, so a candidate that hangs or crashes is a failed candidate, not
// a failed tuner.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_CANDIDATE_H
#define TCL_RUN_CANDIDATE_H

#include "tcl/Passes/Passes.h"
#include "tcl/Run/HostTensor.h"
#include "tcl/Run/Isolated.h"
#include "tcl/Run/JitModule.h"
#include "tcl/Run/OpProfile.h"
#include "tcl/Run/Statistics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcl {

/// Summary statistics of one output tensor.
struct OutputSummary {
  std::string type;
  double min = 0, max = 0, mean = 0;
};

/// One output compared with the reference.
struct OutputCheck {
  Comparison comparison;
  double got = 0, expected = 0; ///< At the first mismatch, if any.
};

/// What happened to a candidate: one of these is stored with every record.
enum class CandidateStatus {
  Ok,           ///< Compiled, ran, and (when checked) matched the reference.
  CompileError, ///< The schedule did not apply, lower, or compile.
  Timeout,      ///< Compiling or running took longer than the time limit.
  Crash,        ///< The candidate's process died (signal, abort, memory limit).
  WrongResult,  ///< Ran, but its outputs differ from the reference.
};

/// "ok", "compile_error", "timeout", "crash", "wrong_result".
llvm::StringRef statusName(CandidateStatus status);
std::optional<CandidateStatus> parseStatus(llvm::StringRef name);

/// Breaks every candidate on purpose, to test that the measuring side
/// records broken code as such and never lets it win.
enum class InjectedFault { None, Crash, Hang, WrongResult };
std::optional<InjectedFault> parseInjectedFault(llvm::StringRef name);

struct CandidateResult {
  CandidateStatus status = CandidateStatus::CompileError;
  /// Compiled, ran, and (when checked) matched the reference.
  bool ok = false;
  /// Why not: the compiler's diagnostics, "timed out after N s", "crashed
  /// (...)", or "outputs differ from the reference".
  std::string failure;
  double compileSeconds = 0;
  /// The whole evaluation as the caller saw it (process, build, timing,
  /// check), without waiting for core locks.
  double wallSeconds = 0;
  Timing timing;
  /// Ops with vector results in the lowered LLVM-dialect module.
  int64_t vectorOps = 0;
  /// The schedule asked for vector code (it vectorizes something).
  bool wantsVectors = false;
  std::vector<OutputSummary> outputs;
  std::vector<OutputCheck> checks;
  /// Each top-level op's median time per call (EvaluationOptions::
  /// profileCalls), in program order; empty when not profiled.
  std::vector<ProfiledOp> profile;

  /// Ran, and matched the reference wherever the reference was finite: the
  /// check failed only because the naive-loops reference overflowed (a deep
  /// network on random weights), so it judged nothing.
  bool unjudged() const {
    return status == CandidateStatus::WrongResult && !checks.empty() &&
           llvm::all_of(checks,
                        [](const OutputCheck &check) {
                          return check.comparison.mismatches == 0;
                        }) &&
           llvm::any_of(checks, [](const OutputCheck &check) {
             return check.comparison.nonFiniteReference > 0;
           });
  }

  /// A vectorizing schedule whose code came out scalar: flagged, because
  /// its time says nothing about the vectorized schedule it claims to be.
  bool scalarFallback() const { return wantsVectors && vectorOps == 0; }
};

struct EvaluationOptions {
  std::string entry = "forward";
  std::string cpu = "host";
  std::string features;
  unsigned threads = 1;
  /// The default schedule makes channels-first convolutions channels-last.
  bool channelsLast = true;
  uint64_t inputSeed = 0;
  bool check = false;
  double absTolerance = 1e-4;
  double relTolerance = 1e-3;
  MeasurementPolicy measurement;
  IsolationLimits limits;
  /// Cores the candidate is built and measured on, held exclusively for the
  /// whole evaluation (CoreLock), and the machine lock held shared while it
  /// builds and exclusively while it is timed (MachineLock); empty: no
  /// locks, any core.
  std::vector<unsigned> cores;
  InjectedFault injectedFault = InjectedFault::None;
  /// After timing, calls the entry this many more times with every
  /// top-level op timed (tcl-profile-ops); 0: no profile.
  unsigned profileCalls = 0;
  /// Run candidates in a child process (disable only to debug in-process).
  bool isolate = true;
};

class CandidateEvaluator {
public:
  /// Reads the entry signature, allocates the inputs and, when checking,
  /// computes the reference outputs. `payload` must outlive the evaluator;
  /// its context must have multithreading disabled when isolating.
  static llvm::FailureOr<std::unique_ptr<CandidateEvaluator>>
  create(mlir::ModuleOp payload, const EvaluationOptions &options);

  /// Evaluates `schedule` (a Transform script; null for none). The ops it
  /// does not schedule, or all ops without one, get the built-in
  /// `fallback` schedule: "default" or "loops".
  CandidateResult evaluate(mlir::ModuleOp schedule,
                           llvm::StringRef fallback = "default");

  const EvaluationOptions &options() const { return opts; }
  /// Moves later evaluations to `cores`: a tuner's worker process measures
  /// on other cores than the evaluator was created for.
  void setCores(std::vector<unsigned> cores) { opts.cores = std::move(cores); }
  /// FLOPs of one call of the entry function.
  double flops() const { return callFlops; }

private:
  CandidateEvaluator(mlir::ModuleOp payload, const EvaluationOptions &options)
      : payload(payload), opts(options) {}
  /// The child's side: everything after the fork, as JSON text.
  std::string evaluateHere(mlir::ModuleOp schedule, llvm::StringRef fallback);

  mlir::ModuleOp payload;
  EvaluationOptions opts;
  EntrySignature signature;
  std::vector<HostTensor> inputs, outputs, references;
  double callFlops = 0;
};

} // namespace tcl

#endif // TCL_RUN_CANDIDATE_H
