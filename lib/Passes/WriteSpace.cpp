//===- WriteSpace.cpp - The tcl-cpu-space and tcl-gpu-space passes --------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Space/GpuSpace.h"
#include "tcl/Task/StaticShapes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tcl {
#define GEN_PASS_DEF_TCLCPUSPACE
#define GEN_PASS_DEF_TCLGPUSPACE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// Prints the space built for `module` to `outputPath` ('-': stdout).
static LogicalResult writeSpace(ModuleOp module,
                                FailureOr<OwningOpRef<ModuleOp>> space,
                                StringRef outputPath) {
  if (failed(space))
    return failure();
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputPath, &error);
  if (!output)
    return module.emitError() << "cannot write the space: " << error;
  (*space)->print(output->os());
  output->keep();
  return success();
}

namespace {
struct CpuSpacePass : public tcl::impl::TclCpuSpaceBase<CpuSpacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(tcl::prepareTasks(module, allowUnsupported)))
      return signalPassFailure();
    if (failed(writeSpace(module,
                          tcl::buildCpuSpace(module, cpu, features, threads),
                          outputPath)))
      signalPassFailure();
  }
};

struct GpuSpacePass : public tcl::impl::TclGpuSpaceBase<GpuSpacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<tcl::GpuTarget> parsed = tcl::GpuTarget::parse(target);
    if (!parsed) {
      module.emitError() << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    if (failed(writeSpace(module, tcl::buildGpuSpace(module, *parsed),
                          outputPath)))
      signalPassFailure();
  }
};
} // namespace
