//===- GpuSpace.cpp - The tcl-gpu-space pass ------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/GpuSpace.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tcl {
#define GEN_PASS_DEF_TCLGPUSPACE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct GpuSpacePass : public tcl::impl::TclGpuSpaceBase<GpuSpacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<tcl::GpuTarget> parsed = tcl::GpuTarget::parse(target);
    if (!parsed) {
      module.emitError() << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    auto space = tcl::buildGpuSpace(module, *parsed);
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
