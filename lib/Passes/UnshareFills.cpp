//===- UnshareFills.cpp - The tcl-unshare-fills pass ----------------------===//
//
// A destination that several ops write must be copied for all but one of
// them; a fill is cheaper to repeat than to copy, so each writer gets its own.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace tcl {
#define GEN_PASS_DEF_TCLUNSHAREFILLS
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// True if bufferization lets `use`'s owner write into the operand's buffer:
/// a DPS init, or the init of a tiled loop's iteration argument (the form a
/// scheduled op has by the time it is bufferized).
static bool isWrittenDestination(OpOperand &use,
                                 const bufferization::AnalysisState &state) {
  auto owner = state.getOptions().dynCastBufferizableOp(use.getOwner());
  if (owner)
    return owner.bufferizesToMemoryWrite(use, state);
  auto destinationStyle = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
  return destinationStyle && destinationStyle.isDpsInit(&use);
}

/// Gives every written use of `fill`'s result but one a clone of the fill,
/// placed right before that use, on a clone of its `tensor.empty` if it
/// fills one (a shared empty would be copied in its turn).
static void unshare(linalg::FillOp fill,
                    const bufferization::AnalysisState &state) {
  Value result = fill.getResult(0);
  SmallVector<OpOperand *> written;
  unsigned uses = 0;
  for (OpOperand &use : result.getUses()) {
    ++uses;
    if (isWrittenDestination(use, state))
      written.push_back(&use);
  }
  if (uses < 2)
    return;
  // Use lists run backwards; in program order the first writer keeps the
  // original and the clones sit beside the later ones.
  Block *block = fill->getBlock();
  if (llvm::all_of(written, [&](OpOperand *use) {
        return use->getOwner()->getBlock() == block;
      }))
    llvm::sort(written, [](OpOperand *a, OpOperand *b) {
      return a->getOwner()->isBeforeInBlock(b->getOwner());
    });
  // With only writers, the first may keep the original; with readers too,
  // the original stays theirs and every writer gets its own.
  ArrayRef<OpOperand *> toClone(written);
  if (uses == written.size())
    toClone = toClone.drop_front();
  for (OpOperand *use : toClone) {
    OpBuilder builder(use->getOwner());
    IRMapping mapping;
    Value destination = fill.getOutputs().front();
    if (auto empty = destination.getDefiningOp<tensor::EmptyOp>())
      mapping.map(destination, builder.clone(*empty)->getResult(0));
    use->set(builder.clone(*fill, mapping)->getResult(0));
  }
}

namespace {
struct UnshareFillsPass
    : public tcl::impl::TclUnshareFillsBase<UnshareFillsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics())
        fills.push_back(fill);
    });
    bufferization::BufferizationOptions options;
    bufferization::AnalysisState state(options);
    for (linalg::FillOp fill : fills)
      unshare(fill, state);
  }
};
} // namespace
