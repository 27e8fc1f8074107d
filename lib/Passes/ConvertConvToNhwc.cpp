//===- ConvertConvToNhwc.cpp - The tcl-convert-conv-to-nhwc pass ----------===//
//
// torch-mlir and other PyTorch frontends emit channels-first convolutions
// (`linalg.conv_2d_nchw_fchw`, `depthwise_conv_2d_nchw_chw`,
// `pooling_nchw_max/sum`). Their innermost loops are the filter window, so
// no CPU template vectorizes them well: a 3x3 NCHW convolution ran at
// 6 GFLOP/s with the default schedule where its NHWC twin ran at 53. This
// pass rewrites each into its channels-last op between `linalg.transpose`s,
// as IREE's ConvertConvNchwToNhwc does: the convolution becomes a task of
// the channels-last templates. Constant filters are transposed here, at
// compile time. The transposes back to NCHW then sink through the
// elementwise ops (bias, batch norm, ReLU, residual adds) and the padding
// that follow, which become channels-last too, until they meet the next
// convolution's transpose to NHWC and fold away: the network stays
// channels-last, and a convolution's consumers can still fuse into it.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcl {
#define GEN_PASS_DEF_TCLCONVERTCONVTONHWC
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// `value`, of static shape, transposed by `permutation` (result dim i is
/// `value`'s dim permutation[i]). A dense constant is transposed at compile
/// time; an empty tensor is an empty tensor of the new shape.
static Value transposed(RewriterBase &rewriter, Location loc, Value value,
                        ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  if (value.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());

  DenseElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant))) {
    if (constant.isSplat())
      return arith::ConstantOp::create(rewriter, loc, resultType,
                                       constant.resizeSplat(resultType));
    unsigned bits = type.getElementTypeBitWidth();
    if (bits % 8 == 0 && !isa<ComplexType>(type.getElementType())) {
      size_t bytes = bits / 8;
      ArrayRef<char> source = constant.getRawData();
      std::vector<char> result(source.size());
      // Strides of the source, then each result element's source offset.
      SmallVector<int64_t> sourceStrides(type.getRank(), 1);
      for (int64_t dim = type.getRank() - 2; dim >= 0; --dim)
        sourceStrides[dim] = sourceStrides[dim + 1] * type.getDimSize(dim + 1);
      SmallVector<int64_t> index(shape.size(), 0);
      for (int64_t element = 0, count = resultType.getNumElements();
           element < count; ++element) {
        int64_t offset = 0;
        for (auto [dim, at] : llvm::enumerate(index))
          offset += at * sourceStrides[permutation[dim]];
        std::memcpy(&result[element * bytes], &source[offset * bytes], bytes);
        for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
          if (++index[dim] < shape[dim])
            break;
          index[dim] = 0;
        }
      }
      return arith::ConstantOp::create(
          rewriter, loc, resultType,
          DenseElementsAttr::getFromRawBuffer(resultType, result));
    }
  }
  Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                       type.getElementType());
  return linalg::TransposeOp::create(rewriter, loc, value, init, permutation)
      ->getResult(0);
}

namespace {
/// NCHW activations to NHWC, and back.
constexpr int64_t kToChannelsLast[] = {0, 2, 3, 1};
constexpr int64_t kToChannelsFirst[] = {0, 3, 1, 2};

/// Whether `map` reads dim k of the loops as result k, or a constant 0 where
/// the operand broadcasts a unit dim: a 4-D op's loops are that operand's
/// own layout.
bool inLoopOrder(AffineMap map) {
  for (auto [position, result] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (result != getAffineDimExpr(position, map.getContext()) &&
        !(constant && constant.getValue() == 0))
      return false;
  }
  return map.getNumResults() == map.getNumDims();
}

/// The transpose of an NHWC value to NCHW that defines `value`, if any.
linalg::TransposeOp toChannelsFirstOf(Value value) {
  auto transpose = value.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef(kToChannelsFirst))
    return nullptr;
  return transpose;
}

/// Rewrites a channels-first op `SourceOp` into `TargetOp`: its image input
/// and its output go channels-last, its second input is permuted by
/// `secondInputPermutation` (a filter's FCHW to HWCF, CHW to HWC; a pooling
/// window keeps its shape), strides and dilations carry over.
template <typename SourceOp, typename TargetOp>
struct ToChannelsLast : public OpRewritePattern<SourceOp> {
  ToChannelsLast(MLIRContext *context,
                 SmallVector<int64_t> secondInputPermutation)
      : OpRewritePattern<SourceOp>(context),
        secondInputPermutation(std::move(secondInputPermutation)) {}

  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
      return rewriter.notifyMatchFailure(op, "not on tensors of static shape");
    Location loc = op.getLoc();
    Value image = op.getDpsInputs()[0], second = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    Value newImage = transposed(rewriter, loc, image, kToChannelsLast);
    Value newSecond =
        secondInputPermutation.empty()
            ? second
            : transposed(rewriter, loc, second, secondInputPermutation);
    Value newInit = transposed(rewriter, loc, init, kToChannelsLast);
    SmallVector<NamedAttribute> attributes{
        rewriter.getNamedAttr("strides", op.getStrides()),
        rewriter.getNamedAttr("dilations", op.getDilations())};
    auto converted = TargetOp::create(rewriter, loc, TypeRange{newInit.getType()},
                                      ValueRange{newImage, newSecond},
                                      ValueRange{newInit}, attributes);
    rewriter.replaceOp(op, transposed(rewriter, loc, converted->getResult(0),
                                      kToChannelsFirst));
    return success();
  }

  SmallVector<int64_t> secondInputPermutation;
};

/// `map`, reading an NCHW transpose of an NHWC value, as a map reading that
/// value: NCHW element (r0, r1, r2, r3) is NHWC element (r0, r2, r3, r1).
AffineMap readingChannelsLast(AffineMap map) {
  SmallVector<AffineExpr> nhwc;
  for (int64_t dim : kToChannelsLast)
    nhwc.push_back(map.getResult(dim));
  return AffineMap::get(map.getNumDims(), 0, nhwc, map.getContext());
}

/// Whether `op` is a 4-D elementwise generic on tensors.
bool isElementwise4D(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
         !op.hasIndexSemantics() &&
         op.getNumDpsInits() == 1 && op.getNumLoops() == 4 &&
         op.getNumParallelLoops() == 4 &&
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity();
}

/// An elementwise generic over an NCHW domain that reads a transpose of an
/// NHWC value to NCHW runs over the NHWC domain instead: it reads that value
/// directly, its other operands through permuted indexing maps, and its
/// result is transposed to NCHW. That transpose sinks on through the next
/// elementwise op, or folds with the next convolution's transpose to NHWC.
struct SinkTransposeThroughElementwise : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwise4D(op))
      return rewriter.notifyMatchFailure(op, "not a 4-D elementwise op");
    // Its loops must be NCHW: it reads an NHWC-to-NCHW transpose in loop
    // order (an op already made NHWC reads other NCHW values permuted).
    if (llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return toChannelsFirstOf(input->get()) &&
                 inLoopOrder(op.getMatchingIndexingMap(input));
        }))
      return rewriter.notifyMatchFailure(op, "reads no NHWC-to-NCHW transpose");
    MLIRContext *context = rewriter.getContext();
    // NCHW loop j is NHWC loop kToChannelsFirst[j].
    SmallVector<AffineExpr> oldLoops;
    for (int64_t loop : kToChannelsFirst)
      oldLoops.push_back(getAffineDimExpr(loop, context));
    AffineMap fromNewLoops = AffineMap::get(4, 0, oldLoops, context);

    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *operand : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(operand);
      if (linalg::TransposeOp transpose = toChannelsFirstOf(operand->get())) {
        inputs.push_back(transpose.getInput());
        maps.push_back(readingChannelsLast(map).compose(fromNewLoops));
      } else {
        inputs.push_back(operand->get());
        maps.push_back(map.compose(fromNewLoops));
      }
    }
    Value newInit = transposed(rewriter, loc, op.getDpsInits()[0], kToChannelsLast);
    maps.push_back(rewriter.getMultiDimIdentityMap(4));
    auto channelsLast = linalg::GenericOp::create(
        rewriter, loc, TypeRange{newInit.getType()}, inputs, ValueRange{newInit},
        maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), channelsLast.getRegion(),
                                channelsLast.getRegion().begin());
    rewriter.replaceOp(op, transposed(rewriter, loc, channelsLast->getResult(0),
                                      kToChannelsFirst));
    return success();
  }
};

/// An elementwise op made NHWC while one of its operands was still NCHW
/// reads it through a permuted map; once that operand is a transpose of an
/// NHWC value too, it reads the NHWC value directly.
struct ReadChannelsLastDirectly : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwise4D(op))
      return rewriter.notifyMatchFailure(op, "not a 4-D elementwise op");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<std::pair<OpOperand *, Value>> replaced;
    for (OpOperand *operand : op.getDpsInputOperands()) {
      AffineMap &map = maps[operand->getOperandNumber()];
      linalg::TransposeOp transpose = toChannelsFirstOf(operand->get());
      // Operands read in loop order are SinkTransposeThroughElementwise's.
      if (!transpose || inLoopOrder(map))
        continue;
      map = readingChannelsLast(map);
      replaced.push_back({operand, transpose.getInput()});
    }
    if (replaced.empty())
      return rewriter.notifyMatchFailure(op, "reads no permuted transpose");
    rewriter.modifyOpInPlace(op, [&] {
      for (auto [operand, value] : replaced)
        operand->set(value);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// A transpose to NHWC of a constant padding of a transpose to NCHW pads the
/// NHWC value directly: padding commutes with transposition.
struct PadChannelsLast : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getInput().getDefiningOp<tensor::PadOp>();
    if (op.getPermutation() != ArrayRef(kToChannelsLast) || !pad ||
        !op.hasPureTensorSemantics() || op.hasDynamicShape())
      return rewriter.notifyMatchFailure(op, "not a transpose of a padding");
    linalg::TransposeOp source = toChannelsFirstOf(pad.getSource());
    Value padding = pad.getConstantPaddingValue();
    if (!source || !padding || pad.getNofold() ||
        !pad.getLow().empty() || !pad.getHigh().empty())
      return rewriter.notifyMatchFailure(pad, "not a static constant padding "
                                              "of an NHWC-to-NCHW transpose");
    if (padding.getParentRegion() == &pad.getRegion())
      padding = rewriter.clone(*padding.getDefiningOp())->getResult(0);
    SmallVector<OpFoldResult> low, high;
    for (int64_t dim : kToChannelsLast) {
      low.push_back(rewriter.getIndexAttr(pad.getStaticLow()[dim]));
      high.push_back(rewriter.getIndexAttr(pad.getStaticHigh()[dim]));
    }
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, op->getResult(0).getType(), source.getInput(), low, high, padding);
    return success();
  }
};

} // namespace

LogicalResult tcl::rewriteChannelsLast(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  patterns.add<ToChannelsLast<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>>(
      context, SmallVector<int64_t>{2, 3, 1, 0});
  patterns.add<ToChannelsLast<linalg::DepthwiseConv2DNchwChwOp,
                              linalg::DepthwiseConv2DNhwcHwcOp>>(
      context, SmallVector<int64_t>{1, 2, 0});
  patterns.add<ToChannelsLast<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>,
               ToChannelsLast<linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp>>(
      context, SmallVector<int64_t>{});
  patterns.add<SinkTransposeThroughElementwise, ReadChannelsLastDirectly,
               PadChannelsLast>(context);
  // Folds a transpose of a transpose, of a fill, and identities.
  linalg::TransposeOp::getCanonicalizationPatterns(patterns, context);
  linalg::FillOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(root, std::move(patterns));
}

namespace {
struct ConvertConvToNhwcPass
    : public tcl::impl::TclConvertConvToNhwcBase<ConvertConvToNhwcPass> {
  void runOnOperation() override {
    if (failed(tcl::rewriteChannelsLast(getOperation())))
      signalPassFailure();
  }
};
} // namespace
