//===- ExtractTasks.cpp - The tcl-extract-tasks pass ----------------------===//

#include "tcl/Passes/Passes.h"
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
    ModuleOp module = getOperation();
    if (format != "json" && format != "table") {
      module.emitError() << "unknown report format '" << format
                         << "' (expected 'json' or 'table')";
      return signalPassFailure();
    }
    // Diagnose at the op itself so the user gets file:line:col.
    TaskSet tasks = extractTasks(
        module, [&](Operation *op, const Classification &cls) {
          InFlightDiagnostic diag =
              allowUnsupported ? op->emitWarning() : op->emitError();
          diag << "cannot tune '" << op->getName()
               << "': " << cls.unsupportedReason;
          if (!allowUnsupported)
            diag.attachNote() << "pass allow-unsupported=true to list such "
                                 "ops and extract the rest";
        });

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
