//===- tcl-opt.cpp - The tcl optimizer driver -----------------------------===//
//
// mlir-opt with every upstream dialect, pass and extension (the Transform
// dialect's Tune extension included) plus tcl's passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Support/Version.h"
#include "tcl/Tune/Tuner.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

#include <deque>
#include <string>
#include <vector>

/// Passes that write a report to standard output. When one runs and no -o
/// is given, the module goes to /dev/null so that stdout holds only the
/// report (valid JSON for tcl-extract-tasks).
static bool writesReportToStdout(llvm::StringRef arg) {
  if (arg.contains("tcl-print-space"))
    return true;
  if (arg.contains("tcl-cpu-space") || arg.contains("tcl-gpu-space"))
    return !arg.contains("output=") || arg.contains("output=-");
  if (!arg.contains("tcl-extract-tasks"))
    return false;
  return !arg.contains("output=") || arg.contains("output=-");
}

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  tcl::registerTclPasses();
  tcl::registerTclPipelines();
  tcl::registerTclTunePasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::transform::registerTuneExtension(registry);
  // gpu-module-to-binary translates kernels to LLVM IR in-process.
  mlir::registerAllToLLVMIRTranslations(registry);

  llvm::cl::AddExtraVersionPrinter(
      [](llvm::raw_ostream &os) { tcl::printVersion(os); });

  std::vector<char *> args(argv, argv + argc);
  // The short form --tcl-apply-schedule=FILE of the pass option
  // --tcl-apply-schedule=schedule=FILE.
  // A deque: growing it never moves the strings argv now points into.
  std::deque<std::string> rewritten;
  for (char *&arg : args) {
    llvm::StringRef text(arg);
    for (llvm::StringRef prefix : {"--tcl-apply-schedule=", "-tcl-apply-schedule="})
      if (text.starts_with(prefix) && !text.drop_front(prefix.size()).contains('=')) {
        rewritten.push_back(prefix.str() + "schedule=" +
                            text.drop_front(prefix.size()).str());
        arg = rewritten.back().data();
      }
  }
  // --tcl-export-schedules=FILE is the tcl-tune pass's export-schedules
  // option, written as a flag of its own.
  std::string exportPath;
  llvm::erase_if(args, [&](char *arg) {
    llvm::StringRef text(arg);
    for (llvm::StringRef prefix :
         {"--tcl-export-schedules=", "-tcl-export-schedules="})
      if (text.starts_with(prefix)) {
        exportPath = text.drop_front(prefix.size()).str();
        return true;
      }
    return false;
  });
  if (!exportPath.empty()) {
    bool attached = false;
    for (char *&arg : args) {
      llvm::StringRef text(arg);
      for (llvm::StringRef prefix : {"--tcl-tune", "-tcl-tune"}) {
        if (attached || !(text == prefix || text.starts_with(prefix.str() + "=")))
          continue;
        std::string options = text.drop_front(prefix.size()).ltrim('=').str();
        if (llvm::StringRef(options).starts_with("\"") ||
            llvm::StringRef(options).starts_with("'"))
          options = options.substr(1, options.size() - 2);
        rewritten.push_back(prefix.str() + "=" + options +
                            (options.empty() ? "" : " ") +
                            "export-schedules=" + exportPath);
        arg = rewritten.back().data();
        attached = true;
      }
    }
    if (!attached) {
      llvm::errs() << "tcl-opt: --tcl-export-schedules needs --tcl-tune\n";
      return 1;
    }
  }
  bool reportToStdout = false, hasOutput = false;
  for (llvm::StringRef arg : llvm::ArrayRef<char *>(args).drop_front()) {
    reportToStdout |= writesReportToStdout(arg);
    hasOutput |= arg == "-o" || arg.starts_with("-o=") ||
                 arg.starts_with("--o=") || arg == "--o";
  }
  static char outputFlag[] = "-o", devNull[] = "/dev/null";
  if (reportToStdout && !hasOutput) {
    args.push_back(outputFlag);
    args.push_back(devNull);
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(args.size()), args.data(),
      "tcl optimizer driver: MLIR 22 plus tcl's tuning passes\n", registry));
}
