//===- PrintSpace.cpp - The tcl-print-space pass --------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/Space.h"

namespace tcl {
#define GEN_PASS_DEF_TCLPRINTSPACE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct PrintSpacePass : public tcl::impl::TclPrintSpaceBase<PrintSpacePass> {
  void runOnOperation() override {
    FailureOr<tcl::Space> space = tcl::Space::fromScript(getOperation());
    if (failed(space))
      return signalPassFailure();
    llvm::raw_ostream &os = llvm::outs();
    for (const tcl::Knob &knob : space->knobs()) {
      os << knob.name << ": [";
      llvm::interleaveComma(knob.options, os, [&](Attribute option) {
        os << tcl::formatOption(option);
      });
      os << "]";
      if (knob.selected)
        os << " selected " << tcl::formatOption(knob.options[*knob.selected]);
      os << "\n";
    }
    os << space->knobs().size() << " knobs, " << space->size()
       << " schedules\n";
    markAllAnalysesPreserved();
  }
};
} // namespace
