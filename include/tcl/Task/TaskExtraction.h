//===- TaskExtraction.h - Find tunable ops in a module ----------*- C++ -*-===//

#ifndef TCL_TASK_TASKEXTRACTION_H
#define TCL_TASK_TASKEXTRACTION_H

#include "tcl/Task/Task.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"

namespace tcl {

/// Classification of one op: a task kind, or the reason it cannot be tuned.
struct Classification {
  std::optional<TaskKind> kind;
  std::string unsupportedReason;
  /// True for ops that are deliberately not tasks (linalg.fill initializes
  /// the accumulator of its consumer; zero-dimensional ops have no loops;
  /// non-linalg ops are not scheduled).
  bool ignored = false;
};

/// Decides whether `op` is tunable and which schedule family it belongs to.
Classification classifyOp(mlir::Operation *op);

/// Canonical text of a structured op (see Task::canonicalForm).
std::string canonicalForm(mlir::Operation *op);

/// 16 hex digits of SHA-256 over `text`.
std::string stableKey(llvm::StringRef text);

/// Floating-point (or integer) operations executed by `op`: the iteration
/// space size times the arithmetic ops in its payload.
double countFlops(mlir::Operation *op);

/// Bytes of a statically shaped tensor or memref type; 0 for anything else.
int64_t shapedTypeBytes(mlir::Type type);

/// Bytes read and written by `op` when run on its own.
int64_t countBytes(mlir::Operation *op);

/// Extracts and groups the tasks of every function in `module`. Each op
/// that cannot be tuned is also handed to `onUnsupported`, so that callers
/// can diagnose it at its location without classifying it again; each
/// occurrence of a task is handed to `onOccurrence` with its anchor op.
TaskSet extractTasks(
    mlir::ModuleOp module,
    llvm::function_ref<void(mlir::Operation *, const Classification &)>
        onUnsupported = {},
    llvm::function_ref<void(mlir::Operation *anchor, const Task &)>
        onOccurrence = {});

/// The attribute that names an anchor op's task key, which is how a
/// schedule's Transform script finds the ops it schedules.
inline constexpr llvm::StringLiteral kTaskAttrName = "tcl.task";

/// Sets `tcl.task = "<key>"` on the anchor op of every task occurrence.
TaskSet annotateTasks(mlir::ModuleOp module);

} // namespace tcl

#endif // TCL_TASK_TASKEXTRACTION_H
