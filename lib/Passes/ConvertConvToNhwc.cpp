//===- ConvertConvToNhwc.cpp - The tcl-convert-conv-to-nhwc pass ----------===//
//
// torch-mlir and other PyTorch frontends emit channels-first convolutions
// (`linalg.conv_2d_nchw_fchw`, `depthwise_conv_2d_nchw_chw`,
// `pooling_nchw_max/sum`). Their innermost loops are the filter window, so
// no CPU template vectorizes them well: a 3x3 NCHW convolution ran at
// 6 GFLOP/s with the default schedule where its NHWC twin ran at 53. This
// pass rewrites each into its channels-last op between `linalg.transpose`s,
// as IREE's ConvertConvNchwToNhwc does: the convolution becomes a task of
// the channels-last templates, the transposes memory-bound elementwise
// tasks. Constant filters are transposed here, at compile time, and
// transposes that undo each other fold away.
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

/// `value` transposed by `permutation` (result dim i is `value`'s dim
/// permutation[i]). A dense constant is transposed at compile time.
static Value transposed(RewriterBase &rewriter, Location loc, Value value,
                        ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  auto resultType = RankedTensorType::get(shape, type.getElementType());

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
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
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

struct ConvertConvToNhwcPass
    : public tcl::impl::TclConvertConvToNhwcBase<ConvertConvToNhwcPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<ToChannelsLast<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>>(
        context, SmallVector<int64_t>{2, 3, 1, 0});
    patterns.add<ToChannelsLast<linalg::DepthwiseConv2DNchwChwOp,
                                linalg::DepthwiseConv2DNhwcHwcOp>>(
        context, SmallVector<int64_t>{1, 2, 0});
    patterns.add<ToChannelsLast<linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp>,
                 ToChannelsLast<linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp>>(
        context, SmallVector<int64_t>{});
    // Folds a transpose of a transpose, of a fill, and identities.
    linalg::TransposeOp::getCanonicalizationPatterns(patterns, context);
    linalg::FillOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
