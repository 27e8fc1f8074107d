//===- Concretize.cpp - The tcl-concretize pass ---------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/Space.h"

namespace tcl {
#define GEN_PASS_DEF_TCLCONCRETIZE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct ConcretizePass : public tcl::impl::TclConcretizeBase<ConcretizePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<tcl::Space> space = tcl::Space::fromScript(module);
    if (failed(space))
      return signalPassFailure();

    std::vector<std::string> items(schedule.begin(), schedule.end());
    std::optional<uint64_t> draw;
    if (seed >= 0)
      draw = static_cast<uint64_t>(seed);
    FailureOr<tcl::Assignment> assignment = space->parseAssignment(
        items, draw, [&] { return module.emitError(); });
    if (failed(assignment))
      return signalPassFailure();
    space->concretize(module, *assignment);
  }
};
} // namespace
