//===- TaskList.h - The tasks of models, outlined for measuring -*- C++ -*-===//
//
// Collection and tuning both start from the distinct tasks of one or more
// models, each outlined into a standalone module (its payload) that is
// measured, stored in the database and featurized on its own.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MEASURE_TASKLIST_H
#define TCL_MEASURE_TASKLIST_H

#include "tcl/DB/TuningDatabase.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tcl {

struct OutlinedTask {
  std::string key, kind;
  double flops = 0;
  /// The task as a module with one function, @forward.
  std::string payload;
  std::map<std::string, int64_t> occurrencesByNetwork;
};

class TaskList {
public:
  /// Adds the tasks of `module`, the network `network`, in first-seen order;
  /// a task already listed gains occurrences. Softmax (no template yet),
  /// tasks under `minFlops` and tasks that cannot be outlined into a module
  /// of their own (notOutlined) are left out; returns how many occurrences
  /// were.
  unsigned add(mlir::ModuleOp module, llvm::StringRef network, double minFlops);

  const std::vector<OutlinedTask> &tasks() const { return list; }
  /// "key: why" for each task left out because it cannot be outlined, such
  /// as a generic whose payload reads a tensor of the enclosing function
  /// (torch-mlir's adaptive average pooling): it keeps the default schedule.
  const std::vector<std::string> &notOutlined() const { return unoutlinable; }

private:
  std::vector<OutlinedTask> list;
  std::map<std::string, size_t> byKey;
  std::vector<std::string> unoutlinable;
  std::set<std::string> unoutlinableKeys;
};

/// Stores `tasks` and their networks, in one transaction.
llvm::Error storeTasks(TuningDatabase &db, llvm::ArrayRef<OutlinedTask> tasks);

} // namespace tcl

#endif // TCL_MEASURE_TASKLIST_H
