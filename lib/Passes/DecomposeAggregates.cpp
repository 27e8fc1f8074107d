//===- DecomposeAggregates.cpp - The tcl-decompose-aggregates pass --------===//

#include "tcl/Passes/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace tcl {
#define GEN_PASS_DEF_TCLDECOMPOSEAGGREGATES
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct DecomposeAggregatesPass
    : public tcl::impl::TclDecomposeAggregatesBase<DecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> replacements =
          op.decomposeOperation(rewriter);
      if (failed(replacements)) {
        op->emitError("cannot decompose this aggregated op into generics");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *replacements);
    }
  }
};
} // namespace
