//===- Cost.cpp - FLOPs and bytes of a structured op ----------------------===//

#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tcl;

/// Arithmetic ops that count as one operation each. Casts, constants,
/// index computations and yields are free: they are not what a roofline
/// charges for.
static bool isArithmetic(Operation &op) {
  if (isa<arith::ConstantOp, arith::IndexCastOp, linalg::YieldOp,
          linalg::IndexOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp,
          arith::FPToSIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
          arith::BitcastOp>(op))
    return false;
  StringRef dialect = op.getDialect() ? op.getDialect()->getNamespace() : "";
  return dialect == "arith" || dialect == "math";
}

int64_t tcl::shapedTypeBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  Type element = shaped.getElementType();
  // `index` has no intrinsic width; tcl's CPU targets lower it to 64 bits.
  int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  return shaped.getNumElements() * ((bits + 7) / 8);
}

double tcl::countFlops(Operation *op) {
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    // max-reduce, subtract, exp, sum-reduce, divide: five per element.
    auto type = cast<ShapedType>(softmax.getInput().getType());
    return 5.0 * static_cast<double>(type.getNumElements());
  }
  auto linalgOp = cast<linalg::LinalgOp>(op);
  double iterations = 1;
  for (int64_t bound : linalgOp.getStaticLoopRanges())
    iterations *= static_cast<double>(bound);
  int64_t opsPerIteration = 0;
  for (Operation &inner : *linalgOp.getBlock())
    if (isArithmetic(inner))
      ++opsPerIteration;
  return iterations * static_cast<double>(opsPerIteration);
}

int64_t tcl::countBytes(Operation *op) {
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return 2 * shapedTypeBytes(softmax.getInput().getType());
  auto linalgOp = cast<linalg::LinalgOp>(op);
  int64_t bytes = 0;
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    bytes += shapedTypeBytes(input->get().getType());
  for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
    int64_t size = shapedTypeBytes(init.get().getType());
    // An accumulator that the payload reads is read and written.
    bytes += linalgOp.payloadUsesValueFromOperand(&init) ? 2 * size : size;
  }
  return bytes;
}
