//===- Task.cpp - Task kinds and task-set summaries -----------------------===//

#include "tcl/Task/Task.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tcl;

llvm::StringRef tcl::stringifyTaskKind(TaskKind kind) {
  switch (kind) {
  case TaskKind::Matmul:
    return "matmul";
  case TaskKind::BatchMatmul:
    return "batch_matmul";
  case TaskKind::Conv2D:
    return "conv2d";
  case TaskKind::GroupedConv2D:
    return "grouped_conv2d";
  case TaskKind::DepthwiseConv2D:
    return "depthwise_conv2d";
  case TaskKind::Pooling:
    return "pooling";
  case TaskKind::Elementwise:
    return "elementwise";
  case TaskKind::Reduction:
    return "reduction";
  case TaskKind::Softmax:
    return "softmax";
  }
  llvm_unreachable("unknown TaskKind");
}

std::optional<TaskKind> tcl::symbolizeTaskKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<TaskKind>>(name)
      .Case("matmul", TaskKind::Matmul)
      .Case("batch_matmul", TaskKind::BatchMatmul)
      .Case("conv2d", TaskKind::Conv2D)
      .Case("grouped_conv2d", TaskKind::GroupedConv2D)
      .Case("depthwise_conv2d", TaskKind::DepthwiseConv2D)
      .Case("pooling", TaskKind::Pooling)
      .Case("elementwise", TaskKind::Elementwise)
      .Case("reduction", TaskKind::Reduction)
      .Case("softmax", TaskKind::Softmax)
      .Default(std::nullopt);
}

double TaskSet::totalFlops() const {
  double total = 0;
  for (const Task &task : tasks)
    total += task.weight * task.flops;
  return total;
}

unsigned TaskSet::countOccurrences(TaskKind kind) const {
  unsigned count = 0;
  for (const Task &task : tasks)
    if (task.kind == kind)
      count += task.weight;
  return count;
}
