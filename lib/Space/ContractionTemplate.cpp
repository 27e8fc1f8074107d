//===- ContractionTemplate.cpp - Matmul and batch_matmul schedules --------===//
//
// The BLIS-style space (FACTS: a 128x256x256 cache tile, a 6x64 register
// tile and outer products reach oneDNN's speed): cache tiles of M, N and K
// that divide them, one of four cache loop orders, a register tile of M x N
// that fits the register file with K unrolled 1-4 times, remainders of the
// register tile peeled, and optionally B packed into panels as wide as the
// register tile so that the inner loop streams contiguous memory instead of
// rows 4 KiB apart that fight over the same L1 sets.
//
//===----------------------------------------------------------------------===//

#include "TemplateWriter.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <numeric>

using namespace mlir;
using namespace tcl;

/// Cache loop orders over (m, n, k) in nesting order: k innermost keeps the
/// C tile resident; n outermost reuses a B panel across every M tile.
static const int64_t kOrders[][3] = {{0, 1, 2}, {1, 0, 2}, {0, 2, 1}, {1, 2, 0}};

/// A full interchange over `loops` loops: the batch (and extra) dims first in
/// their order, then m, n, k as `order` nests them.
static std::vector<int64_t> interchangeFor(unsigned loops, unsigned m,
                                           unsigned n, unsigned k,
                                           const int64_t order[3]) {
  std::vector<int64_t> result;
  for (unsigned loop = 0; loop < loops; ++loop)
    if (loop != m && loop != n && loop != k)
      result.push_back(loop);
  unsigned dims[3] = {m, n, k};
  for (int i = 0; i < 3; ++i)
    result.push_back(dims[order[i]]);
  return result;
}

void tcl::writeContractionTemplate(TemplateWriter &w, linalg::LinalgOp op,
                                   bool isMatmul) {
  auto dims = *linalg::inferContractionDims(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned loops = bounds.size();
  unsigned m = dims.m.back(), n = dims.n.back(), k = dims.k.back();
  int64_t sizeM = bounds[m], sizeN = bounds[n], sizeK = bounds[k];
  unsigned elementBits =
      getElementTypeOrSelf(op.getDpsInits()[0].getType()).getIntOrFloatBitWidth();
  int64_t lanes = w.lanes(elementBits);

  std::string cacheM = w.knob(
      "cache_m", dividingOptions(sizeM, {16, 24, 32, 48, 64, 96, 128, 192, 256}, 256));
  std::string cacheN = w.knob(
      "cache_n", dividingOptions(sizeN, {32, 40, 48, 64, 96, 100, 128, 192, 200,
                                         250, 256, 384, 500, 512},
                                 1024));
  std::string cacheK = w.knob(
      "cache_k", dividingOptions(sizeK, {32, 64, 128, 256, 512}, 2048));
  std::string order = w.knob("order", {0, 1, 2, 3});
  std::string regM = w.knob("reg_m", optionsUpTo(sizeM, {1, 2, 3, 4, 5, 6, 8, 12, 14}));
  std::vector<int64_t> regNOptions =
      optionsUpTo(sizeN, {lanes, 2 * lanes, 3 * lanes, 4 * lanes, 6 * lanes,
                          8 * lanes});
  std::string regN = w.knob("reg_n", regNOptions);
  std::string regK = w.knob("reg_k", optionsUpTo(sizeK, {1, 2, 4}));
  w.constrain("reg_m <= cache_m");
  w.constrain("reg_n <= cache_n");
  w.constrain("cache_k % reg_k == 0");
  w.constrain(llvm::formatv("reg_m * ((reg_n + {0}) / {1}) <= {2}", lanes - 1,
                            lanes, w.accumulatorRegisters())
                  .str());
  // The B cache tile and an A strip of it stay within a 1 MiB L2.
  w.constrain(llvm::formatv("(cache_k * cache_n + cache_m * cache_k) * {0} <= "
                            "1048576",
                            elementBits / 8)
                  .str());

  // Packing B into [N / reg_n][K][reg_n] panels: only for linalg.matmul,
  // where B is [K][N], and only for panel widths that divide N. The panel
  // width is static in transform.structured.pack, so each width is its own
  // region and the "pack_b" knob selects it (0: no packing).
  std::vector<int64_t> panelWidths;
  if (isMatmul && dims.batch.empty() && loops == 3)
    for (int64_t width : regNOptions)
      if (sizeN % width == 0 && width % lanes == 0)
        panelWidths.push_back(width);
  std::vector<int64_t> packOptions{0};
  for (size_t i = 0; i < panelWidths.size(); ++i)
    packOptions.push_back(i + 1);
  std::string pack = w.knob("pack_b", packOptions);
  std::string panelChoice = "pack_b == 0";
  for (auto [i, width] : llvm::enumerate(panelWidths))
    panelChoice += llvm::formatv(" || (pack_b == {0} && reg_n == {1} && "
                                 "cache_n % {1} == 0)",
                                 i + 1, width)
                       .str();
  w.constrain(panelChoice);

  // The packed op's N loop counts panels: a cache tile holds cache_panels
  // of them (params have no arithmetic, so this is a knob of its own, tied
  // to cache_n, and fixed at its first option when B is not packed).
  std::vector<int64_t> panelCounts = {1, 2, 4, 8, 16, 32, 64};
  std::string cachePanels = w.knob("cache_panels", panelCounts);
  w.constrain("pack_b != 0 || cache_panels == 1");
  w.constrain("pack_b == 0 || cache_panels * reg_n == cache_n");

  // Fusing the elementwise consumers (bias, activation) into the cache
  // tiles of the output; not with packing (which rewrites the op) nor with
  // threads (the split would have to move to the consumer).
  bool canFuse = w.fusedConsumers() > 0 && w.cpu().threads == 1;
  std::string fuse = canFuse ? w.knob("fuse", {0, 1}) : "";
  if (canFuse)
    w.constrain("fuse == 0 || pack_b == 0");

  SmallVector<unsigned> parallelLoops(dims.batch.begin(), dims.batch.end());
  parallelLoops.append(dims.m.begin(), dims.m.end());
  parallelLoops.append(dims.n.begin(), dims.n.end());
  std::string target = w.splitAcrossThreads("%op", bounds, parallelLoops,
                                            {{m, cacheM}, {n, cacheN}});

  // A region body: cache tiles in the chosen order, then the register tile
  // with N outside M so that a B micro-panel is reused across the M strip.
  // Yields the register M and N loops.
  AffineMap outputMap = op.getIndexingMapsArray().back();
  auto tileBody = [&](llvm::StringRef target, const int64_t orderDims[3],
                      bool packed, bool fused) {
    unsigned packedLoops = packed ? loops + 1 : loops;
    // Tile sizes of every loop, as template operands.
    std::vector<std::string> cache(packedLoops, "1"), reg(packedLoops, "1");
    cache[m] = cacheM;
    cache[n] = packed ? cachePanels : cacheN;
    cache[k] = cacheK;
    reg[m] = regM;
    reg[n] = packed ? "1" : regN;
    reg[k] = regK;
    if (packed)
      cache[loops] = reg[loops] = "0";
    static const int64_t regOrder[3] = {1, 0, 2};
    std::vector<int64_t> cacheOrder = interchangeFor(loops, m, n, k, orderDims);
    std::vector<int64_t> registerOrder = interchangeFor(loops, m, n, k, regOrder);
    if (packed) {
      cacheOrder.push_back(loops);
      registerOrder.push_back(loops);
    }
    std::string cacheTiled;
    if (fused) {
      // The consumer's loops are the output's dims (batch, m, n): tile
      // them, fuse the chain and the contraction in, then tile K.
      w.fuseIntoConsumer(outputMap, cache, cacheOrder);
      std::string contraction = w.fresh("fused_contraction");
      w.line(contraction + " = transform.structured.match attributes "
             "{tcl.task = \"" + w.taskKey() + "\"} in %func : "
             "(!transform.any_op) -> !transform.any_op");
      std::vector<std::string> reduction(loops, "0");
      reduction[k] = cacheK;
      std::vector<int64_t> identity(loops);
      std::iota(identity.begin(), identity.end(), 0);
      cacheTiled = w.tile(contraction, reduction, identity).first;
    } else {
      cacheTiled = w.tile(target, cache, cacheOrder).first;
    }
    auto [regTiled, regLoops] = w.tile(cacheTiled, reg, registerOrder);
    w.markForVectorization(regTiled);
    size_t first = regLoops.size() - 3;
    w.line("transform.yield " + regLoops[first + 1] + ", " + regLoops[first] +
           " : !transform.any_op, !transform.any_op");
  };
  // One region per loop order, selected by the "order" knob.
  auto orderAlternatives = [&](llvm::StringRef target, bool packed,
                               bool fused) {
    std::string results = w.fresh("order_loops").substr(1);
    w.line(llvm::formatv("%{0}:2 = transform.tune.alternatives<\"order\"> "
                         "selected_region = {1} : !transform.param<i64> -> "
                         "!transform.any_op, !transform.any_op",
                         results, order));
    for (const auto &orderDims : kOrders) {
      w.line("{");
      tileBody(target, orderDims, packed, fused);
      w.line("}");
    }
    return results;
  };

  w.line(llvm::formatv("%register_loops:2 = transform.tune.alternatives"
                       "<\"pack_b\"> selected_region = {0} : "
                       "!transform.param<i64> -> !transform.any_op, "
                       "!transform.any_op",
                       pack));
  w.line("{");
  if (canFuse) {
    w.line("%unpacked_loops:2 = transform.tune.alternatives<\"fuse\"> "
           "selected_region = " + fuse + " : !transform.param<i64> -> "
           "!transform.any_op, !transform.any_op");
    for (bool fused : {false, true}) {
      w.line("{");
      std::string loopsOfOrder = orderAlternatives(target, false, fused);
      w.line("transform.yield %" + loopsOfOrder + "#0, %" + loopsOfOrder +
             "#1 : !transform.any_op, !transform.any_op");
      w.line("}");
    }
    w.line("transform.yield %unpacked_loops#0, %unpacked_loops#1 : "
           "!transform.any_op, !transform.any_op");
  } else {
    std::string unpacked = orderAlternatives(target, false, false);
    w.line("transform.yield %" + unpacked + "#0, %" + unpacked +
           "#1 : !transform.any_op, !transform.any_op");
  }
  w.line("}");
  for (int64_t width : panelWidths) {
    w.line("{");
    std::string packedOp = w.fresh("packed");
    w.line(llvm::formatv("{0} = transform.structured.pack {1} packed_sizes = "
                         "[0, {2}, 0] : (!transform.any_op) -> "
                         "(!transform.op<\"linalg.generic\">)",
                         packedOp, target, width));
    std::string packB = w.fresh("pack_b");
    w.line(llvm::formatv("{0} = transform.get_producer_of_operand {1}[1] : "
                         "(!transform.op<\"linalg.generic\">) -> "
                         "(!transform.op<\"linalg.pack\">)",
                         packB, packedOp));
    std::string panels = w.fresh("panels");
    w.line(llvm::formatv(
        "{0}, {1}_pack, {1}_unpack = transform.structured.pack_transpose {2} "
        "with_compute_op({3}) outer_perm = [1, 0] : "
        "(!transform.op<\"linalg.pack\">, !transform.op<\"linalg.generic\">) "
        "-> (!transform.op<\"linalg.generic\">, !transform.op<\"linalg.pack\">, "
        "!transform.any_op)",
        panels, panels, packB, packedOp));
    std::string panelsAny = w.fresh("panels_op");
    w.line(llvm::formatv("{0} = transform.cast {1} : "
                         "!transform.op<\"linalg.generic\"> to !transform.any_op",
                         panelsAny, panels));
    std::string packedLoops = orderAlternatives(panelsAny, true, false);
    w.line("transform.yield %" + packedLoops + "#0, %" + packedLoops +
           "#1 : !transform.any_op, !transform.any_op");
    w.line("}");
  }
  w.peel("%register_loops#0");
  w.peel("%register_loops#1");
  w.vectorizeAndHoist();
  // Packing leaves linalg.pack/unpack ops; lower them to the pads, reshapes
  // and transposes that bufferization and the default schedule handle.
  w.line("%packs = transform.structured.match ops{[\"linalg.pack\"]} in %func "
         ": (!transform.any_op) -> !transform.op<\"linalg.pack\">");
  w.line("transform.structured.lower_pack %packs : (!transform.op<\"linalg.pack\">) "
         "-> (!transform.op<\"tensor.pad\">, !transform.op<\"tensor.expand_shape\">, "
         "!transform.op<\"linalg.transpose\">)");
  w.line("%unpacks = transform.structured.match ops{[\"linalg.unpack\"]} in "
         "%func : (!transform.any_op) -> !transform.op<\"linalg.unpack\">");
  w.line("transform.structured.lower_unpack %unpacks : "
         "(!transform.op<\"linalg.unpack\">) -> (!transform.op<\"tensor.empty\">, "
         "!transform.op<\"linalg.transpose\">, !transform.op<\"tensor.collapse_shape\">, "
         "!transform.op<\"tensor.extract_slice\">)");
}
