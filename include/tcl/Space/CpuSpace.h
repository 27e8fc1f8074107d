//===- CpuSpace.h - CPU schedule spaces of a model's tasks ------*- C++ -*-===//
//
// Every task of a model gets a schedule template: a Transform named sequence
// `@tcl_<key>` whose free parameters are `transform.tune.knob`s and whose
// `tcl.constraints` reject illegal knob combinations. Together with a
// `@__transform_main` that includes each of them, the templates form the
// model's space; concretized, the same script is the model's schedule, which
// stock `mlir-opt -transform-interpreter` replays on the annotated model.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_SPACE_CPUSPACE_H
#define TCL_SPACE_CPUSPACE_H

#include "tcl/Target/CpuTarget.h"
#include "tcl/Task/Task.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace tcl {

/// The text of task `key`'s template, `transform.named_sequence @tcl_<key>`,
/// for `anchor` (any occurrence of the task, with `fusedConsumers`
/// elementwise consumers fused into it by extraction) on `target`.
std::string writeCpuTemplate(mlir::linalg::LinalgOp anchor, TaskKind kind,
                             llvm::StringRef key, unsigned fusedConsumers,
                             const CpuTarget &target);

/// Writes the template of one task (given its first occurrence), or none
/// when the task is left to the default schedule.
using TemplateFn = llvm::function_ref<std::optional<std::string>(
    mlir::linalg::LinalgOp anchor, const Task &task)>;

/// Annotates `payload`'s tasks (`tcl.task`) and returns the space that
/// `writeTemplate` writes for them: its templates, one copy per occurrence,
/// and a `@__transform_main` that includes them in the order of the ops they
/// tile from. Emits a diagnostic and fails if a template does not parse (a
/// tcl bug).
llvm::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
buildSpace(mlir::ModuleOp payload, TemplateFn writeTemplate);

/// Annotates `payload`'s tasks (`tcl.task`) and returns the space of the
/// whole model: one template per task plus `@__transform_main`. Emits a
/// diagnostic and fails if a template does not parse (a tcl bug).
llvm::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
buildCpuSpace(mlir::ModuleOp payload, const CpuTarget &target);

/// buildCpuSpace for a target given as the passes take it (CPU name,
/// feature overrides, threads); a bad target is diagnosed at `payload`.
llvm::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
buildCpuSpace(mlir::ModuleOp payload, llvm::StringRef cpu,
              llvm::StringRef features, unsigned threads);

/// Applies a schedule (a concrete space, or any Transform script with a
/// `@__transform_main`) to `payload`, after annotating its tasks so that
/// the schedule's `tcl.task` matches find them.
llvm::LogicalResult applySchedule(mlir::ModuleOp payload,
                                  mlir::ModuleOp schedule);

} // namespace tcl

#endif // TCL_SPACE_CPUSPACE_H
