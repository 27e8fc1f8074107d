//===- ApplySchedule.cpp - The tcl-apply-schedule pass --------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/CpuSpace.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"

namespace tcl {
#define GEN_PASS_DEF_TCLAPPLYSCHEDULE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct ApplySchedulePass
    : public tcl::impl::TclApplyScheduleBase<ApplySchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (schedulePath.empty()) {
      module.emitError("tcl-apply-schedule needs a schedule file");
      return signalPassFailure();
    }
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> buffer =
        openInputFile(schedulePath, &error);
    if (!buffer) {
      module.emitError() << "cannot read the schedule: " << error;
      return signalPassFailure();
    }
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    OwningOpRef<ModuleOp> schedule =
        parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&getContext()));
    if (!schedule)
      return signalPassFailure();
    if (failed(tcl::applySchedule(module, *schedule)))
      return signalPassFailure();
  }
};
} // namespace
