//===- ScaledPoints.h - Point sets for k-means and RDU ----------*- C++ -*-===//
//
// The RDU sampler and k-means work on a private copy of the embeddings,
// scaled by a power of two so that the largest magnitude lies in [0.5, 1):
// squared distances of such points cannot overflow a float, and scaling by
// a power of two is exact, so it changes no comparison and every score
// (they are all ratios of distances) is the same as on the caller's numbers.
//
// The hot loops are distances from one point to many, with the many stored
// transposed ([dim][count], count padded to a block), so the innermost loop
// runs over independent points: it vectorizes without reassociating a sum,
// and one distance is summed in the same order as in the scalar helpers, so
// all give bit-identical results, and so do the SSE and AVX2 variants: the
// picks for a seed do not depend on whether the CPU has AVX2.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_LIB_TUNE_SCALEDPOINTS_H
#define TCL_LIB_TUNE_SCALEDPOINTS_H

#include "tcl/Tune/KMeans.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace tcl::scaled {

/// The transposed matrices pad their columns to a multiple of this, so the
/// innermost distance loop has a constant trip count: GCC's -O2 cost model
/// vectorizes only loops that need no scalar remainder.
constexpr size_t kBlock = 64;

constexpr float kInfinity = std::numeric_limits<float>::infinity();

inline size_t padToBlock(size_t count) {
  return (count + kBlock - 1) / kBlock * kBlock;
}

/// A uniform integer in [0, bound), bound > 0, by rejection.
/// std::uniform_int_distribution is implementation-defined, so it would make
/// the same seed pick differently under another standard library.
inline uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t bound) {
  uint64_t limit = std::numeric_limits<uint64_t>::max() -
                   std::numeric_limits<uint64_t>::max() % bound;
  uint64_t value;
  do
    value = rng();
  while (value >= limit);
  return value % bound;
}

/// A uniform double in [0, 1) from the top 53 bits (see uniformBelow for why
/// not std::uniform_real_distribution).
inline double uniformUnit(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// Whether a view can be read: rows exist, or there is nothing to read.
bool isReadable(const EmbeddingMatrix &matrix);

/// The largest finite magnitude in a readable view (0 when there is none).
float maxMagnitude(const EmbeddingMatrix &matrix);

/// The power of two that brings `largest` into [0.5, 1), as a double: for
/// subnormal inputs it is beyond the float range.
double scaleFor(float largest);

/// A working copy of a point set: scaled (see the file comment), non-finite
/// coordinates replaced by 0 so that no distance is NaN, row-major and, on
/// request, transposed with columns padded to kBlock (padding is 0).
struct Points {
  size_t count = 0;
  size_t dim = 0;
  /// Columns of `cols`, count padded to kBlock.
  size_t stride = 0;
  std::vector<float> rows;
  std::vector<float> cols;

  const float *row(size_t i) const { return rows.data() + i * dim; }
};

Points makePoints(const EmbeddingMatrix &matrix, double scale,
                  bool transposed);

/// out[j] = squared distance from `query` to column j of the transposed
/// matrix `cols` ([dim][stride], stride a multiple of kBlock), for every
/// j < stride. Each distance is summed in dimension order, with no fused or
/// reordered arithmetic in any variant, so all agree bit for bit (and with
/// KMeans.cpp's scalar distances).
///
/// Nearly all the time of k-means goes here (N points against k centres),
/// hence the vector code: the innermost loop runs over independent columns,
/// so it vectorizes without reassociating a sum.
void squaredDistances(const float *query, const float *cols, size_t dim,
                      size_t stride, float *out);

/// k-means (KMeans.cpp) on scaled points, centres in the same scale.
/// `points` needs its transposed copy.
KMeansResult clusterPoints(const Points &points, unsigned k,
                           unsigned iterations, uint64_t seed);

} // namespace tcl::scaled

#endif // TCL_LIB_TUNE_SCALEDPOINTS_H
