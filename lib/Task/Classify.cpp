//===- Classify.cpp - Decide which schedule family an op belongs to -------===//
//
// Classification is structural: contraction and convolution dimensions are
// inferred from the indexing maps, so torch-mlir's generics, named ops and
// hand-written IR of the same computation land in the same family.
//
//===----------------------------------------------------------------------===//

#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace tcl;

/// True if the payload multiplies: distinguishes a depthwise convolution
/// (input * filter) from pooling (a window reduction without weights).
static bool payloadMultiplies(linalg::LinalgOp op) {
  bool multiplies = false;
  op.getBlock()->walk([&](Operation *inner) {
    StringRef name = inner->getName().getStringRef();
    if (name == "arith.mulf" || name == "arith.muli")
      multiplies = true;
  });
  return multiplies;
}

static bool isNumeric(Type type) {
  return isa<FloatType, IntegerType, IndexType>(getElementTypeOrSelf(type));
}

static TaskKind classifyConvolution(linalg::LinalgOp op,
                                    const linalg::ConvolutionDimensions &dims) {
  if (!payloadMultiplies(op))
    return TaskKind::Pooling;
  bool hasChannels = !dims.inputChannel.empty() && !dims.outputChannel.empty();
  if (!dims.depth.empty())
    return hasChannels ? TaskKind::GroupedConv2D : TaskKind::DepthwiseConv2D;
  return TaskKind::Conv2D;
}

Classification tcl::classifyOp(Operation *op) {
  Classification result;
  if (isa<linalg::SoftmaxOp>(op)) {
    auto softmax = cast<linalg::SoftmaxOp>(op);
    auto type = dyn_cast<RankedTensorType>(softmax.getInput().getType());
    if (!type)
      result.unsupportedReason = "softmax on buffers; tcl tunes linalg on tensors";
    else if (!type.hasStaticShape())
      result.unsupportedReason = "dynamic shape " + std::to_string(type.getRank()) +
                                 "-d softmax; tcl tunes static shapes only";
    else
      result.kind = TaskKind::Softmax;
    return result;
  }

  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::FillOp>(op)) {
    result.ignored = true;
    return result;
  }
  if (!linalgOp.hasPureTensorSemantics()) {
    result.unsupportedReason =
        "op works on buffers; tcl tunes linalg on tensors (run it before "
        "bufferization)";
    return result;
  }
  if (linalgOp.hasDynamicShape()) {
    result.unsupportedReason = "dynamic shapes; tcl tunes static shapes only";
    return result;
  }
  // A zero-dimensional op is scalar glue (torch-mlir's dtype conversions of
  // constants): there is no loop to schedule, so it is not a task.
  if (linalgOp.getNumLoops() == 0) {
    result.ignored = true;
    return result;
  }
  for (Value operand : op->getOperands())
    if (!isNumeric(operand.getType())) {
      result.unsupportedReason = "non-numeric element type";
      return result;
    }

  if (linalg::isaContractionOpInterface(linalgOp)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    if (succeeded(dims)) {
      result.kind =
          dims->batch.empty() ? TaskKind::Matmul : TaskKind::BatchMatmul;
      return result;
    }
  }
  if (linalg::isaConvolutionOpInterface(linalgOp)) {
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(linalgOp);
    if (succeeded(dims)) {
      if (dims->outputImage.size() != 2) {
        result.unsupportedReason =
            std::to_string(dims->outputImage.size()) +
            "-d convolution; tcl's convolution spaces are 2-d";
        return result;
      }
      result.kind = classifyConvolution(linalgOp, *dims);
      return result;
    }
  }
  result.kind = linalgOp.getNumReductionLoops() == 0 ? TaskKind::Elementwise
                                                     : TaskKind::Reduction;
  return result;
}
