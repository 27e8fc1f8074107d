//===- VectorizeCopies.cpp - The tcl-vectorize-copies pass ----------------===//
//
// The runtime's memrefCopy moves a strided copy one element per memcpy call;
// a pad's interior copy is a plain row copy that vector loads and stores do
// at memory speed.
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

/// Moves `width` elements of the row at `indices` + `column`.
static void copyVector(OpBuilder &builder, Location loc, Value source,
                       Value target, SmallVector<Value> indices, Value column,
                       int64_t width, Type elementType) {
  indices.push_back(column);
  auto vectorType = VectorType::get({width}, elementType);
  Value row = vector::LoadOp::create(builder, loc, vectorType, source, indices);
  vector::StoreOp::create(builder, loc, row, target, indices);
}

/// Replaces `copy` by a loop nest over its outer dimensions whose body moves
/// one row in vectors of `width` elements and one narrower remainder.
static void vectorizeCopy(memref::CopyOp copy, int64_t width) {
  OpBuilder builder(copy);
  Location loc = copy.getLoc();
  Value source = copy.getSource(), target = copy.getTarget();
  auto type = cast<MemRefType>(source.getType());
  ArrayRef<int64_t> shape = type.getShape();
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
  Type elementType = type.getElementType();
  if (fullLength > 0) {
    auto columns =
        scf::ForOp::create(builder, loc, zero, remainderColumn, step);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(columns.getBody());
    copyVector(builder, loc, source, target, indices, columns.getInductionVar(),
               width, elementType);
  }
  if (rowLength > fullLength)
    copyVector(builder, loc, source, target, indices, remainderColumn,
               rowLength - fullLength, elementType);
  copy.erase();
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
    getOperation().walk([&](memref::CopyOp copy) {
      if (isStridedRowCopy(copy))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies)
      vectorizeCopy(copy, vectorWidth);
  }
};
} // namespace
