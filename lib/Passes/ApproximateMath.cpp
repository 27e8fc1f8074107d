//===- ApproximateMath.cpp - The tcl-approximate-math pass ----------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcl {
#define GEN_PASS_DEF_TCLAPPROXIMATEMATH
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
/// The ops approximated: those a network's elementwise code uses (softmax,
/// GELU, SiLU, layer norms, losses). sqrt and rsqrt stay: LLVM emits the
/// hardware instructions for them.
bool isApproximated(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"exp", "expm1", "log", "log1p", "log2", "tanh",
                             "erf", "erfc", "atan", "atan2", "sin", "cos"},
                            name);
}

struct ApproximateMathPass
    : public tcl::impl::TclApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
