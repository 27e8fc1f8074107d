//===- Task.h - A tunable unit of work extracted from a model ---*- C++ -*-===//
//
// A Task is one tunable linalg op (plus the elementwise consumers that fuse
// into it) with static shapes. Identical ops across a model share one Task;
// `weight` counts how often it occurs, which is what the tuner's task
// scheduler multiplies latencies by.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TASK_TASK_H
#define TCL_TASK_TASK_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcl {

/// The schedule-space family a task belongs to. Each kind has its own
/// schedule template, so the classification must be structural (from
/// indexing maps and payload), never from op names alone.
enum class TaskKind {
  Matmul,          ///< C[m,n] += A[m,k] * B[k,n], in any operand layout.
  BatchMatmul,     ///< A contraction with batch dimensions.
  Conv2D,          ///< Dense 2-D convolution (NHWC/HWCF, NHWC/FHWC, NCHW/FCHW).
  GroupedConv2D,   ///< Convolution with a group dimension.
  DepthwiseConv2D, ///< One filter per channel.
  Pooling,         ///< Window reduction without weights (max, sum, ...).
  Elementwise,     ///< All-parallel generic (incl. transpose, broadcast).
  Reduction,       ///< Generic with reduction loops that is not a contraction.
  Softmax,         ///< linalg.softmax.
};

/// Stable lowercase name of `kind` used in JSON and in the tuning database.
llvm::StringRef stringifyTaskKind(TaskKind kind);
/// Inverse of stringifyTaskKind.
std::optional<TaskKind> symbolizeTaskKind(llvm::StringRef name);

/// Where a task occurs in the source: "file:line:col" or the location text.
using SourceLocation = std::string;

/// An elementwise op fused into a task's anchor op (bias add, ReLU, ...).
struct FusedConsumer {
  std::string opName;
  std::string canonicalForm;
};

/// Convolution-specific structure, recorded because conv schedule spaces
/// depend on it (a 1x1 stride-1 conv is a matmul in disguise).
struct ConvInfo {
  llvm::SmallVector<int64_t, 2> strides;
  llvm::SmallVector<int64_t, 2> dilations;
  llvm::SmallVector<int64_t, 2> filterSizes;
  int64_t groups = 1;
  std::string layout; ///< e.g. "nhwc_hwcf"; empty for generics.
};

struct Task {
  /// 16 hex digits of a SHA-256 over `canonicalForm`: stable across runs,
  /// machines and source files, so it keys the tuning database.
  std::string key;
  /// Text that fully determines the computation: iterator types, indexing
  /// maps, operand types, payload and fused consumers. Op names and SSA names
  /// are excluded, so a named op and the equivalent generic share a key.
  std::string canonicalForm;
  TaskKind kind = TaskKind::Elementwise;
  std::string opName; ///< Name of the first occurrence, e.g. "linalg.matmul".
  llvm::SmallVector<std::string> iteratorTypes;
  llvm::SmallVector<int64_t> loopBounds;
  llvm::SmallVector<std::string> operandTypes;
  std::string elementType; ///< Element type of the (first) result.
  /// Matmul family: which operands are transposed ("nn", "nt", "tn", "tt").
  std::string matmulVariant;
  std::optional<ConvInfo> conv;
  double flops = 0;
  int64_t bytes = 0;
  unsigned weight = 0;
  std::vector<FusedConsumer> fusableConsumers;
  std::vector<SourceLocation> locations;

  /// FLOPs per byte moved: a roofline coordinate for schedules and features.
  double arithmeticIntensity() const {
    return bytes > 0 ? flops / static_cast<double>(bytes) : 0.0;
  }
};

/// A linalg op that tcl saw but cannot tune, and why.
struct UnsupportedOp {
  std::string opName;
  SourceLocation location;
  std::string reason;
};

/// Everything extracted from one module, tasks in first-occurrence order.
struct TaskSet {
  std::vector<Task> tasks;
  std::vector<UnsupportedOp> unsupported;

  /// Sum over tasks of weight * flops: the model's total work.
  double totalFlops() const;
  /// Occurrences (sum of weights) of tasks of `kind`.
  unsigned countOccurrences(TaskKind kind) const;
};

} // namespace tcl

#endif // TCL_TASK_TASK_H
