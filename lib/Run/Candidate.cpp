//===- Candidate.cpp - Compile, run and check one schedule ----------------===//

#include "tcl/Run/Candidate.h"

#include "tcl/Run/CoreLock.h"
#include "tcl/Run/ElidedResources.h"
#include "FaultInjection.h"

#include "tcl/Space/CpuSpace.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace tcl;

namespace {
/// Lowers `module` to the LLVM dialect with tcl-lower-cpu for the
/// evaluation's target; `schedule` is the built-in schedule of the ops no
/// Transform script scheduled.
LogicalResult lower(ModuleOp module, const EvaluationOptions &options,
                    llvm::StringRef schedule) {
  CpuLoweringOptions lowering;
  lowering.cpu = options.cpu;
  lowering.features = options.features;
  lowering.threads = options.threads;
  lowering.channelsLast = options.channelsLast;
  lowering.schedule = schedule.str();
  lowering.profile = options.profileCalls > 0;
  PassManager pm(module->getContext());
  if (failed(buildCpuLoweringPipeline(pm, lowering)))
    return failure();
  return pm.run(module);
}

llvm::Expected<std::unique_ptr<JitModule>>
compile(ModuleOp module, const EvaluationOptions &options) {
  llvm::Expected<CpuTarget> target =
      CpuTarget::resolve(options.cpu, options.features, options.threads);
  if (!target)
    return target.takeError();
  return JitModule::compile(module, *target);
}

int64_t countVectorOps(ModuleOp module) {
  int64_t count = 0;
  module.walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), llvm::IsaPred<VectorType>))
      ++count;
  });
  return count;
}

/// JSON has no NaN or infinity (outputs of, e.g., rsqrt on random inputs
/// have them): those travel as the strings "nan", "inf" and "-inf".
llvm::json::Value number(double value) {
  if (std::isfinite(value))
    return value;
  if (std::isnan(value))
    return "nan";
  return value > 0 ? "inf" : "-inf";
}

double readNumber(const llvm::json::Object &object, llvm::StringRef key) {
  if (std::optional<double> value = object.getNumber(key))
    return *value;
  std::optional<llvm::StringRef> text = object.getString(key);
  if (text == "inf")
    return std::numeric_limits<double>::infinity();
  if (text == "-inf")
    return -std::numeric_limits<double>::infinity();
  if (text == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return 0;
}

llvm::json::Value toJson(const CandidateResult &result) {
  llvm::json::Array samples, outputs, checks;
  for (double sample : result.timing.samples)
    samples.push_back(sample);
  for (const OutputSummary &output : result.outputs)
    outputs.push_back(llvm::json::Object{{"type", output.type},
                                         {"min", number(output.min)},
                                         {"max", number(output.max)},
                                         {"mean", number(output.mean)}});
  for (const OutputCheck &check : result.checks)
    checks.push_back(llvm::json::Object{
        {"mismatches", check.comparison.mismatches},
        {"max_abs_error", number(check.comparison.maxAbsError)},
        {"max_rel_error", number(check.comparison.maxRelError)},
        {"first_mismatch", check.comparison.firstMismatch},
        {"non_finite", check.comparison.nonFinite},
        {"non_finite_reference", check.comparison.nonFiniteReference},
        {"got", number(check.got)},
        {"expected", number(check.expected)}});
  return llvm::json::Object{
      {"status", statusName(result.status)},
      {"ok", result.ok},
      {"failure", result.failure},
      {"compile_s", number(result.compileSeconds)},
      {"samples_s", std::move(samples)},
      {"calls_per_sample", result.timing.callsPerSample},
      {"contended_samples", result.timing.contendedSamples},
      {"contended_s", number(result.timing.contendedSeconds)},
      {"contended", result.timing.contended},
      {"vector_ops", result.vectorOps},
      {"outputs", std::move(outputs)},
      {"checks", std::move(checks)},
      {"profile", profileToJson(result.profile)}};
}

CandidateResult fromJson(llvm::StringRef text) {
  CandidateResult result;
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  const llvm::json::Object *object = parsed ? parsed->getAsObject() : nullptr;
  if (!object) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    result.status = CandidateStatus::Crash;
    result.failure = "the candidate's process sent no result";
    return result;
  }
  result.status = parseStatus(object->getString("status").value_or(""))
                      .value_or(CandidateStatus::Crash);
  result.ok = object->getBoolean("ok").value_or(false);
  result.failure = object->getString("failure").value_or("").str();
  result.compileSeconds = readNumber(*object, "compile_s");
  result.vectorOps = object->getInteger("vector_ops").value_or(0);
  std::vector<double> samples;
  if (const llvm::json::Array *array = object->getArray("samples_s"))
    for (const llvm::json::Value &value : *array)
      samples.push_back(value.getAsNumber().value_or(0));
  result.timing = summarize(std::move(samples));
  result.timing.callsPerSample =
      object->getInteger("calls_per_sample").value_or(1);
  result.timing.contendedSamples =
      object->getInteger("contended_samples").value_or(0);
  result.timing.contendedSeconds = readNumber(*object, "contended_s");
  result.timing.contended = object->getBoolean("contended").value_or(false);
  if (const llvm::json::Array *array = object->getArray("outputs"))
    for (const llvm::json::Value &value : *array) {
      const llvm::json::Object *output = value.getAsObject();
      result.outputs.push_back({output->getString("type").value_or("").str(),
                                readNumber(*output, "min"),
                                readNumber(*output, "max"),
                                readNumber(*output, "mean")});
    }
  if (const llvm::json::Array *array = object->getArray("checks"))
    for (const llvm::json::Value &value : *array) {
      const llvm::json::Object *check = value.getAsObject();
      OutputCheck entry;
      entry.comparison.mismatches = check->getInteger("mismatches").value_or(0);
      entry.comparison.maxAbsError = readNumber(*check, "max_abs_error");
      entry.comparison.maxRelError = readNumber(*check, "max_rel_error");
      entry.comparison.firstMismatch =
          check->getInteger("first_mismatch").value_or(-1);
      entry.comparison.nonFinite = check->getInteger("non_finite").value_or(0);
      entry.comparison.nonFiniteReference =
          check->getInteger("non_finite_reference").value_or(0);
      entry.got = readNumber(*check, "got");
      entry.expected = readNumber(*check, "expected");
      result.checks.push_back(entry);
    }
  if (const llvm::json::Array *array = object->getArray("profile"))
    result.profile = profileFromJson(*array);
  return result;
}

/// The naive-loops reference's outputs as bytes, one output after the
/// other, behind "R"; or "E" and why not.
std::string referenceBytes(ModuleOp payload, const EvaluationOptions &options,
                           const EntrySignature &signature) {
  OwningOpRef<ModuleOp> reference = payload.clone();
  if (failed(lower(*reference, options, "loops")))
    return "Ecannot lower the naive-loops reference";
  auto jit = compile(*reference, options);
  if (!jit)
    return "Ecannot compile the naive-loops reference: " +
           llvm::toString(jit.takeError());
  std::vector<HostTensor> inputs, outputs;
  signature.allocate(options.inputSeed, inputs, outputs);
  if (llvm::Error error = (*jit)->call(options.entry, inputs, outputs))
    return "E" + llvm::toString(std::move(error));
  std::string bytes = "R";
  for (const HostTensor &output : outputs)
    bytes.append(static_cast<const char *>(output.data()),
                 output.numElements() * elementBytes(output.kind()));
  return bytes;
}

/// Runs the naive-loops reference on the evaluation's inputs into
/// `references`, in an isolated child unless the evaluation runs in
/// process: a model's own assertion (torch-mlir checks that token ids are
/// in bounds) or a wild index must be a diagnostic, not the tool's crash.
llvm::Error computeReferences(ModuleOp payload,
                              const EvaluationOptions &options,
                              const EntrySignature &signature,
                              std::vector<HostTensor> &references) {
  auto body = [&] { return referenceBytes(payload, options, signature); };
  std::string bytes;
  if (options.isolate) {
    llvm::Expected<std::string> text = runIsolated(body, options.limits);
    if (!text)
      return llvm::createStringError(
          "the naive-loops reference did not run: " +
          llvm::toString(text.takeError()) +
          " (an assertion of the model's own, such as an index out of "
          "bounds, aborts it)");
    bytes = std::move(*text);
  } else {
    bytes = body();
  }
  if (bytes.empty() || bytes[0] != 'R')
    return llvm::createStringError(
        bytes.empty() ? std::string("the naive-loops reference sent nothing")
                      : bytes.substr(1));
  references.clear();
  for (const TensorSpec &spec : signature.outputs)
    references.emplace_back(spec.kind, spec.shape);
  size_t offset = 1;
  for (HostTensor &reference : references) {
    size_t size = reference.numElements() * elementBytes(reference.kind());
    if (offset + size > bytes.size())
      return llvm::createStringError(
          "the naive-loops reference sent fewer outputs than the entry "
          "function has");
    std::memcpy(reference.data(), bytes.data() + offset, size);
    offset += size;
  }
  return llvm::Error::success();
}
} // namespace

llvm::StringRef tcl::statusName(CandidateStatus status) {
  switch (status) {
  case CandidateStatus::Ok:
    return "ok";
  case CandidateStatus::CompileError:
    return "compile_error";
  case CandidateStatus::Timeout:
    return "timeout";
  case CandidateStatus::Crash:
    return "crash";
  case CandidateStatus::WrongResult:
    return "wrong_result";
  }
  llvm_unreachable("unknown candidate status");
}

std::optional<CandidateStatus> tcl::parseStatus(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<CandidateStatus>>(name)
      .Case("ok", CandidateStatus::Ok)
      .Case("compile_error", CandidateStatus::CompileError)
      .Case("timeout", CandidateStatus::Timeout)
      .Case("crash", CandidateStatus::Crash)
      .Case("wrong_result", CandidateStatus::WrongResult)
      .Default(std::nullopt);
}

std::optional<InjectedFault> tcl::parseInjectedFault(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<InjectedFault>>(name)
      .Case("none", InjectedFault::None)
      .Case("crash", InjectedFault::Crash)
      .Case("hang", InjectedFault::Hang)
      .Case("wrong-result", InjectedFault::WrongResult)
      .Default(std::nullopt);
}

FailureOr<std::unique_ptr<CandidateEvaluator>>
CandidateEvaluator::create(ModuleOp payload, const EvaluationOptions &options) {
  if (failed(verifyNoElidedResources(payload)))
    return failure();
  std::unique_ptr<CandidateEvaluator> evaluator(
      new CandidateEvaluator(payload, options));
  FailureOr<EntrySignature> signature =
      readEntrySignature(payload, options.entry);
  if (failed(signature))
    return failure();
  evaluator->signature = *signature;
  evaluator->signature.allocate(options.inputSeed, evaluator->inputs,
                                evaluator->outputs);
  evaluator->callFlops = extractTasks(payload).totalFlops();
  if (options.check) {
    if (llvm::Error error = computeReferences(payload, options,
                                              evaluator->signature,
                                              evaluator->references)) {
      llvm::errs() << "tcl: " << llvm::toString(std::move(error)) << "\n";
      return failure();
    }
  }
  return std::move(evaluator);
}

std::string CandidateEvaluator::evaluateHere(ModuleOp schedule,
                                             llvm::StringRef fallback) {
  CandidateResult result;
  std::string diagnostics;
  ScopedDiagnosticHandler collect(payload->getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      if (!diagnostics.empty())
        diagnostics += "; ";
      diagnostics += diag.str();
    }
    return success();
  });
  auto fail = [&](llvm::StringRef why) {
    result.failure = why.str();
    if (!diagnostics.empty())
      result.failure += ": " + diagnostics;
    return llvm::formatv("{0}", toJson(result)).str();
  };

  std::optional<MachineLock> machineLock;
  if (!opts.cores.empty()) {
    llvm::Expected<MachineLock> opened = MachineLock::open();
    if (!opened)
      return fail(llvm::toString(opened.takeError()));
    machineLock.emplace(std::move(*opened));
    if (llvm::Error error = machineLock->shared())
      return fail(llvm::toString(std::move(error)));
  }
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = payload.clone();
  if (schedule && failed(applySchedule(*module, schedule)))
    return fail("the schedule failed to apply");
  if (opts.injectedFault == InjectedFault::WrongResult &&
      failed(injectWrongResult(*module, opts.entry)))
    return fail("cannot inject a wrong result");
  if (failed(lower(*module, opts, fallback)))
    return fail("lowering failed");
  if ((opts.injectedFault == InjectedFault::Crash ||
       opts.injectedFault == InjectedFault::Hang) &&
      failed(injectAtEntry(*module, opts.entry, opts.injectedFault)))
    return fail("cannot inject the fault");
  result.vectorOps = countVectorOps(*module);
  auto jit = compile(*module, opts);
  if (!jit)
    return fail("JIT compilation failed: " + llvm::toString(jit.takeError()));
  result.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  auto call = (*jit)->bind(opts.entry, inputs, outputs);
  if (!call)
    return fail(llvm::toString(call.takeError()));
  if (machineLock)
    if (llvm::Error error = machineLock->exclusive())
      return fail(llvm::toString(std::move(error)));
  result.timing = measure(*call, opts.measurement);
  if (opts.profileCalls) {
    result.profile = readProfiledOps(*module);
    measureOps(*call, opts.profileCalls, result.profile);
  }

  for (const HostTensor &output : outputs) {
    OutputSummary summary{output.typeString(), output.at(0), output.at(0), 0};
    double sum = 0;
    for (int64_t i = 0; i < output.numElements(); ++i) {
      summary.min = std::min(summary.min, output.at(i));
      summary.max = std::max(summary.max, output.at(i));
      sum += output.at(i);
    }
    summary.mean = sum / output.numElements();
    result.outputs.push_back(summary);
  }
  bool matches = true, judged = true;
  if (opts.check) {
    for (size_t i = 0; i < outputs.size(); ++i) {
      OutputCheck check;
      check.comparison =
          outputs[i].compare(references[i], opts.absTolerance, opts.relTolerance);
      if (!check.comparison.ok() && check.comparison.firstMismatch >= 0) {
        check.got = outputs[i].at(check.comparison.firstMismatch);
        check.expected = references[i].at(check.comparison.firstMismatch);
      }
      matches &= check.comparison.ok();
      judged &= check.comparison.nonFiniteReference == 0;
      result.checks.push_back(check);
    }
  }
  result.ok = matches;
  result.status = matches ? CandidateStatus::Ok : CandidateStatus::WrongResult;
  if (!judged)
    result.failure = "the reference outputs have NaN or infinite values: the "
                     "check cannot judge them";
  else if (!matches)
    result.failure = "outputs differ from the reference";
  return llvm::formatv("{0}", toJson(result)).str();
}

CandidateResult CandidateEvaluator::evaluate(ModuleOp schedule,
                                             llvm::StringRef fallback) {
  bool wantsVectors = false;
  if (schedule)
    schedule.walk([&](Operation *op) {
      wantsVectors |= isa<transform::VectorizeOp,
                          transform::VectorizeChildrenAndApplyPatternsOp>(op);
    });
  else
    wantsVectors = fallback == "default";
  CandidateResult result;
  result.wantsVectors = wantsVectors;
  std::optional<CoreLock> lock;
  if (!opts.cores.empty()) {
    llvm::Expected<CoreLock> acquired = CoreLock::acquire(opts.cores);
    if (!acquired) {
      result.status = CandidateStatus::Crash;
      result.failure = llvm::toString(acquired.takeError());
      return result;
    }
    lock.emplace(std::move(*acquired));
  }
  auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    result.wallSeconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    return result;
  };
  if (opts.isolate) {
    llvm::Expected<std::string> text = runIsolated(
        [&] {
          if (!opts.cores.empty())
            llvm::consumeError(pinToCores(opts.cores));
          return evaluateHere(schedule, fallback);
        },
        opts.limits);
    if (!text) {
      llvm::handleAllErrors(
          text.takeError(),
          [&](const IsolationError &error) {
            result.status = error.kind() == IsolationError::Kind::TimedOut
                                ? CandidateStatus::Timeout
                                : CandidateStatus::Crash;
            result.failure = error.message();
          },
          [&](const llvm::ErrorInfoBase &error) {
            result.status = CandidateStatus::Crash;
            result.failure = error.message();
          });
      return finish();
    }
    result = fromJson(*text);
  } else {
    result = fromJson(evaluateHere(schedule, fallback));
  }
  result.wantsVectors = wantsVectors;
  return finish();
}
