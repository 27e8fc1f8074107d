//===- TaskTable.cpp - Human-readable table of extracted tasks ------------===//

#include "tcl/Task/TaskTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace tcl;

static std::string joinBounds(const Task &task) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(task.loopBounds, os, "x");
  return text;
}

void tcl::printTaskTable(const TaskSet &set, llvm::raw_ostream &os) {
  double total = set.totalFlops();
  std::vector<size_t> order(set.tasks.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return set.tasks[a].weight * set.tasks[a].flops >
           set.tasks[b].weight * set.tasks[b].flops;
  });
  os << llvm::formatv("{0,3}  {1,-16}  {2,-16}  {3,-24}  {4,6}  {5,9}  "
                      "{6,6}  {7,5}\n",
                      "#", "key", "kind", "loop bounds", "weight", "GFLOP",
                      "share", "fused");
  unsigned occurrences = 0;
  for (auto [row, index] : llvm::enumerate(order)) {
    const Task &task = set.tasks[index];
    occurrences += task.weight;
    double share = total > 0 ? task.weight * task.flops / total : 0;
    os << llvm::formatv("{0,3}  {1,-16}  {2,-16}  {3,-24}  {4,6}  {5,9:F3}  "
                        "{6,6:P1}  {7,5}\n",
                        row + 1, task.key, stringifyTaskKind(task.kind),
                        joinBounds(task), task.weight, task.flops / 1e9, share,
                        task.fusableConsumers.size());
  }
  for (const UnsupportedOp &op : set.unsupported)
    os << "  unsupported: " << op.opName << " at " << op.location << ": "
       << op.reason << "\n";
  os << llvm::formatv("{0} tasks, {1} tunable ops, {2} unsupported, "
                      "{3:F3} GFLOP per run\n",
                      set.tasks.size(), occurrences, set.unsupported.size(),
                      total / 1e9);
}
