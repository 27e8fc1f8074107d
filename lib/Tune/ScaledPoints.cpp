//===- ScaledPoints.cpp - Point sets for k-means and RDU ------------------===//
//
// Scaled copies of embeddings and the vectorized distance kernel; see
// ScaledPoints.h.
//
//===----------------------------------------------------------------------===//

#include "ScaledPoints.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tcl;
using namespace tcl::scaled;

bool scaled::isReadable(const EmbeddingMatrix &matrix) {
  return matrix.data || matrix.count == 0 || matrix.dim == 0;
}

float scaled::maxMagnitude(const EmbeddingMatrix &matrix) {
  float largest = 0;
  for (size_t i = 0, e = matrix.count * matrix.dim; i < e; ++i)
    if (std::isfinite(matrix.data[i]))
      largest = std::max(largest, std::fabs(matrix.data[i]));
  return largest;
}

double scaled::scaleFor(float largest) {
  if (!(largest > 0))
    return 1;
  int exponent;
  std::frexp(largest, &exponent);
  return std::ldexp(1.0, -exponent);
}

Points scaled::makePoints(const EmbeddingMatrix &matrix, double scale,
                          bool transposed) {
  Points points;
  points.count = matrix.count;
  points.dim = matrix.dim;
  points.rows.resize(matrix.count * matrix.dim);
  for (size_t i = 0, e = points.rows.size(); i < e; ++i) {
    float value = matrix.data[i];
    points.rows[i] =
        std::isfinite(value) ? static_cast<float>(value * scale) : 0.0f;
  }
  if (transposed) {
    points.stride = padToBlock(points.count);
    points.cols.assign(points.dim * points.stride, 0.0f);
    for (size_t i = 0; i < points.count; ++i)
      for (size_t d = 0; d < points.dim; ++d)
        points.cols[d * points.stride + i] = points.rows[i * points.dim + d];
  }
  return points;
}

namespace {

#if defined(__GNUC__)
/// Vectors of the GCC/Clang vector extension: the compiler maps them onto
/// whatever vector registers the target has and keeps the sums of a pass in
/// them (with a plain float array it keeps the sums in memory, at a load
/// and a store per addition).
typedef float Float4 __attribute__((vector_size(16)));
typedef float Float8 __attribute__((vector_size(32)));

/// The body of squaredDistances, for columns in passes of eight vectors.
template <typename Vector>
__attribute__((always_inline)) inline void
squaredDistancesIn(const float *query, const float *cols, size_t dim,
                   size_t stride, float *out) {
  constexpr size_t kLanes = sizeof(Vector) / sizeof(float);
  constexpr size_t kVectors = 8;
  static_assert(kBlock % (kLanes * kVectors) == 0, "passes must tile blocks");
  for (size_t start = 0; start < stride; start += kLanes * kVectors) {
    Vector sums[kVectors] = {};
    for (size_t d = 0; d < dim; ++d) {
      const float *col = cols + d * stride + start;
      float coordinate = query[d];
      for (size_t v = 0; v < kVectors; ++v) {
        Vector diff;
        std::memcpy(&diff, col + v * kLanes, sizeof(Vector));
        diff -= coordinate;
        sums[v] += diff * diff;
      }
    }
    std::memcpy(out + start, sums, sizeof(sums));
  }
}

void squaredDistancesGeneric(const float *query, const float *cols, size_t dim,
                             size_t stride, float *out) {
  squaredDistancesIn<Float4>(query, cols, dim, stride, out);
}

#if defined(__x86_64__) || defined(__i386__)
/// Twice the width where the CPU has it. AVX2 without FMA: a fused
/// multiply-add would round differently from the other variants.
__attribute__((target("avx2"))) void
squaredDistancesAvx2(const float *query, const float *cols, size_t dim,
                     size_t stride, float *out) {
  squaredDistancesIn<Float8>(query, cols, dim, stride, out);
}
#endif
#else
void squaredDistancesGeneric(const float *query, const float *cols, size_t dim,
                             size_t stride, float *out) {
  for (size_t start = 0; start < stride; start += kBlock) {
    float sums[kBlock] = {};
    for (size_t d = 0; d < dim; ++d) {
      const float *col = cols + d * stride + start;
      float coordinate = query[d];
      for (size_t j = 0; j < kBlock; ++j) {
        float diff = col[j] - coordinate;
        sums[j] += diff * diff;
      }
    }
    std::copy(sums, sums + kBlock, out + start);
  }
}
#endif

using DistancesFn = void (*)(const float *, const float *, size_t, size_t,
                             float *);

DistancesFn pickSquaredDistances() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  if (__builtin_cpu_supports("avx2"))
    return squaredDistancesAvx2;
#endif
  return squaredDistancesGeneric;
}

} // namespace

void scaled::squaredDistances(const float *query, const float *cols, size_t dim,
                              size_t stride, float *out) {
  static const DistancesFn distances = pickSquaredDistances();
  distances(query, cols, dim, stride, out);
}
