//===- TaskExtraction.h - Find tunable ops in a module ----------*- C++ -*-===//

#ifndef TCL_TASK_TASKEXTRACTION_H
#define TCL_TASK_TASKEXTRACTION_H

#include "tcl/Task/Task.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
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

/// One occurrence of a task in a module: the tunable op and the elementwise
/// consumers fused into it, in chain order.
struct TaskOccurrence {
  mlir::Operation *anchor;
  llvm::ArrayRef<mlir::Operation *> consumers;
};

/// Extracts and groups the tasks of every function in `module`. Each op
/// that cannot be tuned is also handed to `onUnsupported`, so that callers
/// can diagnose it at its location without classifying it again; each
/// occurrence of a task is handed to `onOccurrence`.
TaskSet extractTasks(
    mlir::ModuleOp module,
    llvm::function_ref<void(mlir::Operation *, const Classification &)>
        onUnsupported = {},
    llvm::function_ref<void(const TaskOccurrence &, const Task &)>
        onOccurrence = {});

/// A module with one function, `@forward`, that computes one occurrence of a
/// task on its own: the anchor op and its fused consumers, with every tensor
/// they read as an argument, except accumulators initialized by a constant
/// `linalg.fill`, which are rebuilt inside. This is how a task is measured
/// alone (benchmarks, datasets). Fails, saying why, when an op reads a
/// scalar that is not a constant.
llvm::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
outlineTask(const TaskOccurrence &occurrence, std::string &whyNot);

/// The attribute that names an anchor op's task key, which is how a
/// schedule's Transform script finds the ops it schedules.
inline constexpr llvm::StringLiteral kTaskAttrName = "tcl.task";

/// Marks the last elementwise consumer fused into a task occurrence, which
/// is where a schedule that fuses the chain tiles from.
inline constexpr llvm::StringLiteral kFusionRootAttrName = "tcl.fusion_root";

/// Marks the elementwise consumers fused into a task occurrence before its
/// last (the fusion root): a fusing schedule fuses exactly these and the
/// anchor into the root's tiles, and nothing upstream of them.
inline constexpr llvm::StringLiteral kFusedConsumerAttrName =
    "tcl.fused_consumer";

/// Sets `tcl.task = "<tag>"` on the anchor op of every task occurrence,
/// `tcl.fusion_root = "<tag>"` on the last consumer fused into it, and
/// `tcl.fused_consumer = "<tag>"` on the consumers in between. The tag is
/// the task's key, or, for a task that occurs more than once, `<key>.<i>` for
/// its i-th occurrence in walk order: Transform ops with parameter tile sizes
/// take one parameter value per target op, so each occurrence is scheduled
/// by its own copy of the task's sequence (see buildCpuSpace).
TaskSet annotateTasks(mlir::ModuleOp module);

/// The tag annotateTasks gives occurrence `index` of `count` of task `key`.
std::string occurrenceTag(llvm::StringRef key, size_t index, size_t count);

/// The task key of a tag.
inline llvm::StringRef keyOfTag(llvm::StringRef tag) {
  return tag.split('.').first;
}

} // namespace tcl

#endif // TCL_TASK_TASKEXTRACTION_H
