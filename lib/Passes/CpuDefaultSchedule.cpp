//===- CpuDefaultSchedule.cpp - The untuned CPU schedule ------------------===//
//
// The baseline every tuned schedule is compared against: a fixed tile-and-
// vectorize heuristic applied to each structured op. Tile sizes always
// divide the loop bounds (see FACTS: a non-dividing tile silently yields
// scalar code), and accumulators are hoisted out of reduction loops.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace tcl {
#define GEN_PASS_DEF_TCLCPUDEFAULTSCHEDULE
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;
using namespace tcl;

/// Vectorizing a tile larger than this many elements makes LLVM's compile
/// time explode for no speed gain (VectorCombine took 43 s on one BERT
/// layer's 4096-element softmax tiles); such tiles stay loops.
static constexpr int64_t kMaxVectorTileElements = 1024;

/// Largest divisor of `size` that is at most `cap` (at least 1).
static int64_t largestDivisorAtMost(int64_t size, int64_t cap) {
  for (int64_t candidate = std::min(size, cap); candidate > 1; --candidate)
    if (size % candidate == 0)
      return candidate;
  return 1;
}

/// Tile size along a loop of `size` for a register tile of `cap`: the largest
/// divisor of `size` up to `cap` when it fills at least half the tile, else
/// `cap` itself, the last tile then being a remainder that the pass peels
/// into a loop of its own. A prime extent (ViT's 197 tokens) would otherwise
/// get tiles of one row, re-reading the other operand once per row.
static int64_t tileWithRemainder(int64_t size, int64_t cap) {
  int64_t divisor = largestDivisorAtMost(size, cap);
  return 2 * divisor >= std::min(size, cap) ? divisor : cap;
}

/// The loop along which an input of `op` is contiguous when that is not the
/// innermost loop, although the input varies along it: the input is read
/// transposed (torch-mlir's Linear weights, NCHW <-> NHWC copies).
/// Broadcast inputs, which do not vary along the innermost loop, do not
/// count.
static std::optional<unsigned> transposedInputLoop(linalg::LinalgOp op) {
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || !map.isProjectedPermutation() ||
        !map.isFunctionOfDim(innermost))
      continue;
    unsigned contiguous =
        cast<AffineDimExpr>(map.getResults().back()).getPosition();
    if (contiguous != innermost)
      return contiguous;
  }
  return std::nullopt;
}

namespace {
/// Heuristic tile sizes per loop; 0 leaves a loop untiled.
struct TileSizeHeuristic {
  int64_t vectorWidth;
  int64_t rowTile;

  SmallVector<int64_t> compute(linalg::LinalgOp op, TaskKind kind) const {
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    SmallVector<int64_t> sizes(bounds.size(), 0);
    auto innermostOf = [](ArrayRef<unsigned> dims) -> std::optional<unsigned> {
      if (dims.empty())
        return std::nullopt;
      return *llvm::max_element(dims);
    };
    auto setAll = [&](ArrayRef<unsigned> dims, int64_t value) {
      for (unsigned dim : dims)
        sizes[dim] = value;
    };
    /// Unit tiles on `dims` but the innermost, sized by `sizeFor` up to `cap`.
    auto setInnermost = [&](ArrayRef<unsigned> dims, int64_t cap,
                            int64_t (*sizeFor)(int64_t, int64_t) =
                                largestDivisorAtMost) {
      setAll(dims, 1);
      if (std::optional<unsigned> dim = innermostOf(dims))
        sizes[*dim] = sizeFor(bounds[*dim], cap);
    };

    switch (kind) {
    case TaskKind::Matmul:
    case TaskKind::BatchMatmul: {
      // A rowTile x (2 vectors) accumulator block, k one step at a time:
      // the register tile of the FACTS hand schedule.
      auto dims = linalg::inferContractionDims(op);
      setAll(dims->batch, 1);
      setInnermost(dims->m, rowTile, tileWithRemainder);
      setInnermost(dims->n, 2 * vectorWidth, tileWithRemainder);
      setAll(dims->k, 1);
      return sizes;
    }
    case TaskKind::GroupedConv2D: {
      // One output row strip, one filter tap, and groups enough that their
      // (group, output channel) pairs fill a vector: the tile is then a
      // batch of small matmuls that groupedTileAsContraction rewrites.
      auto dims = linalg::inferConvolutionDims(op);
      setAll(dims->batch, 1);
      setAll(dims->outputImage, 1);
      sizes[dims->outputImage.back()] =
          largestDivisorAtMost(bounds[dims->outputImage.back()], rowTile);
      setAll(dims->filterLoop, 1);
      setInnermost(dims->outputChannel, 2 * vectorWidth);
      setInnermost(dims->inputChannel, vectorWidth);
      int64_t channels = sizes[*innermostOf(dims->outputChannel)];
      setInnermost(dims->depth, std::max<int64_t>(1, vectorWidth / channels));
      return sizes;
    }
    case TaskKind::Conv2D:
    case TaskKind::DepthwiseConv2D:
    case TaskKind::Pooling: {
      // Unit output height and filter height make the tile a 1-D
      // convolution, which the linalg vectorizer supports.
      auto dims = linalg::inferConvolutionDims(op);
      setAll(dims->batch, 1);
      // Pooling's channel is a "batch" dimension (it is not reduced and has
      // no filter); when it is the innermost parallel loop it is the one to
      // vectorize along.
      std::optional<unsigned> innermostParallel;
      for (auto [index, type] : llvm::enumerate(op.getIteratorTypesArray()))
        if (type == utils::IteratorType::parallel)
          innermostParallel = index;
      if (innermostParallel && llvm::is_contained(dims->batch, *innermostParallel))
        sizes[*innermostParallel] =
            largestDivisorAtMost(bounds[*innermostParallel], vectorWidth);
      // A convolution's register tile is half the matmul's rows, each of two
      // vectors of output channels, and one input channel per step: its
      // filter columns are unrolled, each reading its own input vectors and
      // filter rows, and one channel's filter row is contiguous where 16
      // channels' rows lie a whole row of output channels apart.
      bool convolution = kind == TaskKind::Conv2D;
      setAll(dims->outputImage, 1);
      if (!dims->outputImage.empty())
        sizes[dims->outputImage.back()] = largestDivisorAtMost(
            bounds[dims->outputImage.back()],
            convolution ? std::max<int64_t>(1, rowTile / 2) : rowTile);
      setInnermost(dims->outputChannel, 2 * vectorWidth);
      setInnermost(dims->depth, vectorWidth);
      if (!dims->filterLoop.empty())
        sizes[dims->filterLoop.front()] = 1;
      // An output-channel tile that is not whole vectors (24 channels) runs
      // part-empty vectors every step; a vector of input channels per step
      // amortizes them.
      bool wholeVectors =
          dims->outputChannel.empty() ||
          sizes[*innermostOf(dims->outputChannel)] % vectorWidth == 0;
      setInnermost(dims->inputChannel, wholeVectors ? 1 : vectorWidth);
      return sizes;
    }
    case TaskKind::Elementwise:
    case TaskKind::Reduction:
    case TaskKind::Softmax: {
      SmallVector<unsigned> parallel, reduction;
      for (auto [index, type] : llvm::enumerate(op.getIteratorTypesArray()))
        (type == utils::IteratorType::parallel ? parallel : reduction)
            .push_back(index);
      // A row reduction (softmax, layernorm) vectorizes along its innermost
      // reduction loop, one row at a time, accumulating strip by strip.
      if (!reduction.empty() && reduction.back() == bounds.size() - 1) {
        setAll(parallel, 1);
        setInnermost(reduction, 8 * vectorWidth, tileWithRemainder);
        return sizes;
      }
      // A transpose reads one vector along its input's contiguous loop and
      // writes one along the innermost loop: a square tile of one vector
      // each way is read by rows, transposed in registers and written by
      // rows. A strip along the innermost loop alone would read its input
      // one element per cache line.
      if (std::optional<unsigned> contiguous = transposedInputLoop(op);
          contiguous && reduction.empty()) {
        setAll(parallel, 1);
        unsigned innermost = bounds.size() - 1;
        sizes[innermost] = largestDivisorAtMost(bounds[innermost], vectorWidth);
        sizes[*contiguous] = rowsOfTranspose(bounds[*contiguous]);
        return sizes;
      }
      // Otherwise one strip of a few vectors along the innermost parallel
      // loop; (column) reductions stay whole inside the tile.
      setInnermost(parallel, 4 * vectorWidth);
      return sizes;
    }
    }
    llvm_unreachable("unknown task kind");
  }

  /// Rows of a transpose's tile along its input's contiguous loop of
  /// `size`: a power of two, so that the rows are whole vectors the
  /// in-register transpose handles well (56 -> 8, not 14), unless `size`
  /// has no such divisor of at least 4 (49 -> 7).
  int64_t rowsOfTranspose(int64_t size) const {
    int64_t rows = 1;
    while (rows * 2 <= vectorWidth && size % (rows * 2) == 0)
      rows *= 2;
    return rows >= 4 ? rows : largestDivisorAtMost(size, vectorWidth);
  }

  /// Order in which tiles are visited. For contractions, the N tiles go
  /// outside the M tiles, so that one K x N panel of B stays in cache while
  /// every row block of A streams past it. A convolution whose filter is
  /// larger than its input (the deep layers of a CNN: 3x3x512x512 weights on
  /// a 16x16x512 input) visits its output-channel tiles outermost, so that
  /// one tile's filter slice stays in cache while every output row reuses
  /// it, instead of streaming the whole filter once per output row. Other
  /// ops keep loop order.
  SmallVector<int64_t> tileOrder(linalg::LinalgOp op, TaskKind kind) const {
    SmallVector<ArrayRef<unsigned>> groups;
    linalg::ContractionDimensions contraction;
    linalg::ConvolutionDimensions convolution;
    if (kind == TaskKind::Matmul || kind == TaskKind::BatchMatmul) {
      contraction = *linalg::inferContractionDims(op);
      groups = {contraction.batch, contraction.n, contraction.m, contraction.k};
    } else if (kind == TaskKind::Conv2D && filterOutweighsInput(op)) {
      convolution = *linalg::inferConvolutionDims(op);
      groups = {convolution.batch, convolution.outputChannel,
                convolution.outputImage, convolution.filterLoop,
                convolution.inputChannel};
    } else {
      return {};
    }
    SmallVector<int64_t> order;
    for (ArrayRef<unsigned> group : groups)
      llvm::append_range(order, group);
    // Loops in no group keep their place after the others.
    for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
      if (!llvm::is_contained(order, loop))
        order.push_back(loop);
    return order;
  }

  /// True if the convolution's filter has more elements than its input.
  static bool filterOutweighsInput(linalg::LinalgOp op) {
    auto input =
        dyn_cast<ShapedType>(op.getDpsInputOperand(0)->get().getType());
    auto filter =
        dyn_cast<ShapedType>(op.getDpsInputOperand(1)->get().getType());
    return input && filter && input.hasStaticShape() &&
           filter.hasStaticShape() &&
           filter.getNumElements() > input.getNumElements();
  }
};
} // namespace

/// Tiles `op` with scf.for (or scf.forall) loops, visiting the tiles in
/// `interchange` order (empty: loop order), and replaces it.
static FailureOr<scf::SCFTilingResult>
tile(RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
     ArrayRef<int64_t> interchange = {},
     scf::SCFTilingOptions::LoopType loopType =
         scf::SCFTilingOptions::LoopType::ForOp) {
  scf::SCFTilingOptions options;
  options.setLoopType(loopType);
  options.setInterchange(interchange);
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

/// Peels the last, partial iteration off every tiling loop (an scf.for not in
/// `loopsBefore`) of more than one iteration whose step does not divide its
/// static extent. Returns true if it peeled any.
static bool peelRemainders(RewriterBase &rewriter, func::FuncOp func,
                           const llvm::DenseSet<Operation *> &loopsBefore) {
  bool peeledAny = false;
  // Peeling an outer loop copies the loops inside it into the remainder;
  // the copies are found on the next sweep.
  for (bool peeled = true; peeled;) {
    peeled = false;
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (loopsBefore.contains(loop))
        return;
      std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (lower && upper && step && *upper - *lower > *step &&
          (*upper - *lower) % *step != 0)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      scf::ForOp remainder;
      rewriter.setInsertionPoint(loop);
      if (succeeded(
              scf::peelForLoopAndSimplifyBounds(rewriter, loop, remainder)))
        peeled = peeledAny = true;
    }
  }
  return peeledAny;
}

/// Rewrites a tile of a grouped convolution (NHWGC input, GFHWC filter) with
/// one output row and one filter tap into what it is, a batch over groups of
/// (output columns x input channels) * (input channels x output channels)
/// matmuls: a linalg.generic contraction on rank-reduced (and, for a
/// strided convolution, strided) slices, which the vectorizer turns into
/// one vector.contract. The named op has no vectorization of its own and
/// would stay scalar loops.
static LogicalResult groupedTileAsContraction(RewriterBase &rewriter,
                                              linalg::Conv2DNhwgcGfhwcOp op) {
  auto inputType = dyn_cast<RankedTensorType>(op.getInputs()[0].getType());
  auto filterType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
  auto outputType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
  if (!inputType || !filterType || !outputType || !inputType.hasStaticShape() ||
      !filterType.hasStaticShape() || !outputType.hasStaticShape())
    return failure();
  ArrayRef<int64_t> out = outputType.getShape();    // N OH OW G F
  ArrayRef<int64_t> filter = filterType.getShape(); // G F KH KW C
  if (out[0] != 1 || out[1] != 1 || filter[2] != 1 || filter[3] != 1 ||
      !llvm::all_of(op.getDilations(),
                    [](const APInt &d) { return d.isOne(); }))
    return failure();
  int64_t columns = out[2], groups = out[3], channelsOut = out[4];
  int64_t channelsIn = filter[4];
  int64_t stride = (*std::next(op.getStrides().begin())).getSExtValue();

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type element = outputType.getElementType();
  auto slice = [&](Value source, ArrayRef<int64_t> sizes,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> reduced) {
    SmallVector<OpFoldResult> offsets(sizes.size(), rewriter.getIndexAttr(0));
    return tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get(reduced, element), source, offsets,
        getAsIndexOpFoldResult(rewriter.getContext(), sizes),
        getAsIndexOpFoldResult(rewriter.getContext(), strides));
  };
  Value input = slice(op.getInputs()[0], {1, 1, columns, groups, channelsIn},
                      {1, 1, stride, 1, 1}, {columns, groups, channelsIn});
  Value weights =
      slice(op.getInputs()[1], {groups, channelsOut, 1, 1, channelsIn},
            {1, 1, 1, 1, 1}, {groups, channelsOut, channelsIn});
  Value init = slice(op.getOutputs()[0], {1, 1, columns, groups, channelsOut},
                     {1, 1, 1, 1, 1}, {columns, groups, channelsOut});

  // Loops (column, group, output channel, input channel).
  MLIRContext *context = rewriter.getContext();
  AffineExpr w, g, f, c;
  bindDims(context, w, g, f, c);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {w, g, c}, context),
                                 AffineMap::get(4, 0, {g, f, c}, context),
                                 AffineMap::get(4, 0, {w, g, f}, context)};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  auto contraction = linalg::GenericOp::create(
      rewriter, loc, init.getType(), ValueRange{input, weights},
      ValueRange{init}, maps, iterators,
      [](OpBuilder &b, Location nested, ValueRange args) {
        Value product = arith::MulFOp::create(b, nested, args[0], args[1]);
        Value sum = arith::AddFOp::create(b, nested, args[2], product);
        linalg::YieldOp::create(b, nested, sum);
      });
  SmallVector<OpFoldResult> zeros(5, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(5, rewriter.getIndexAttr(1));
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
      op, contraction.getResult(0), op.getOutputs()[0], zeros,
      getAsIndexOpFoldResult(context, {1, 1, columns, groups, channelsOut}),
      ones);
  return success();
}

namespace {
struct CpuDefaultSchedulePass
    : public tcl::impl::TclCpuDefaultScheduleBase<CpuDefaultSchedulePass> {
  using Base::Base;

  /// Splits `op`'s outermost parallel loop that `threads` divides into an
  /// scf.forall of `threads` iterations and returns the op inside it; ops
  /// without such a loop stay serial and are returned unchanged.
  linalg::LinalgOp distributeAcrossThreads(RewriterBase &rewriter,
                                           linalg::LinalgOp op) {
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    SmallVector<int64_t> sizes(bounds.size(), 0);
    for (auto [index, type] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (type != utils::IteratorType::parallel || bounds[index] < threads ||
          bounds[index] % threads != 0)
        continue;
      sizes[index] = bounds[index] / threads;
      FailureOr<scf::SCFTilingResult> tiled =
          tile(rewriter, op, sizes, /*interchange=*/{},
               scf::SCFTilingOptions::LoopType::ForallOp);
      if (failed(tiled))
        return op;
      return cast<linalg::LinalgOp>(tiled->tiledOps.back());
    }
    return op;
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    if (vectorWidth < 1 || rowTile < 1 || threads < 1) {
      func.emitError("vector-width, row-tile and threads must be positive");
      return signalPassFailure();
    }
    IRRewriter rewriter(context);
    TileSizeHeuristic heuristic{vectorWidth, rowTile};

    // 1. Tile every tunable op.
    llvm::DenseSet<Operation *> loopsBefore;
    func.walk([&](scf::ForOp loop) { loopsBefore.insert(loop); });
    SmallVector<std::pair<linalg::LinalgOp, TaskKind>> targets;
    func.walk([&](linalg::LinalgOp op) {
      Classification cls = classifyOp(op);
      if (cls.kind)
        targets.emplace_back(op, *cls.kind);
    });
    for (auto [op, kind] : targets) {
      linalg::LinalgOp target = op;
      if (threads > 1)
        target = distributeAcrossThreads(rewriter, op);
      SmallVector<int64_t> sizes = heuristic.compute(target, kind);
      SmallVector<int64_t> order = heuristic.tileOrder(target, kind);
      if (failed(tile(rewriter, target, sizes, order)))
        op.emitWarning("default schedule: tiling failed; the op stays untiled");
    }

    // 2. Peel the remainder tiles off the loops whose step does not divide
    // their extent, so that every tile is static and vectorizes. Turn
    // unit-height 2-D convolution tiles into 1-D convolutions.
    if (peelRemainders(rewriter, func, loopsBefore)) {
      RewritePatternSet patterns(context);
      for (Dialect *dialect : context->getLoadedDialects())
        dialect->getCanonicalizationPatterns(patterns);
      for (RegisteredOperationName name : context->getRegisteredOperations())
        name.getCanonicalizationPatterns(patterns, context);
      if (failed(applyPatternsGreedily(func, std::move(patterns)))) {
        func.emitError("default schedule: canonicalizing peeled tiles "
                       "diverged");
        return signalPassFailure();
      }
    }
    {
      SmallVector<linalg::Conv2DNhwgcGfhwcOp> groupedTiles;
      func.walk(
          [&](linalg::Conv2DNhwgcGfhwcOp op) { groupedTiles.push_back(op); });
      for (linalg::Conv2DNhwgcGfhwcOp op : groupedTiles)
        (void)groupedTileAsContraction(rewriter, op);
    }
    {
      RewritePatternSet patterns(context);
      linalg::populateDecomposeConvolutionPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns)))) {
        func.emitError("default schedule: convolution decomposition diverged");
        return signalPassFailure();
      }
    }

    // 3. Vectorize each tile that is static and small enough.
    SmallVector<linalg::LinalgOp> tiles;
    func.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::FillOp>(op) && op.hasPureTensorSemantics() &&
          !op.hasDynamicShape() &&
          succeeded(linalg::vectorizeOpPrecondition(op)))
        tiles.push_back(op);
    });
    for (linalg::LinalgOp op : tiles) {
      // Bound the vector size by the largest operand, not the iteration
      // count: a reduction over k reads k elements per output element.
      int64_t largestOperand = 0;
      for (Value operand : op->getOperands())
        if (auto type = dyn_cast<ShapedType>(operand.getType()))
          largestOperand = std::max(largestOperand, type.getNumElements());
      if (largestOperand > kMaxVectorTileElements)
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, op);
      if (succeeded(vectorized))
        rewriter.replaceOp(op, vectorized->replacements);
    }

    // 4. Hoist accumulators out of the reduction loops so that they live in
    // registers across iterations. This must see the tiling's
    // extract_slice/insert_slice pairs before step 5 folds them away. The
    // first sweep hoists the slices, which exposes the vector transfers on
    // them to the second. Post-order: inner loops first, so that a subset
    // hoisted out of an inner loop can move further out of the enclosing
    // one; hoisting replaces only the loop it is given.
    for (int sweep = 0; sweep < 2; ++sweep) {
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        // Subset indices (constants the vectorizer created in the body)
        // must be defined outside the loop for the subsets to hoist.
        auto loopLike = cast<LoopLikeOpInterface>(*loop);
        moveLoopInvariantCode(loopLike);
        hoistLoopInvariantSubsets(rewriter, loopLike);
      }
    }
    // 5. Fold the remaining slices into the transfers.
    {
      RewritePatternSet patterns(context);
      tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns)))) {
        func.emitError("default schedule: vector cleanup diverged");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
