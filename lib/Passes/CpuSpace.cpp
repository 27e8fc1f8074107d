//===- CpuSpace.cpp - The tcl-cpu-space pass ------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/CpuSpace.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tcl {
#define GEN_PASS_DEF_TCLCPUSPACE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct CpuSpacePass : public tcl::impl::TclCpuSpaceBase<CpuSpacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto space = tcl::buildCpuSpace(module, cpu, features, threads);
    if (failed(space))
      return signalPassFailure();
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> output =
        openOutputFile(outputPath, &error);
    if (!output) {
      module.emitError() << "cannot write the space: " << error;
      return signalPassFailure();
    }
    (*space)->print(output->os());
    output->keep();
  }
};
} // namespace
