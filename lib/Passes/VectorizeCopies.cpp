//===- VectorizeCopies.cpp - The tcl-vectorize-copies pass ----------------===//
//
// The runtime's memrefCopy moves a strided copy one element per memcpy call,
// and a fill lowers to scalar loops; a pad's interior copy and a layer's
// fill are plain row writes that vector stores do at memory speed.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace tcl {
#define GEN_PASS_DEF_TCLVECTORIZECOPIES
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// True if `type` is statically shaped and its innermost dimension is
/// unit-stride, so that a row of it is one vector load or store.
static bool hasUnitStrideRows(MemRefType type) {
  if (!type.hasStaticShape() || type.getRank() == 0 ||
      !VectorType::isValidElementType(type.getElementType()))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return strides.back() == 1;
}

/// The copies this pass rewrites: row-wise copies that would otherwise reach
/// memrefCopy's element-by-element loop (a copy between two contiguous
/// buffers lowers to one memcpy and is kept).
static bool isStridedRowCopy(memref::CopyOp copy) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (!source || !target || !hasUnitStrideRows(source) ||
      !hasUnitStrideRows(target))
    return false;
  return !(memref::isStaticShapeAndContiguousRowMajor(source) &&
           memref::isStaticShapeAndContiguousRowMajor(target));
}

/// Emits, at `builder`'s insertion point, a loop nest over the outer
/// dimensions of `shape` whose body calls `moveRow` for each `width`-element
/// piece of a row and once for the narrower remainder. `moveRow` gets the
/// indices of the piece's first element and its width.
static void
emitRowLoops(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
             int64_t width,
             llvm::function_ref<void(OpBuilder &, SmallVector<Value>, int64_t)>
                 moveRow) {
  int64_t rowLength = shape.back();
  int64_t fullLength = rowLength - rowLength % width;

  // Every constant before the loops (the body reuses them), each once.
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto constant = [&](int64_t value) {
    Value &result = constants[value];
    if (!result)
      result = arith::ConstantIndexOp::create(builder, loc, value);
    return result;
  };
  Value zero = constant(0), one = constant(1);
  Value remainderColumn = constant(fullLength);
  Value step = fullLength > 0 ? constant(width) : Value();
  SmallVector<Value> uppers;
  for (int64_t extent : shape.drop_back())
    uppers.push_back(extent == 1 ? Value() : constant(extent));
  SmallVector<Value> indices;
  for (auto [extent, upper] : llvm::zip(shape.drop_back(), uppers)) {
    if (extent == 1) {
      indices.push_back(zero);
      continue;
    }
    auto loop = scf::ForOp::create(builder, loc, zero, upper, one);
    builder.setInsertionPointToStart(loop.getBody());
    indices.push_back(loop.getInductionVar());
  }
  auto withColumn = [&](Value column) {
    SmallVector<Value> piece = indices;
    piece.push_back(column);
    return piece;
  };
  if (fullLength > 0) {
    auto columns =
        scf::ForOp::create(builder, loc, zero, remainderColumn, step);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(columns.getBody());
    moveRow(builder, withColumn(columns.getInductionVar()), width);
  }
  if (rowLength > fullLength)
    moveRow(builder, withColumn(remainderColumn), rowLength - fullLength);
}

/// Replaces `copy` by row loops that move each piece with a vector load and
/// store.
static void vectorizeCopy(memref::CopyOp copy, int64_t width) {
  OpBuilder builder(copy);
  Location loc = copy.getLoc();
  Value source = copy.getSource(), target = copy.getTarget();
  auto type = cast<MemRefType>(source.getType());
  emitRowLoops(
      builder, loc, type.getShape(), width,
      [&](OpBuilder &b, SmallVector<Value> indices, int64_t pieceWidth) {
        auto vectorType = VectorType::get({pieceWidth}, type.getElementType());
        Value row = vector::LoadOp::create(b, loc, vectorType, source, indices);
        vector::StoreOp::create(b, loc, row, target, indices);
      });
  copy.erase();
}

/// The fills this pass rewrites: of a statically shaped buffer with
/// unit-stride rows. They would otherwise become scalar loops that LLVM
/// vectorizes only sometimes (a -inf fill, unlike a zero one, is not a
/// memset).
static bool isRowFill(linalg::FillOp fill) {
  if (!fill.hasPureBufferSemantics())
    return false;
  auto type = dyn_cast<MemRefType>(fill.getOutputs()[0].getType());
  return type && hasUnitStrideRows(type) &&
         type.getElementType() == fill.getInputs()[0].getType();
}

/// Replaces `fill` by row loops that store a splat of its value; a
/// contiguous buffer is one row.
static void vectorizeFill(linalg::FillOp fill, int64_t width) {
  OpBuilder builder(fill);
  Location loc = fill.getLoc();
  Value target = fill.getOutputs()[0];
  auto type = cast<MemRefType>(target.getType());
  if (type.getRank() > 1 && memref::isStaticShapeAndContiguousRowMajor(type)) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    target = memref::CollapseShapeOp::create(
        builder, loc, target, ArrayRef<ReassociationIndices>{all});
    type = cast<MemRefType>(target.getType());
  }
  Value value = fill.getInputs()[0];
  llvm::SmallDenseMap<int64_t, Value> splats;
  auto splat = [&](int64_t pieceWidth) {
    Value &result = splats[pieceWidth];
    if (!result)
      result = vector::BroadcastOp::create(
          builder, loc, VectorType::get({pieceWidth}, type.getElementType()),
          value);
    return result;
  };
  int64_t rowLength = type.getShape().back();
  splat(std::min(width, rowLength));
  if (rowLength % width)
    splat(rowLength % width);
  emitRowLoops(
      builder, loc, type.getShape(), width,
      [&](OpBuilder &b, SmallVector<Value> indices, int64_t pieceWidth) {
        vector::StoreOp::create(b, loc, splat(pieceWidth), target, indices);
      });
  fill.erase();
}

namespace {
struct VectorizeCopiesPass
    : public tcl::impl::TclVectorizeCopiesBase<VectorizeCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorWidth == 0) {
      getOperation().emitError("tcl-vectorize-copies: vector-width must be "
                               "at least 1");
      return signalPassFailure();
    }
    SmallVector<memref::CopyOp> copies;
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](Operation *op) {
      if (auto copy = dyn_cast<memref::CopyOp>(op);
          copy && isStridedRowCopy(copy))
        copies.push_back(copy);
      if (auto fill = dyn_cast<linalg::FillOp>(op); fill && isRowFill(fill))
        fills.push_back(fill);
    });
    for (memref::CopyOp copy : copies)
      vectorizeCopy(copy, vectorWidth);
    for (linalg::FillOp fill : fills)
      vectorizeFill(fill, vectorWidth);
  }
};
} // namespace
