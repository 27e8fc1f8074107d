//===- PrintSpace.cpp - The tcl-print-space pass --------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Task/StaticShapes.h"
#include "tcl/Space/Space.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "llvm/Support/FormatVariadic.h"

namespace tcl {
#define GEN_PASS_DEF_TCLPRINTSPACE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// Prints the knobs of `space`, without the "<kind>_<key>." qualification
/// that templates give their knob names, then its sizes.
static void printSpace(const tcl::Space &space, llvm::raw_ostream &os,
                       llvm::StringRef indent) {
  for (const tcl::Knob &knob : space.knobs()) {
    auto [qualifier, shortName] = llvm::StringRef(knob.name).rsplit('.');
    os << indent << (shortName.empty() ? qualifier : shortName) << ": [";
    llvm::interleaveComma(knob.options, os, [&](Attribute option) {
      os << tcl::formatOption(option);
    });
    os << "]";
    if (knob.selected)
      os << " selected " << tcl::formatOption(knob.options[*knob.selected]);
    os << "\n";
  }
  os << indent << space.knobs().size() << " knobs, " << space.size()
     << " schedules, " << space.countLegal() << " legal\n";
}

namespace {
struct PrintSpacePass : public tcl::impl::TclPrintSpaceBase<PrintSpacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::raw_ostream &os = llvm::outs();
    bool isScript = false;
    module.walk([&](transform::tune::KnobOp) { isScript = true; });
    if (isScript) {
      FailureOr<tcl::Space> space = tcl::Space::fromScript(module);
      if (failed(space))
        return signalPassFailure();
      printSpace(*space, os, "");
      markAllAnalysesPreserved();
      return;
    }

    if (failed(tcl::prepareTasks(module, allowUnsupported)))
      return signalPassFailure();
    auto space = tcl::buildCpuSpace(module, cpu, features, threads);
    if (failed(space))
      return signalPassFailure();
    unsigned templates = 0;
    for (auto sequence : (*space)->getOps<transform::NamedSequenceOp>()) {
      if (!sequence->hasAttr("tcl.kind"))
        continue;
      FailureOr<tcl::Space> taskSpace = tcl::Space::fromScript(sequence);
      if (failed(taskSpace))
        return signalPassFailure();
      os << "@" << sequence.getSymName() << " ("
         << sequence->getAttrOfType<StringAttr>("tcl.kind").getValue();
      if (auto flops = sequence->getAttrOfType<IntegerAttr>("tcl.flops"))
        os << llvm::formatv(", {0:F6} GFLOP", flops.getInt() / 1e9);
      os << ")\n";
      printSpace(*taskSpace, os, "  ");
      ++templates;
    }
    os << templates << " task templates\n";
  }
};
} // namespace
