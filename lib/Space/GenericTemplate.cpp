//===- GenericTemplate.cpp - Elementwise, reductions and the rest ---------===//
//
// Everything that is neither a contraction nor a decomposable convolution:
// elementwise generics, row reductions, transposes, grouped convolutions.
// The innermost loop becomes the vector dimension (a multiple of the vector
// width, or the whole loop when it is short); the loop outside it is the
// register tile's second dimension; both are cache-tiled, as is the
// outermost loop, and the cache tiles are visited in row or column order.
// Vector tiles stay within 1024 elements (larger ones explode LLVM's
// compile time).
//
//===----------------------------------------------------------------------===//

#include "TemplateWriter.h"

#include <numeric>

using namespace mlir;
using namespace tcl;

void tcl::writeGenericTemplate(TemplateWriter &w, linalg::LinalgOp op) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned loops = bounds.size();
  unsigned elementBits =
      getElementTypeOrSelf(op.getDpsInits()[0].getType()).getIntOrFloatBitWidth();
  int64_t lanes = w.lanes(elementBits);
  unsigned inner = loops - 1;
  // Reductions other than the innermost loop are visited one step at a time
  // inside the tile; parallel loops outside the two tiled ones take tile 1.
  std::vector<std::string> cache(loops, "0"), reg(loops, "1");
  std::vector<std::pair<unsigned, std::string>> cacheKnobOfLoop;
  std::string vector = w.knob(
      "vector", dividingOptions(bounds[inner],
                                {lanes, 2 * lanes, 4 * lanes, 8 * lanes, 16 * lanes},
                                4 * lanes));
  reg[inner] = vector;
  std::string order =
      w.knob("order", loops >= 2 ? std::vector<int64_t>{0, 1}
                                 : std::vector<int64_t>{0});
  std::string innerCache = w.knob(
      "cache_inner",
      dividingOptions(bounds[inner],
                      {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024}, 1024));
  cache[inner] = innerCache;
  cacheKnobOfLoop.push_back({inner, innerCache});
  w.constrain("cache_inner % vector == 0");
  if (loops >= 2) {
    unsigned second = loops - 2;
    std::string rows = w.knob(
        "rows", dividingOptions(bounds[second], {1, 2, 3, 4, 6, 8, 12, 16}, 1));
    reg[second] = rows;
    // Vector tiles beyond 1024 elements explode LLVM's compile time.
    w.constrain("rows * vector <= 1024");
    std::string rowCache = w.knob(
        "cache_rows",
        dividingOptions(bounds[second], {1, 2, 4, 8, 16, 32, 64, 128}, 128));
    cache[second] = rowCache;
    cacheKnobOfLoop.push_back({second, rowCache});
    w.constrain("cache_rows % rows == 0");
  }
  if (loops >= 3) {
    std::string outerTile = w.knob(
        "cache_outer", dividingOptions(bounds[0], {1, 2, 4, 8, 16, 32, 64}, 64));
    cache[0] = outerTile;
    cacheKnobOfLoop.push_back({0, outerTile});
  }
  SmallVector<unsigned> parallelLoops;
  for (auto [loop, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel)
      parallelLoops.push_back(loop);
  std::string target =
      w.splitAcrossThreads("%op", bounds, parallelLoops, cacheKnobOfLoop);
  // Order 1 visits the innermost loop's cache tiles outermost (column
  // strips), order 0 keeps the loops' own order (row strips).
  auto tiles = [&](bool swapped) {
    std::vector<int64_t> interchange(loops);
    std::iota(interchange.begin(), interchange.end(), 0);
    if (swapped && loops >= 2)
      std::rotate(interchange.begin(), interchange.begin() + inner,
                  interchange.end());
    std::string cacheTiled = w.tile(target, cache, interchange).first;
    std::vector<int64_t> identity(loops);
    std::iota(identity.begin(), identity.end(), 0);
    auto [regTiled, regLoops] = w.tile(cacheTiled, reg, identity);
    w.markForVectorization(regTiled);
    w.line("transform.yield");
  };
  w.line("transform.tune.alternatives<\"order\"> selected_region = " + order +
         " : !transform.param<i64>");
  w.line("{");
  tiles(false);
  w.line("}");
  w.line("{");
  tiles(true);
  w.line("}");
  // Convolution-like generics (grouped, NCHW) index inputs by sums of
  // loops, which the linalg vectorizer rejects: they stay scalar loops,
  // which tcl reports as a scalar schedule.
  if (llvm::all_of(op.getIndexingMapsArray(),
                   [](AffineMap map) { return map.isProjectedPermutation(); }))
    w.vectorizeAndHoist();
}
