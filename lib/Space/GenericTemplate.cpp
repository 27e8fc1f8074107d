//===- GenericTemplate.cpp - Elementwise, reductions and the rest ---------===//
//
// Everything that is neither a contraction nor a decomposable convolution:
// elementwise generics, row reductions, transposes, grouped convolutions.
// The innermost loop becomes the vector dimension (a multiple of the vector
// width, or the whole loop when it is short); the loop outside it is the
// register tile's second dimension; the outermost loop is cache-tiled, and
// the two outer tiles can be visited in either order. Vector tiles stay
// within 1024 elements (larger ones explode LLVM's compile time).
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
  std::string vector = w.knob(
      "vector", dividingOptions(bounds[inner],
                                {lanes, 2 * lanes, 4 * lanes, 8 * lanes}, 4 * lanes));
  reg[inner] = vector;
  std::string order = w.knob("order", {0, 1});
  (void)order;
  if (loops >= 2) {
    unsigned second = loops - 2;
    std::string rows = w.knob(
        "rows", dividingOptions(bounds[second], {1, 2, 4, 8, 16}, 1));
    reg[second] = rows;
    w.constrain("rows * vector <= 1024");
    std::string outerTile = w.knob(
        "cache_outer",
        dividingOptions(bounds[0], {1, 2, 4, 8, 16, 32, 64}, 64));
    if (loops >= 3)
      cache[0] = outerTile;
    else
      w.constrain(llvm::formatv("cache_outer == {0}", bounds[0]).str());
    std::string innerCache = w.knob(
        "cache_inner", dividingOptions(bounds[inner], {64, 128, 256, 512}, 512));
    cache[inner] = innerCache;
    w.constrain("vector <= cache_inner && cache_inner % vector == 0");
  }
  // The order knob swaps the two outermost cache loops.
  auto tiles = [&](bool swapped) {
    std::vector<int64_t> interchange(loops);
    std::iota(interchange.begin(), interchange.end(), 0);
    if (swapped && loops >= 2)
      std::swap(interchange[0], interchange[inner]);
    std::string target = "%op";
    if (llvm::any_of(cache, [](const std::string &s) { return s != "0"; }))
      target = w.tile("%op", cache, interchange).first;
    std::vector<int64_t> identity(loops);
    std::iota(identity.begin(), identity.end(), 0);
    auto [regTiled, regLoops] = w.tile(target, reg, identity);
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
