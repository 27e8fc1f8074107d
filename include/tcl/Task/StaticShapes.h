//===- StaticShapes.h - Shapes made static, the rest diagnosed --*- C++ -*-===//
//
// tcl tunes statically shaped ops. Frontends often write static shapes in
// dynamic disguise (a `tensor.empty` of a constant size, a `tensor.cast` to
// `?`), which canonicalization undoes; what stays dynamic is diagnosed the
// same way by every pass that looks for tasks.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TASK_STATICSHAPES_H
#define TCL_TASK_STATICSHAPES_H

#include "tcl/Task/TaskExtraction.h"

#include "mlir/IR/BuiltinOps.h"

namespace tcl {

/// Whether one of `module`'s linalg ops has a dynamic shape.
bool hasDynamicLinalgOps(mlir::ModuleOp module);

/// Canonicalizes `module` if one of its linalg ops has a dynamic shape, so
/// that sizes that are constants become static. A module whose linalg ops
/// are all static is left untouched: canonicalization also rewrites static
/// ops (it deduplicates a generic's operands, for one), which would change
/// their task keys and orphan their records.
llvm::LogicalResult makeShapesStatic(mlir::ModuleOp module);

/// Diagnoses `op`, which cannot be tuned for the reason `cls` gives, at its
/// location: an error with a note on how to go on, or with
/// `allowUnsupported` a warning that it keeps the default schedule.
void diagnoseUnsupported(mlir::Operation *op, const Classification &cls,
                         bool allowUnsupported);

/// makeShapesStatic, then diagnoseUnsupported on every op that cannot be
/// tuned; fails if one of them is an error.
llvm::LogicalResult prepareTasks(mlir::ModuleOp module, bool allowUnsupported);

} // namespace tcl

#endif // TCL_TASK_STATICSHAPES_H
