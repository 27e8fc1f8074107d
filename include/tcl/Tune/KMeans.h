//===- KMeans.h - k-means over embeddings ------------------------*- C++ -*-===//
//
// k-means++ seeding, then Lloyd iterations that skip distances by bounds:
// the clustering behind the RDU sampler's representativeness, on the cost
// model's embeddings. Plain C++ on float arrays, like the sampler.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_KMEANS_H
#define TCL_TUNE_KMEANS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcl {

/// Points as a row-major [count][dim] matrix of floats (a view). A view
/// without data but with count * dim > 0 counts as empty.
struct EmbeddingMatrix {
  const float *data = nullptr;
  size_t count = 0;
  size_t dim = 0;

  const float *row(size_t i) const { return data + i * dim; }
};

/// k-means++ then Lloyd: cluster index per point and the centres,
/// [k][dim] row-major. Deterministic for a seed; k is capped at the number
/// of points (0 clusters, or no points, give an empty result with k = 0).
/// Lloyd stops early once no assignment changes. A cluster left empty takes
/// the point farthest from its centre, so no cluster is empty, and the
/// centres returned are the means of the clusters returned.
struct KMeansResult {
  std::vector<unsigned> assignment;
  std::vector<float> centres;
  unsigned k = 0;
};
KMeansResult kmeans(const EmbeddingMatrix &points, unsigned k,
                    unsigned iterations, uint64_t seed);

} // namespace tcl

#endif // TCL_TUNE_KMEANS_H
