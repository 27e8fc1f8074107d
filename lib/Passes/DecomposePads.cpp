//===- DecomposePads.cpp - The tcl-decompose-pads pass --------------------===//
//
// A pad bufferizes to a per-element linalg.map of its region; as a fill and
// an insert_slice it runs at memory speed.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcl {
#define GEN_PASS_DEF_TCLDECOMPOSEPADS
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct DecomposePadsPass
    : public tcl::impl::TclDecomposePadsBase<DecomposePadsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposePadPatterns(patterns);
    // Only the pads themselves: folding the new ops would reach into the
    // scheduled tiles.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    SmallVector<Operation *> pads;
    getOperation().walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    if (failed(applyOpPatternsGreedily(pads, std::move(patterns), config))) {
      getOperation().emitError("tcl-decompose-pads did not converge");
      return signalPassFailure();
    }
  }
};
} // namespace
