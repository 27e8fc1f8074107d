//===- InputDomain.cpp - Which values random inputs may take --------------===//

#include "tcl/Run/InputDomain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

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

/// Whether `value` reaches the operand of an op defined only for positive
/// values.
static bool reachesPositiveOperand(Value value) {
  llvm::SetVector<Value> reached;
  reached.insert(value);
  for (size_t next = 0; next < reached.size(); ++next) {
    for (OpOperand &use : reached[next].getUses()) {
      if (needsPositiveOperand(use))
        return true;
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
  return false;
}

/// The smallest dimension that `value`, an integer, indexes in a
/// `tensor.extract`, following casts and linalg payloads.
static std::optional<int64_t> indexBound(Value value) {
  std::optional<int64_t> bound;
  llvm::SetVector<Value> reached;
  reached.insert(value);
  for (size_t next = 0; next < reached.size(); ++next) {
    for (OpOperand &use : reached[next].getUses()) {
      Operation *user = use.getOwner();
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        unsigned position = use.getOperandNumber();
        if (position == 0)
          continue; // the tensor extracted from, not an index
        int64_t size = extract.getTensor().getType().getDimSize(position - 1);
        if (!ShapedType::isDynamic(size))
          bound = std::min(bound.value_or(size), size);
        continue;
      }
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
        if (linalgOp.hasPureTensorSemantics() &&
            !linalgOp->getRegion(0).empty())
          reached.insert(linalgOp.getMatchingBlockArgument(&use));
        continue;
      }
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
              arith::ExtUIOp, arith::TruncIOp, tensor::ExpandShapeOp,
              tensor::CollapseShapeOp, tensor::CastOp,
              tensor::ExtractSliceOp>(user))
        reached.insert(user->getResults().begin(), user->getResults().end());
    }
  }
  return bound;
}

/// The fan-in of `value` if it is a weight: the product of the reduction
/// loops that index it where a contraction or convolution reads it as its
/// second input, following reshapes, transposes and broadcasts.
static std::optional<int64_t> weightFanIn(Value value) {
  llvm::SetVector<Value> reached;
  reached.insert(value);
  for (size_t next = 0; next < reached.size(); ++next) {
    for (OpOperand &use : reached[next].getUses()) {
      Operation *user = use.getOwner();
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
              linalg::TransposeOp, linalg::BroadcastOp>(user)) {
        reached.insert(user->getResults().begin(), user->getResults().end());
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (!linalgOp || linalgOp.getNumDpsInputs() != 2 ||
          use.getOperandNumber() != 1 ||
          !(linalg::isaContractionOpInterface(linalgOp) ||
            linalg::isaConvolutionOpInterface(linalgOp)))
        continue;
      SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
      SmallVector<utils::IteratorType> iterators =
          linalgOp.getIteratorTypesArray();
      int64_t fanIn = 1;
      for (AffineExpr result :
           linalgOp.getMatchingIndexingMap(&use).getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(result);
        if (!dim ||
            iterators[dim.getPosition()] != utils::IteratorType::reduction)
          continue;
        if (ShapedType::isDynamic(ranges[dim.getPosition()]))
          return std::nullopt;
        fanIn *= ranges[dim.getPosition()];
      }
      return fanIn;
    }
  }
  return std::nullopt;
}

InputDomain tcl::inferInputDomain(Value value) {
  InputDomain domain;
  Type element = getElementTypeOrSelf(value.getType());
  if (isa<IntegerType, IndexType>(element)) {
    domain.indexBound = indexBound(value);
    return domain;
  }
  if (!isa<FloatType>(element))
    return domain;
  domain.positive = reachesPositiveOperand(value);
  std::optional<int64_t> fanIn = weightFanIn(value);
  if (!domain.positive && fanIn && *fanIn > 0)
    domain.scale = std::sqrt(3.0 / double(*fanIn));
  return domain;
}
