//===- tune-module.cpp - Tuning a module from another MLIR tool -----------===//
//
// What an MLIR-based framework does to tune its own modules with tcl, in
// process: parse (or build) a ModuleOp of linalg on tensors, call
// tcl::tuneModule, then schedule the module with the returned Transform
// library. The same tuning is also a pass, `tcl-tune`, once
// tcl::registerTclTunePasses() has run; the second half shows that route.
//
//   tune-module MODEL.mlir DATABASE [TRIALS]
//
//===----------------------------------------------------------------------===//

#include "tcl/Space/CpuSpace.h"
#include "tcl/Support/Context.h"
#include "tcl/Tune/Tuner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  if (argc < 3) {
    llvm::errs() << "usage: tune-module MODEL.mlir DATABASE [TRIALS]\n";
    return 2;
  }
  std::unique_ptr<mlir::MLIRContext> context = tcl::createContext();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, context.get());
  if (!module)
    return 1;

  // 1. The API: tune, then apply the schedules.
  tcl::TuneOptions options;
  options.target = "x86_64:x86-64-v3:1t";
  options.database = argv[2];
  options.trials = argc > 3 ? std::atoi(argv[3]) : 32;
  options.batchSize = 4;
  options.evaluation.measurement = tcl::MeasurementPolicy::fixed(2, 3);
  llvm::Expected<tcl::TuneResult> result =
      tcl::tuneModule(*module, options, llvm::errs());
  if (!result) {
    llvm::errs() << "tuning failed: " << llvm::toString(result.takeError())
                 << "\n";
    return 1;
  }
  for (const tcl::TunedTask &task : result->tasks)
    llvm::outs() << task.kind << " " << task.key << ": " << task.trials
                 << " trials, best " << task.bestAssignment << "\n";
  mlir::OwningOpRef<mlir::ModuleOp> tuned = module->clone();
  if (mlir::failed(tcl::applySchedule(*tuned, *result->schedule)))
    return 1;

  // 2. The pass: the same database already holds the trials, so this
  //    resumes and measures nothing.
  tcl::registerTclTunePasses();
  mlir::PassManager pm(context.get());
  std::string pipeline = "tcl-tune{target=x86_64:x86-64-v3:1t "
                         "quiet=true db=" +
                         std::string(argv[2]) +
                         " trials=" + std::to_string(options.trials) + "}";
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  auto print = [](mlir::ModuleOp op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  };
  llvm::outs() << "pass result equals API result: "
               << (print(*module) == print(*tuned) ? "yes" : "no") << "\n";
  return 0;
}
