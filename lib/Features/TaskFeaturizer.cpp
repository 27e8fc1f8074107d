//===- TaskFeaturizer.cpp - Featurizing a stored task's schedules ---------===//

#include "tcl/Features/TaskFeaturizer.h"

#include "tcl/Space/CpuSpace.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tcl;

llvm::Expected<std::unique_ptr<TaskFeaturizer>>
TaskFeaturizer::create(MLIRContext &context, llvm::StringRef payload,
                       llvm::StringRef key, const CpuTarget &target,
                       llvm::StringRef machineCpu) {
  // Diagnostics become the error's text instead of going to stderr.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    diagnostics += "\n  " + diagnostic.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(payload, ParserConfig(&context), key);
  if (!module)
    return llvm::createStringError(
        "task " + key + ": the payload does not parse" + diagnostics);
  FailureOr<OwningOpRef<ModuleOp>> script = buildCpuSpace(*module, target);
  if (failed(script))
    return llvm::createStringError("task " + key + ": cannot build its space" +
                                   diagnostics);
  TaskSet tasks = annotateTasks(*module);
  const Task *task = nullptr;
  for (const Task &candidate : tasks.tasks)
    if (candidate.key == key)
      task = &candidate;
  linalg::LinalgOp anchor;
  module->walk([&](linalg::LinalgOp op) {
    auto attr = op->getAttrOfType<StringAttr>(kTaskAttrName);
    if (!anchor && attr && attr.getValue() == key)
      anchor = op;
  });
  auto sequence = (*script)->lookupSymbol<transform::NamedSequenceOp>(
      ("tcl_" + key).str());
  if (!task || !anchor || !sequence)
    return llvm::createStringError("task " + key +
                                   ": the payload does not contain it");
  // The whole script's knobs are the template's: it is the only sequence
  // with knobs.
  FailureOr<Space> space = Space::fromScript(**script);
  if (failed(space))
    return llvm::createStringError("task " + key + ": cannot read its space" +
                                   diagnostics);
  FailureOr<ScheduleFeaturizer> featurizer = ScheduleFeaturizer::create(
      anchor, *task, sequence, *space, HardwareDescription::forCpu(target, machineCpu));
  if (failed(featurizer))
    return llvm::createStringError(
        "task " + key + ": cannot featurize its template" + diagnostics);
  return std::unique_ptr<TaskFeaturizer>(
      new TaskFeaturizer(&context, std::move(module), std::move(*script),
                         std::move(*space), std::move(*featurizer)));
}

llvm::Error TaskFeaturizer::featurize(llvm::StringRef assignment,
                                      TokenSequence &sequence) const {
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::SplitString(assignment, parts, ",");
  std::vector<std::string> items(parts.begin(), parts.end());
  std::string problem;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    problem = diagnostic.str();
    return success();
  });
  FailureOr<Assignment> parsed = taskSpace.parseAssignment(
      items, std::nullopt, [&]() { return emitError(UnknownLoc::get(context)); });
  if (failed(parsed))
    return llvm::createStringError("schedule '" + assignment + "': " + problem);
  scheduleFeaturizer.featurize(*parsed, sequence);
  return llvm::Error::success();
}
