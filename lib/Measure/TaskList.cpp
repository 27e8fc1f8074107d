//===- TaskList.cpp - The tasks of models, outlined for measuring ---------===//

#include "tcl/Measure/TaskList.h"

#include "tcl/Task/TaskExtraction.h"

using namespace mlir;
using namespace tcl;

static std::string printOp(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

unsigned TaskList::add(ModuleOp module, llvm::StringRef network,
                       double minFlops) {
  unsigned skipped = 0;
  extractTasks(module, {}, [&](const TaskOccurrence &occurrence, const Task &task) {
    if (task.flops < minFlops || task.kind == TaskKind::Softmax ||
        unoutlinableKeys.count(task.key)) {
      ++skipped;
      return;
    }
    auto [it, isNew] = byKey.try_emplace(task.key, list.size());
    if (isNew) {
      std::string whyNot;
      auto outlined = outlineTask(occurrence, whyNot);
      if (failed(outlined)) {
        unoutlinableKeys.insert(task.key);
        unoutlinable.push_back(task.key + ": " + whyNot);
        byKey.erase(it);
        ++skipped;
        return;
      }
      list.push_back({task.key, stringifyTaskKind(task.kind).str(), task.flops,
                      printOp(**outlined), {}});
    }
    ++list[it->second].occurrencesByNetwork[network.str()];
  });
  return skipped;
}

llvm::Error tcl::storeTasks(TuningDatabase &db,
                            llvm::ArrayRef<OutlinedTask> tasks) {
  return sqlite::transaction(db.connection(), [&]() -> llvm::Error {
    for (const OutlinedTask &task : tasks) {
      if (llvm::Expected<int64_t> id =
              db.addTask({task.key, task.kind, task.flops, task.payload});
          !id)
        return id.takeError();
      for (const auto &[network, count] : task.occurrencesByNetwork)
        if (llvm::Error error = db.addTaskNetwork(task.key, network, count))
          return error;
    }
    return llvm::Error::success();
  });
}
