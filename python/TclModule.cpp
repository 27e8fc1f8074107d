//===- TclModule.cpp - pybind11 bindings of tcl's C++ API -----------------===//
//
// The Python surface mirrors the C++ one: functions take MLIR text and
// return JSON text, which `tcl/__init__.py` decodes. Debian ships no MLIR
// Python bindings, so modules cross the boundary as text.
//
//===----------------------------------------------------------------------===//

#include "tcl/Support/Version.h"
#include "tcl/Task/TaskExtraction.h"
#include "tcl/Task/TaskJson.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace py = pybind11;

/// Parses `source` and returns the task JSON; raises ValueError carrying
/// the parser's file:line diagnostics on bad input.
static std::string extractTasksJson(const std::string &source,
                                    const std::string &filename) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, filename), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    throw py::value_error(diagnostics);
  std::string json;
  llvm::raw_string_ostream(json)
      << llvm::json::Value(tcl::toJSON(tcl::extractTasks(*module)));
  return json;
}

PYBIND11_MODULE(_tcl, m) {
  m.doc() = "tcl: tensor-program tuning on MLIR (native part)";
  m.def("extract_tasks_json", &extractTasksJson, py::arg("source"),
        py::arg("filename") = "<string>",
        "Extract the tunable tasks of an MLIR module given as text; returns "
        "the JSON report of tcl-opt --tcl-extract-tasks.");
  m.def("version", [] {
    std::string text;
    llvm::raw_string_ostream os(text);
    tcl::printVersion(os);
    return text;
  });
}
