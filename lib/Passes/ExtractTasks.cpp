//===- ExtractTasks.cpp - The tcl-extract-tasks pass ----------------------===//

#include "tcl/Passes/Passes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "tcl/Task/StaticShapes.h"
#include "tcl/Task/TaskExtraction.h"
#include "tcl/Task/TaskJson.h"
#include "tcl/Task/TaskTable.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tcl {
#define GEN_PASS_DEF_TCLEXTRACTTASKS
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;
using namespace tcl;

namespace {
struct ExtractTasksPass : public tcl::impl::TclExtractTasksBase<ExtractTasksPass> {
  using Base::Base;

  void runOnOperation() override {
    // The report describes the module as tcl tunes it, with its static
    // shapes in disguise made static; the IR itself is left as it is.
    ModuleOp module = getOperation();
    OwningOpRef<ModuleOp> canonical;
    if (hasDynamicLinalgOps(module)) {
      canonical = module.clone();
      module = *canonical;
      if (failed(makeShapesStatic(module)))
        return signalPassFailure();
    }
    if (format != "json" && format != "table") {
      module.emitError() << "unknown report format '" << format
                         << "' (expected 'json' or 'table')";
      return signalPassFailure();
    }
    if (!outlineDir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(outlineDir)) {
        module.emitError() << "cannot create '" << outlineDir
                           << "': " << ec.message();
        return signalPassFailure();
      }
    }
    // The first occurrence of each task, written as a module of its own.
    llvm::StringSet<> outlined;
    bool outlineFailed = false;
    auto outline = [&](const TaskOccurrence &occurrence, const Task &task) {
      if (outlineDir.empty() || !outlined.insert(task.key).second)
        return;
      std::string whyNot;
      auto taskModule = outlineTask(occurrence, whyNot);
      if (failed(taskModule)) {
        occurrence.anchor->emitWarning()
            << "cannot outline task " << task.key << ": " << whyNot;
        return;
      }
      llvm::SmallString<128> path(outlineDir.getValue());
      llvm::sys::path::append(path, std::string(stringifyTaskKind(task.kind)) +
                                        "_" + task.key + ".mlir");
      std::string error;
      std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
      if (!file) {
        module.emitError() << "cannot write '" << path << "': " << error;
        outlineFailed = true;
        return;
      }
      (*taskModule)->print(file->os());
      file->keep();
    };
    // Diagnose at the op itself so the user gets file:line:col.
    TaskSet tasks = extractTasks(
        module,
        [&](Operation *op, const Classification &cls) {
          diagnoseUnsupported(op, cls, allowUnsupported);
        },
        outline);
    if (outlineFailed)
      return signalPassFailure();

    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> output =
        openOutputFile(outputPath, &error);
    if (!output) {
      module.emitError() << "cannot write tasks to '" << outputPath
                         << "': " << error;
      return signalPassFailure();
    }
    if (format == "table")
      printTaskTable(tasks, output->os());
    else
      output->os() << llvm::formatv("{0:2}", toJSON(tasks)) << "\n";
    output->keep();
    if (!tasks.unsupported.empty() && !allowUnsupported)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
