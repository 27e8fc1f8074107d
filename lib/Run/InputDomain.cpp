//===- InputDomain.cpp - Which values random inputs may take --------------===//

#include "tcl/Run/InputDomain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tcl;

/// Whether `use` is the operand of an op defined only for positive values.
static bool needsPositiveOperand(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<math::SqrtOp, math::RsqrtOp, math::LogOp, math::Log2Op,
          math::Log10Op>(user))
    return true;
  return isa<math::PowFOp>(user) && use.getOperandNumber() == 0;
}

/// Whether a positive value at `use` leaves its owner's results positive
/// when the other operands are positive too.
static bool keepsSign(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto multiply = dyn_cast<arith::MulFOp>(user))
    return multiply.getLhs() != multiply.getRhs(); // a square is positive anyway
  return isa<arith::AddFOp, arith::DivFOp, arith::MaximumFOp, arith::MaxNumFOp,
             arith::MinimumFOp, arith::MinNumFOp, arith::ExtFOp,
             arith::TruncFOp, arith::SelectOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::CastOp, tensor::ExtractSliceOp,
             tensor::InsertSliceOp, tensor::ExtractOp, tensor::PadOp,
             tensor::ConcatOp>(user);
}

ValueDomain tcl::inferInputDomain(Value value) {
  llvm::SetVector<Value> reached;
  reached.insert(value);
  for (size_t next = 0; next < reached.size(); ++next) {
    for (OpOperand &use : reached[next].getUses()) {
      if (needsPositiveOperand(use))
        return ValueDomain::Positive;
      Operation *user = use.getOwner();
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
        // Into the payload: the block argument that carries the operand.
        if (linalgOp.hasPureTensorSemantics() &&
            !linalgOp->getRegion(0).empty())
          reached.insert(linalgOp.getMatchingBlockArgument(&use));
        // Transposes and broadcasts carry values without a payload that
        // says so.
        if (isa<linalg::TransposeOp, linalg::BroadcastOp>(user))
          reached.insert(user->getResults().begin(), user->getResults().end());
        continue;
      }
      if (auto yield = dyn_cast<linalg::YieldOp>(user)) {
        reached.insert(yield->getParentOp()->getResult(use.getOperandNumber()));
        continue;
      }
      if (keepsSign(use))
        reached.insert(user->getResults().begin(), user->getResults().end());
    }
  }
  return ValueDomain::Any;
}
