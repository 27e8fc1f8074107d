//===- ConvolutionTemplate.cpp - Convolution, depthwise and pooling -------===//
//
// Named 2-D convolutions, depthwise convolutions and poolings are tiled to
// one output row and one filter row, which `transform.structured.decompose`
// turns into the 1-D forms the linalg vectorizer handles (outer products
// over output width x output channels, one per filter tap). The knobs: cache
// tiles of output rows and columns, output channels and input channels (the
// reduction), their order, and the register tile of output columns x
// channels x input channels, with remainders peeled.
//
//===----------------------------------------------------------------------===//

#include "TemplateWriter.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <numeric>

using namespace mlir;
using namespace tcl;

/// Named ops that `transform.structured.decompose` rewrites to 1-D.
static bool isDecomposable(linalg::LinalgOp op) {
  // NCHW forms decompose too, but vectorizing their 1-D forms crashes
  // MLIR 22's vector patterns, and NHWC/FHWC does not decompose; they take
  // the generic template.
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcSumOp,
             linalg::PoolingNhwcMaxOp>(op);
}

bool tcl::writeConvolutionTemplate(TemplateWriter &w, linalg::LinalgOp op) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (!isDecomposable(op) || failed(dims) || dims->outputImage.size() != 2 ||
      dims->filterLoop.size() != 2)
    return false;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned loops = bounds.size();
  unsigned oh = dims->outputImage[0], ow = dims->outputImage[1];
  // The vectorized channel dim: output channels of a convolution, the
  // channel ("depth") dim of depthwise convolutions and poolings.
  bool hasOutputChannel = !dims->outputChannel.empty();
  unsigned channel = hasOutputChannel ? dims->outputChannel[0]
                                      : (!dims->depth.empty() ? dims->depth[0]
                                                              : dims->batch.back());
  std::optional<unsigned> inputChannel;
  if (!dims->inputChannel.empty())
    inputChannel = dims->inputChannel[0];
  unsigned elementBits =
      getElementTypeOrSelf(op.getDpsInits()[0].getType()).getIntOrFloatBitWidth();
  int64_t lanes = w.lanes(elementBits);

  std::string cacheOh =
      w.knob("cache_oh", dividingOptions(bounds[oh], {1, 2, 4, 7, 8, 14, 16, 28}, 16));
  std::string cacheC =
      w.knob("cache_c", dividingOptions(bounds[channel],
                                         {16, 24, 32, 48, 64, 96, 128, 160, 192,
                                          240, 256, 320, 480},
                                         512));
  std::string cacheIc =
      inputChannel
          ? w.knob("cache_ic", dividingOptions(bounds[*inputChannel],
                                               {16, 32, 64, 128, 256}, 512))
          : "";
  std::string cacheOw =
      w.knob("cache_ow", dividingOptions(bounds[ow], {7, 8, 14, 16, 28, 32}, 256));
  std::string order = w.knob("order", {0, 1});
  std::string regW = w.knob("reg_w", optionsUpTo(bounds[ow], {1, 2, 3, 4, 6, 7, 8, 14}));
  w.constrain("reg_w <= cache_ow");
  std::string regC = w.knob(
      "reg_c", optionsUpTo(bounds[channel], {lanes, 2 * lanes, 4 * lanes}));
  std::string regIc =
      inputChannel ? w.knob("reg_ic", optionsUpTo(bounds[*inputChannel], {1, 2, 4, 8, 16}))
                   : "";
  w.constrain("reg_c <= cache_c");
  if (inputChannel)
    w.constrain("cache_ic % reg_ic == 0");
  w.constrain(llvm::formatv("reg_w * ((reg_c + {0}) / {1}) <= {2}", lanes - 1,
                            lanes, w.accumulatorRegisters())
                  .str());

  // Cache level: batch 1, output rows, channels, input channels; filter and
  // output columns whole.
  std::vector<std::string> cache(loops, "0");
  for (unsigned batch : dims->batch)
    if (batch != channel)
      cache[batch] = "1";
  cache[oh] = cacheOh;
  cache[ow] = cacheOw;
  cache[channel] = cacheC;
  if (inputChannel)
    cache[*inputChannel] = cacheIc;
  // Register level: one output row and one filter row (so the op
  // decomposes), output columns x channels, input channels unrolled.
  std::vector<std::string> reg(loops, "0");
  for (unsigned batch : dims->batch)
    if (batch != channel)
      reg[batch] = "1";
  reg[oh] = "1";
  reg[dims->filterLoop[0]] = "1";
  reg[ow] = regW;
  reg[channel] = regC;
  if (inputChannel)
    reg[*inputChannel] = regIc;

  SmallVector<unsigned> parallelLoops;
  for (auto [loop, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel)
      parallelLoops.push_back(loop);
  std::string target = w.splitAcrossThreads(
      "%op", bounds, parallelLoops,
      {{oh, cacheOh}, {ow, cacheOw}, {channel, cacheC}});

  // Fusing the elementwise consumers (bias, ReLU, residual add): the last
  // one is tiled at the cache level and the chain, convolution included, is
  // fused into its loops (`transform.structured.fuse`), so the output tile
  // is finished while it is in cache. Not with threads (the split would have
  // to move to the consumer).
  bool canFuse = w.fusedConsumers() > 0 && w.cpu().threads == 1;
  std::string fuse = canFuse ? w.knob("fuse", {0, 1}) : "";
  AffineMap outputMap = op.getIndexingMapsArray().back();

  // Order 0 visits channels outside rows (weights reused across rows);
  // order 1 rows outside channels (the input row reused across channels).
  auto tiles = [&](bool channelsOutside, bool fused) {
    llvm::SmallVector<int64_t> interchange;
    for (unsigned loop : dims->batch)
      if (loop != channel)
        interchange.push_back(loop);
    if (channelsOutside)
      interchange.append({channel, oh});
    else
      interchange.append({oh, channel});
    for (unsigned loop = 0; loop < loops; ++loop)
      if (!llvm::is_contained(interchange, loop))
        interchange.push_back(loop);
    std::string cacheTiled;
    if (fused) {
      // The consumer's loops are the output's dims: map each to the
      // convolution loop it indexes, and keep only the reduction cache
      // tile (input channels) for the convolution itself.
      w.fuseIntoConsumer(outputMap, cache,
                         std::vector<int64_t>(interchange.begin(), interchange.end()));
      std::string conv = w.fresh("fused_conv");
      w.line(conv + " = transform.structured.match attributes {tcl.task = \"" +
             w.taskKey() + "\"} in %func : (!transform.any_op) -> !transform.any_op");
      cacheTiled = conv;
      if (inputChannel) {
        std::vector<std::string> reduction(loops, "0");
        reduction[*inputChannel] = cacheIc;
        std::vector<int64_t> identity(loops);
        std::iota(identity.begin(), identity.end(), 0);
        cacheTiled = w.tile(conv, reduction, identity).first;
      }
    } else {
      cacheTiled = w.tile(target, cache,
                          std::vector<int64_t>(interchange.begin(), interchange.end()))
                       .first;
    }
    std::vector<int64_t> identity(loops);
    std::iota(identity.begin(), identity.end(), 0);
    auto [regTiled, regLoops] = w.tile(cacheTiled, reg, identity);
    w.markForVectorization(regTiled);
    // Register loops in loop order: find ow's and the channel's positions.
    auto position = [&](unsigned loop) {
      unsigned index = 0;
      for (unsigned other = 0; other < loop; ++other)
        index += reg[other] != "0";
      return regLoops[index];
    };
    // Inner loop first: peeling a loop clones its body, which invalidates
    // handles to loops nested in it.
    unsigned innerLoop = std::max(ow, channel), outerLoop = std::min(ow, channel);
    w.line("transform.yield " + position(innerLoop) + ", " +
           position(outerLoop) + " : !transform.any_op, !transform.any_op");
  };
  auto orderAlternatives = [&](bool fused, std::string results) {
    w.line(llvm::formatv("{0}:2 = transform.tune.alternatives"
                         "<\"order\"> selected_region = {1} : "
                         "!transform.param<i64> -> !transform.any_op, "
                         "!transform.any_op",
                         results, order));
    w.line("{");
    tiles(true, fused);
    w.line("}");
    w.line("{");
    tiles(false, fused);
    w.line("}");
    return results;
  };
  if (canFuse) {
    w.line("%register_loops:2 = transform.tune.alternatives<\"fuse\"> "
           "selected_region = " + fuse + " : !transform.param<i64> -> "
           "!transform.any_op, !transform.any_op");
    for (bool fused : {false, true}) {
      w.line("{");
      std::string loopsOfOrder = orderAlternatives(fused, w.fresh("order_loops"));
      w.line("transform.yield " + loopsOfOrder + "#0, " + loopsOfOrder +
             "#1 : !transform.any_op, !transform.any_op");
      w.line("}");
    }
  } else {
    orderAlternatives(false, "%register_loops");
  }
  w.peel("%register_loops#0");
  w.peel("%register_loops#1");
  w.line("%to_decompose = transform.structured.match attributes {tcl.task = " +
         ("\"" + w.taskKey() + "\"") + "} in %func : (!transform.any_op) -> "
         "!transform.any_op");
  w.line("%decomposed = transform.structured.decompose %to_decompose : "
         "(!transform.any_op) -> !transform.any_op");
  w.markForVectorization("%decomposed");
  w.vectorizeAndHoist();
  return true;
}
