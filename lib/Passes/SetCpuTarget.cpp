//===- SetCpuTarget.cpp - The tcl-set-cpu-target pass ---------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Target/CpuTarget.h"

#include "llvm/ADT/StringExtras.h"

namespace tcl {
#define GEN_PASS_DEF_TCLSETCPUTARGET
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct SetCpuTargetPass
    : public tcl::impl::TclSetCpuTargetBase<SetCpuTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Expected<tcl::CpuTarget> target =
        tcl::CpuTarget::resolve(cpu, features);
    if (!target) {
      getOperation().emitError()
          << "invalid CPU target: " << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    MLIRContext *context = &getContext();
    auto cpuAttr = StringAttr::get(context, target->cpu);
    llvm::SmallVector<StringRef> featureWords;
    StringRef(target->features)
        .split(featureWords, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    auto featuresAttr = LLVM::TargetFeaturesAttr::get(context, featureWords);
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      func.setTargetCpuAttr(cpuAttr);
      func.setTargetFeaturesAttr(featuresAttr);
    });
  }
};
} // namespace
