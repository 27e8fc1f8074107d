//===- RduSampler.cpp - Picking the candidates worth measuring ------------===//
//
// k-means (k-means++ seeding, then Lloyd iterations that skip distances by
// bounds) and the greedy RDU selection over it.
//
// Everything works on a private copy of the embeddings, scaled by a power of
// two so that the largest magnitude lies in [0.5, 1): squared distances of
// such points cannot overflow a float, and scaling by a power of two is
// exact, so it changes no comparison and every score (they are all ratios
// of distances) is the same as on the caller's numbers.
//
// The hot loops are distances from one point to many, with the many stored
// transposed ([dim][count], count padded to a block), so the innermost loop
// runs over independent points: it vectorizes without reassociating a sum,
// and one distance is summed in the same order as in the scalar helpers, so
// all give bit-identical results, and so do the SSE and AVX2 variants: the
// picks for a seed do not depend on whether the CPU has AVX2.
//
// Cost, for N candidates of D dimensions, M measured and `count` picks:
// k-means++ seeding O(N k D); Lloyd O(N k D) per iteration in the worst
// case, typically a small fraction of that; representativeness O(N D);
// diversity O(N M D) to start and O(N D) per pick; the greedy choice O(N)
// per pick.
//
//===----------------------------------------------------------------------===//

#include "tcl/Tune/RduSampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace tcl;

namespace {

/// The transposed matrices pad their columns to a multiple of this, so the
/// innermost distance loop has a constant trip count: GCC's -O2 cost model
/// vectorizes only loops that need no scalar remainder.
constexpr size_t kBlock = 64;

constexpr float kInfinity = std::numeric_limits<float>::infinity();

size_t padToBlock(size_t count) {
  return (count + kBlock - 1) / kBlock * kBlock;
}

/// A uniform integer in [0, bound), bound > 0, by rejection.
/// std::uniform_int_distribution is implementation-defined, so it would make
/// the same seed pick differently under another standard library.
uint64_t uniformBelow(std::mt19937_64 &rng, uint64_t bound) {
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
double uniformUnit(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// Whether a view can be read: rows exist, or there is nothing to read.
bool isReadable(const EmbeddingMatrix &matrix) {
  return matrix.data || matrix.count == 0 || matrix.dim == 0;
}

/// The largest finite magnitude in a readable view (0 when there is none).
float maxMagnitude(const EmbeddingMatrix &matrix) {
  float largest = 0;
  for (size_t i = 0, e = matrix.count * matrix.dim; i < e; ++i)
    if (std::isfinite(matrix.data[i]))
      largest = std::max(largest, std::fabs(matrix.data[i]));
  return largest;
}

/// The power of two that brings `largest` into [0.5, 1), as a double: for
/// subnormal inputs it is beyond the float range.
double scaleFor(float largest) {
  if (!(largest > 0))
    return 1;
  int exponent;
  std::frexp(largest, &exponent);
  return std::ldexp(1.0, -exponent);
}

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

/// The squared distance between two rows, summed in dimension order.
float squaredDistance(const float *a, const float *b, size_t dim) {
  float sum = 0;
  for (size_t d = 0; d < dim; ++d) {
    float diff = a[d] - b[d];
    sum += diff * diff;
  }
  return sum;
}

/// Squared distances from `row` to rows `ids[0 .. count)` of the row-major
/// `matrix`, each summed in dimension order as in squaredDistance, four at a
/// time: independent sums keep the FPU busy where a single sum would wait on
/// each addition.
void squaredDistancesToRows(const float *row, const float *matrix, size_t dim,
                            const unsigned *ids, unsigned count, float *out) {
  unsigned t = 0;
  for (; t + 4 <= count; t += 4) {
    const float *a = matrix + ids[t] * dim, *b = matrix + ids[t + 1] * dim,
                *c = matrix + ids[t + 2] * dim, *d = matrix + ids[t + 3] * dim;
    float sa = 0, sb = 0, sc = 0, sd = 0;
    for (size_t x = 0; x < dim; ++x) {
      float da = row[x] - a[x], db = row[x] - b[x], dc = row[x] - c[x],
            dd = row[x] - d[x];
      sa += da * da;
      sb += db * db;
      sc += dc * dc;
      sd += dd * dd;
    }
    out[t] = sa;
    out[t + 1] = sb;
    out[t + 2] = sc;
    out[t + 3] = sd;
  }
  for (; t < count; ++t)
    out[t] = squaredDistance(row, matrix + ids[t] * dim, dim);
}

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

/// out[j] = squared distance from `query` to column j of the transposed
/// matrix `cols` ([dim][stride], stride a multiple of kBlock), for every
/// j < stride. Summed in dimension order like squaredDistance, with no
/// fused or reordered arithmetic in any variant, so all agree bit for bit.
///
/// Nearly all the time of k-means goes here (N points against k centres),
/// hence the vector code: the innermost loop runs over independent columns,
/// so it vectorizes without reassociating a sum.
void squaredDistances(const float *query, const float *cols, size_t dim,
                      size_t stride, float *out) {
  static const DistancesFn distances = pickSquaredDistances();
  distances(query, cols, dim, stride, out);
}

//===----------------------------------------------------------------------===//
// k-means
//===----------------------------------------------------------------------===//

/// Lloyd's k-means on scaled points, accelerated with bounds in the manner
/// of Hamerly and of Drake and Hamerly. Plain Lloyd costs N * k * dim per
/// iteration, which for the sampler's k of thousands dwarfs everything else;
/// the bounds let most points skip most centres, and the result is that of
/// plain Lloyd (up to float rounding in the bounds).
///
/// Each point keeps the `kTracked` centres that were nearest when it last
/// measured all of them (its own among them), an upper bound on the distance
/// to its own centre, a lower bound on the distance to its other tracked
/// centres and one on the distance to every untracked centre. The bounds
/// drift by how far the centres move. A point whose upper bound stays below
/// both lower bounds keeps its centre at O(1) cost; otherwise it measures
/// its tracked centres, and only if an untracked one might still be nearer
/// does it measure all k.
///
/// With thousands of centres a few always move far (a re-seeded empty
/// cluster jumps across the space), and one far mover would lower the bound
/// of every point. So the `kMovers` centres that moved most are left out of
/// the drift and bounded one by one instead: by the triangle inequality from
/// the point's own centre, or, when that is not enough, by measuring them.
class KMeans {
public:
  /// Centres remembered per point, its own included.
  static constexpr unsigned kTracked = 16;
  /// Centres per iteration that are bounded one by one (measured as one
  /// block of squaredDistances).
  static constexpr unsigned kMovers = 64;
  static_assert(kMovers <= kBlock, "movers are measured as one block");

  KMeans(const Points &points, unsigned k)
      : points(points), k(k), tracked(std::min(k, kTracked)),
        movers(std::min(k, kMovers)), kStride(padToBlock(k)),
        centres(size_t(k) * points.dim), centreCols(points.dim * kStride),
        assignment(points.count), neighbours(points.count * tracked),
        upper(points.count), lowerTracked(points.count),
        lowerRest(points.count), scratch(std::max(points.stride, kStride)) {}

  /// k-means++: each next centre is a point drawn with probability
  /// proportional to its squared distance to the nearest centre so far.
  /// Points start in the cluster of their nearest seed.
  void seed(uint64_t seedValue) {
    std::mt19937_64 rng(seedValue);
    size_t n = points.count, dim = points.dim;
    std::vector<float> nearest(n, kInfinity);
    // Sums of the weights per block of kBlock points, so that a draw costs
    // O(N / kBlock + kBlock) rather than O(N). Recomputed (not adjusted)
    // when a weight changes, so rounding cannot leave weight in a block
    // that has none.
    size_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<double> blockWeights(blocks, 0.0);
    std::vector<char> touched(blocks, 0);

    for (unsigned c = 0; c < k; ++c) {
      size_t chosen =
          c == 0 ? uniformBelow(rng, n) : draw(rng, nearest, blockWeights);
      std::copy(points.row(chosen), points.row(chosen) + dim,
                centres.begin() + size_t(c) * dim);
      squaredDistances(points.row(chosen), points.cols.data(), dim,
                       points.stride, scratch.data());
      for (size_t i = 0; i < n; ++i) {
        if (scratch[i] < nearest[i]) {
          nearest[i] = scratch[i];
          assignment[i] = c;
          touched[i / kBlock] = 1;
        }
      }
      for (size_t b = 0; b < blocks; ++b) {
        if (!touched[b])
          continue;
        touched[b] = 0;
        double sum = 0;
        for (size_t i = b * kBlock, e = std::min(n, i + kBlock); i < e; ++i)
          sum += nearest[i];
        blockWeights[b] = sum;
      }
    }
    // The seeds are about to move to the means of their clusters, far
    // enough to spoil any bound: the first iteration measures all centres.
    std::fill(upper.begin(), upper.end(), kInfinity);
    std::fill(lowerTracked.begin(), lowerTracked.end(), -kInfinity);
    std::fill(lowerRest.begin(), lowerRest.end(), -kInfinity);
  }

  /// One Lloyd iteration: centres to the means of their clusters, then every
  /// point to its nearest centre. Returns whether any assignment changed.
  bool iterate() {
    std::vector<float> previous = centres;
    bool changed = updateCentres();
    size_t dim = points.dim;

    std::vector<float> movement(k);
    for (unsigned c = 0; c < k; ++c)
      movement[c] = std::sqrt(squaredDistance(&previous[size_t(c) * dim],
                                              &centres[size_t(c) * dim], dim));
    transposeCentres();

    // The centres that moved most (ties to the lower index), the largest
    // move among the others, the movers transposed for squaredDistances,
    // and the distance from every centre to each mover
    // (toMover[c * movers + m]).
    std::vector<unsigned> order(k);
    for (unsigned c = 0; c < k; ++c)
      order[c] = c;
    std::partial_sort(order.begin(), order.begin() + movers, order.end(),
                      [&](unsigned a, unsigned b) {
                        return movement[a] > movement[b] ||
                               (movement[a] == movement[b] && a < b);
                      });
    float restMove = 0;
    for (unsigned m = movers; m < k; ++m)
      restMove = std::max(restMove, movement[order[m]]);
    std::vector<float> moverCols(dim * kBlock, 0.0f);
    for (unsigned m = 0; m < movers; ++m)
      for (size_t d = 0; d < dim; ++d)
        moverCols[d * kBlock + m] = centres[size_t(order[m]) * dim + d];
    std::vector<float> toMover(size_t(k) * movers);
    for (unsigned m = 0; m < movers; ++m) {
      squaredDistances(&centres[size_t(order[m]) * dim], centreCols.data(), dim,
                       kStride, scratch.data());
      for (unsigned c = 0; c < k; ++c)
        toMover[size_t(c) * movers + m] = std::sqrt(scratch[c]);
    }

    float toTracked[kTracked], toMovers[kBlock];
    for (size_t i = 0, e = points.count; i < e; ++i) {
      unsigned own = assignment[i];
      const float *row = points.row(i);
      float first, second;
      unsigned best;
      if (!(lowerRest[i] > -kInfinity)) {
        // Bounds unknown (after seeding or re-seeding).
        best = scanAll(i, own, first, second);
      } else {
        const unsigned *ids = &neighbours[i * tracked];
        float trackedMove = 0;
        for (unsigned t = 0; t < tracked; ++t)
          if (ids[t] != own)
            trackedMove = std::max(trackedMove, movement[ids[t]]);
        upper[i] += movement[own];
        lowerTracked[i] -= trackedMove;
        lowerRest[i] -= restMove;
        // d(x, mover) >= d(own, mover) - d(x, own).
        const float *ownToMover = &toMover[size_t(own) * movers];
        auto restBound = [&](float toOwn) {
          float bound = lowerRest[i];
          for (unsigned m = 0; m < movers; ++m)
            if (order[m] != own)
              bound = std::min(bound, ownToMover[m] - toOwn);
          return bound;
        };
        float rest = restBound(upper[i]);
        if (upper[i] <= std::min(lowerTracked[i], rest)) {
          lowerRest[i] = rest;
          continue;
        }
        float ownDistance =
            squaredDistance(row, &centres[size_t(own) * dim], dim);
        upper[i] = std::sqrt(ownDistance);
        rest = restBound(upper[i]);
        if (upper[i] > std::min(lowerTracked[i], rest)) {
          // Measure the movers rather than bound them.
          squaredDistances(row, moverCols.data(), dim, kBlock, toMovers);
          rest = lowerRest[i];
          for (unsigned m = 0; m < movers; ++m)
            if (order[m] != own)
              rest = std::min(rest, std::sqrt(toMovers[m]));
        }
        lowerRest[i] = rest;
        if (upper[i] <= std::min(lowerTracked[i], rest))
          continue;

        // The nearest tracked centre (a tie keeps the current one:
        // coincident centres would otherwise trade points forever), then
        // whether an untracked one could be nearer still.
        squaredDistancesToRows(row, centres.data(), dim, ids, tracked,
                               toTracked);
        best = own;
        first = ownDistance;
        second = kInfinity;
        for (unsigned t = 0; t < tracked; ++t) {
          unsigned c = ids[t];
          if (c == own)
            continue;
          float distance = toTracked[t];
          if (distance < first ||
              (distance == first && best != own && c < best)) {
            second = first;
            first = distance;
            best = c;
          } else {
            second = std::min(second, distance);
          }
        }
        if (!(std::sqrt(first) <= lowerRest[i]))
          best = scanAll(i, own, first, second);
      }
      if (best != own) {
        assignment[i] = best;
        changed = true;
      }
      upper[i] = std::sqrt(first);
      lowerTracked[i] = std::sqrt(second);
    }
    return changed;
  }

  /// Centres to the means of their clusters, re-seeding empty clusters.
  /// Returns whether re-seeding moved a point.
  bool updateCentres() {
    size_t n = points.count, dim = points.dim;
    std::vector<size_t> sizes(k, 0);
    std::vector<double> sums(size_t(k) * dim, 0.0);
    for (size_t i = 0; i < n; ++i) {
      ++sizes[assignment[i]];
      const float *row = points.row(i);
      double *sum = &sums[size_t(assignment[i]) * dim];
      for (size_t d = 0; d < dim; ++d)
        sum[d] += row[d];
    }

    // An empty cluster takes the point farthest from its centre (among
    // clusters that can spare one; ties to the lowest index): the point the
    // current centres explain worst.
    bool moved = false;
    if (std::find(sizes.begin(), sizes.end(), size_t(0)) != sizes.end()) {
      std::vector<float> spread(n);
      for (size_t i = 0; i < n; ++i)
        spread[i] = squaredDistance(points.row(i),
                                    &centres[size_t(assignment[i]) * dim], dim);
      for (unsigned c = 0; c < k; ++c) {
        if (sizes[c] != 0)
          continue;
        size_t farthest = n;
        for (size_t i = 0; i < n; ++i)
          if (sizes[assignment[i]] > 1 && spread[i] >= 0 &&
              (farthest == n || spread[i] > spread[farthest]))
            farthest = i;
        if (farthest == n)
          break; // Cannot happen while k <= n.
        unsigned from = assignment[farthest];
        const float *row = points.row(farthest);
        for (size_t d = 0; d < dim; ++d) {
          sums[size_t(from) * dim + d] -= row[d];
          sums[size_t(c) * dim + d] = row[d];
        }
        --sizes[from];
        sizes[c] = 1;
        assignment[farthest] = c;
        spread[farthest] = -1;
        // Its own centre is not among its tracked ones now.
        lowerRest[farthest] = -kInfinity;
        moved = true;
      }
    }

    for (unsigned c = 0; c < k; ++c) {
      if (sizes[c] == 0)
        continue;
      for (size_t d = 0; d < dim; ++d)
        centres[size_t(c) * dim + d] =
            static_cast<float>(sums[size_t(c) * dim + d] / sizes[c]);
    }
    return moved;
  }

  const std::vector<float> &getCentres() const { return centres; }
  const std::vector<unsigned> &getAssignment() const { return assignment; }

private:
  /// A point drawn with probability proportional to its weight, the squared
  /// distance to its nearest centre; `blockWeights` are the sums per block
  /// of kBlock points. When every weight is 0 (all points coincide with
  /// centres), any point.
  size_t draw(std::mt19937_64 &rng, const std::vector<float> &weights,
              const std::vector<double> &blockWeights) {
    size_t n = weights.size();
    double total = 0;
    for (double weight : blockWeights)
      total += weight;
    if (!(total > 0) || !std::isfinite(total))
      return uniformBelow(rng, n);
    double target = uniformUnit(rng) * total;
    // Rounding may carry the target past the last block with weight: then
    // that block, and in it the last point with weight.
    size_t block = 0;
    for (size_t b = 0, e = blockWeights.size(); b < e; ++b) {
      if (!(blockWeights[b] > 0))
        continue;
      block = b;
      if (target < blockWeights[b])
        break;
      target -= blockWeights[b];
    }
    size_t last = block * kBlock;
    for (size_t i = block * kBlock, e = std::min(n, i + kBlock); i < e; ++i) {
      if (!(weights[i] > 0))
        continue;
      last = i;
      if (target < weights[i])
        return i;
      target -= weights[i];
    }
    return last;
  }

  /// Measures all centres from point i: its `tracked` nearest become its
  /// tracked ones and the next sets its lower bound for the rest. Returns
  /// the nearest (the lowest index on ties, but `own` if it is among them),
  /// with `first` and `second` the squared distances to it and to the next
  /// nearest.
  unsigned scanAll(size_t i, unsigned own, float &first, float &second) {
    squaredDistances(points.row(i), centreCols.data(), points.dim, kStride,
                     scratch.data());
    std::fill(scratch.begin() + k, scratch.begin() + kStride, kInfinity);
    // The tracked + 1 nearest in ascending order (ties: lower index first);
    // the last bounds the untracked ones. Most centres are not among them,
    // which a chunk of 8 shows with one comparison per centre.
    float list[kTracked + 1];
    unsigned ids[kTracked + 1];
    unsigned capacity = std::min(k, tracked + 1), filled = 0;
    float threshold = kInfinity;
    for (size_t start = 0; start < kStride; start += 8) {
      const float *chunk = &scratch[start];
      // Counting (an integer sum) rather than or-ing lets the compiler
      // vectorize the test.
      unsigned below = 0;
      for (unsigned j = 0; j < 8; ++j)
        below += chunk[j] < threshold;
      if (below == 0)
        continue;
      for (unsigned j = 0; j < 8; ++j) {
        float distance = chunk[j];
        if (!(distance < threshold))
          continue;
        unsigned at = filled < capacity ? filled++ : capacity - 1;
        for (; at > 0 && list[at - 1] > distance; --at) {
          list[at] = list[at - 1];
          ids[at] = ids[at - 1];
        }
        list[at] = distance;
        ids[at] = static_cast<unsigned>(start + j);
        if (filled == capacity)
          threshold = list[capacity - 1];
      }
    }
    std::copy(ids, ids + tracked, &neighbours[i * tracked]);
    first = list[0];
    second = tracked > 1 ? list[1] : kInfinity;
    lowerRest[i] = capacity > tracked ? std::sqrt(list[tracked]) : kInfinity;
    return scratch[own] == list[0] ? own : ids[0];
  }

  void transposeCentres() {
    for (unsigned c = 0; c < k; ++c)
      for (size_t d = 0; d < points.dim; ++d)
        centreCols[d * kStride + c] = centres[size_t(c) * points.dim + d];
  }

  const Points &points;
  unsigned k;
  /// Centres tracked per point: kTracked, or k when that is smaller.
  unsigned tracked;
  /// Centres bounded one by one: kMovers, or k when that is smaller.
  unsigned movers;
  size_t kStride;
  std::vector<float> centres;
  std::vector<float> centreCols;
  std::vector<unsigned> assignment;
  /// Per point, its `tracked` nearest centres when it last measured all.
  std::vector<unsigned> neighbours;
  /// Bounds (distances, not squared): to its own centre, to its other
  /// tracked centres, to every untracked centre. A lowerRest of -infinity
  /// means the bounds are unknown.
  std::vector<float> upper, lowerTracked, lowerRest;
  std::vector<float> scratch;
};

/// k-means on scaled points (centres in the same scale). `points` needs its
/// transposed copy.
KMeansResult clusterPoints(const Points &points, unsigned k,
                           unsigned iterations, uint64_t seed) {
  KMeansResult result;
  k = static_cast<unsigned>(std::min<size_t>(k, points.count));
  if (k == 0)
    return result;
  KMeans kmeans(points, k);
  kmeans.seed(seed);
  bool converged = false;
  for (unsigned i = 0; i < iterations && !converged; ++i)
    converged = !kmeans.iterate();
  // Unless Lloyd settled, the centres are the means of the assignment before
  // the last one; make them the means of the one returned.
  if (!converged)
    kmeans.updateCentres();
  result.assignment = kmeans.getAssignment();
  result.centres = kmeans.getCentres();
  result.k = k;
  return result;
}

//===----------------------------------------------------------------------===//
// RDU scores
//===----------------------------------------------------------------------===//

/// A weight as used: one that is not a positive finite number switches its
/// term off.
double effectiveWeight(double weight) {
  return std::isfinite(weight) && weight > 0 ? weight : 0;
}

/// Per-candidate values (uncertainty, predicted score) min-max normalized
/// to [0, 1]; empty when there are none to use (missing, not one per
/// candidate, or constant). Infinities count as
/// the extremes; NaN as the minimum.
std::vector<float> normalizedToUnit(llvm::ArrayRef<float> values, size_t n) {
  if (values.size() != n)
    return {};
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (float value : values)
    if (std::isfinite(value)) {
      low = std::min<double>(low, value);
      high = std::max<double>(high, value);
    }
  if (!(high > low))
    return {};
  std::vector<float> normalized(n);
  for (size_t i = 0; i < n; ++i) {
    float value = values[i];
    if (std::isfinite(value))
      normalized[i] = static_cast<float>((value - low) / (high - low));
    else
      normalized[i] = value > 0 ? 1.0f : 0.0f;
  }
  return normalized;
}

/// Representativeness of clustered candidates and who is in which cluster,
/// for damping a cluster once it has been picked from.
struct Representativeness {
  /// Normalized to [0, 1] over the pool.
  std::vector<float> scores;
  std::vector<unsigned> clusterOf;
  /// Members of cluster c: members[offsets[c] .. offsets[c + 1]).
  std::vector<size_t> offsets, members;
};

/// R_i = (|c| / largest |c|) * exp(-d(i, centre_c)^2 / (mean over c of the
/// squared distance to centre_c + eps)): near the centre of a populous
/// cluster is high, an outlier is low. Dividing by the cluster's own spread
/// makes "near" relative, so a loose cluster is not penalized for being
/// loose.
Representativeness representativeness(const Points &points, unsigned k,
                                      unsigned iterations, uint64_t seed) {
  Representativeness rep;
  size_t n = points.count, dim = points.dim;
  KMeansResult clusters = clusterPoints(points, k, iterations, seed);
  k = clusters.k;
  rep.clusterOf = std::move(clusters.assignment);

  std::vector<size_t> sizes(k, 0);
  std::vector<double> spread(k, 0.0), squared(n);
  double totalSpread = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned c = rep.clusterOf[i];
    const float *row = points.row(i), *centre = &clusters.centres[c * dim];
    double sum = 0;
    for (size_t d = 0; d < dim; ++d) {
      double diff = double(row[d]) - centre[d];
      sum += diff * diff;
    }
    squared[i] = sum;
    spread[c] += sum;
    totalSpread += sum;
    ++sizes[c];
  }
  // eps keeps a cluster of duplicates (spread 0) finite; relative to the
  // pool's spread so that it means the same at every scale.
  double eps = 1e-12 * totalSpread / double(n);
  size_t largest = *std::max_element(sizes.begin(), sizes.end());

  rep.scores.resize(n);
  float highest = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned c = rep.clusterOf[i];
    double denominator = spread[c] / double(sizes[c]) + eps;
    double ratio = denominator > 0 ? squared[i] / denominator : 0;
    rep.scores[i] = static_cast<float>(double(sizes[c]) / double(largest) *
                                       std::exp(-ratio));
    highest = std::max(highest, rep.scores[i]);
  }
  if (highest > 0)
    for (float &score : rep.scores)
      score /= highest;

  rep.offsets.assign(k + 1, 0);
  for (unsigned c = 0; c < k; ++c)
    rep.offsets[c + 1] = rep.offsets[c] + sizes[c];
  rep.members.resize(n);
  std::vector<size_t> next(rep.offsets.begin(), rep.offsets.end() - 1);
  for (size_t i = 0; i < n; ++i)
    rep.members[next[rep.clusterOf[i]]++] = i;
  return rep;
}

/// The "random" baseline: `count` of n without replacement (a partial
/// Fisher-Yates shuffle), in the order drawn.
std::vector<size_t> randomSample(size_t n, size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = i;
  for (size_t i = 0; i < count; ++i)
    std::swap(order[i], order[i + uniformBelow(rng, n - i)]);
  order.resize(count);
  return order;
}

} // namespace

KMeansResult tcl::kmeans(const EmbeddingMatrix &points, unsigned k,
                         unsigned iterations, uint64_t seed) {
  if (!isReadable(points) || points.count == 0 || k == 0)
    return {};
  double scale = scaleFor(maxMagnitude(points));
  KMeansResult result = clusterPoints(
      makePoints(points, scale, /*transposed=*/true), k, iterations, seed);
  for (float &coordinate : result.centres)
    coordinate = static_cast<float>(coordinate / scale);
  return result;
}

std::vector<size_t> tcl::selectRdu(const RduPool &pool, size_t count,
                                   const RduOptions &options,
                                   RduScores *scores) {
  const EmbeddingMatrix &candidates = pool.candidates;
  size_t n = isReadable(candidates) ? candidates.count : 0;
  if (scores) {
    scores->representativeness.assign(n, 0.0f);
    scores->diversity.assign(n, 0.0f);
    scores->uncertainty.assign(n, 0.0f);
    scores->performance.assign(n, 0.0f);
  }
  count = std::min(count, n);
  if (n == 0 || (count == 0 && !scores))
    return {};

  double weightR = effectiveWeight(options.representativeness);
  double weightD = effectiveWeight(options.diversity);
  double weightU = effectiveWeight(options.uncertainty);
  double weightP = effectiveWeight(options.performance);

  std::vector<float> uncertainty, performance;
  if (weightU > 0) {
    uncertainty = normalizedToUnit(pool.uncertainty, n);
    if (uncertainty.empty())
      weightU = 0;
  }
  if (weightP > 0) {
    performance = normalizedToUnit(pool.predicted, n);
    if (performance.empty())
      weightP = 0;
  }
  unsigned clusters =
      options.clusters
          ? static_cast<unsigned>(std::min<size_t>(options.clusters, n))
          : static_cast<unsigned>(count);
  if (clusters == 0)
    weightR = 0;
  // With no term in effect every candidate scores 0; a uniform sample is the
  // unbiased way to pick among equals (lowest indices first would not be).
  if (weightR == 0 && weightD == 0 && weightU == 0 && weightP == 0)
    return randomSample(n, count, options.seed);

  // A measured set of another dimension cannot be compared with the
  // candidates; it is ignored, as if nothing were measured.
  const EmbeddingMatrix &measured = pool.measured;
  bool useMeasured = weightD > 0 && isReadable(measured) &&
                     measured.count > 0 && measured.dim == candidates.dim;

  Points points;
  double scale = 1;
  if (weightR > 0 || weightD > 0) {
    float largest = maxMagnitude(candidates);
    if (useMeasured)
      largest = std::max(largest, maxMagnitude(measured));
    scale = scaleFor(largest);
    points = makePoints(candidates, scale, /*transposed=*/true);
  }
  size_t dim = points.dim;

  Representativeness rep;
  if (weightR > 0)
    rep = representativeness(points, clusters, options.kmeansIterations,
                             options.seed);

  // Squared distance to the nearest reference point and its root. Before
  // there is any (nothing measured, nothing picked), the reference is the
  // pool's mean, so the first pick on diversity alone is the most atypical.
  std::vector<float> nearest, distance, scratch;
  bool haveReference = useMeasured;
  if (weightD > 0) {
    scratch.resize(points.stride);
    nearest.assign(n, kInfinity);
    if (useMeasured) {
      Points reference = makePoints(measured, scale, /*transposed=*/false);
      for (size_t m = 0; m < reference.count; ++m) {
        squaredDistances(reference.row(m), points.cols.data(), dim,
                         points.stride, scratch.data());
        for (size_t i = 0; i < n; ++i)
          nearest[i] = std::min(nearest[i], scratch[i]);
      }
    } else {
      std::vector<double> sum(dim, 0.0);
      for (size_t i = 0; i < n; ++i)
        for (size_t d = 0; d < dim; ++d)
          sum[d] += points.row(i)[d];
      std::vector<float> mean(dim);
      for (size_t d = 0; d < dim; ++d)
        mean[d] = static_cast<float>(sum[d] / double(n));
      squaredDistances(mean.data(), points.cols.data(), dim, points.stride,
                       scratch.data());
      std::copy(scratch.begin(), scratch.begin() + n, nearest.begin());
    }
    distance.resize(n);
    for (size_t i = 0; i < n; ++i)
      distance[i] = std::sqrt(nearest[i]);
  }

  // The largest distance among candidates not picked yet, which diversity
  // is normalized by. Picked candidates are at distance 0 (from
  // themselves), so the maximum over all is the same.
  float largest = 0;
  for (float value : distance)
    largest = std::max(largest, value);
  auto inverseOf = [](float value) { return value > 0 ? 1.0 / value : 0.0; };

  if (scores) {
    if (weightR > 0)
      scores->representativeness = rep.scores;
    for (size_t i = 0; i < distance.size(); ++i)
      scores->diversity[i] =
          static_cast<float>(distance[i] * inverseOf(largest));
    if (weightU > 0)
      scores->uncertainty = uncertainty;
    if (weightP > 0)
      scores->performance = performance;
  }

  std::vector<char> picked(n, 0);
  std::vector<size_t> order;
  order.reserve(count);
  for (size_t step = 0; step < count; ++step) {
    double inverse = inverseOf(largest);
    size_t best = n;
    double bestScore = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
      if (picked[i])
        continue;
      double score = 0;
      if (weightR > 0)
        score += weightR * rep.scores[i];
      if (weightD > 0)
        score += weightD * (distance[i] * inverse);
      if (weightU > 0)
        score += weightU * uncertainty[i];
      if (weightP > 0)
        score += weightP * performance[i];
      if (best == n || score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    picked[best] = 1;
    order.push_back(best);
    if (step + 1 == count)
      break;

    // A cluster already picked from is better represented now: halve its
    // other members' claim, so picks spread over the clusters.
    if (weightR > 0) {
      unsigned c = rep.clusterOf[best];
      for (size_t m = rep.offsets[c]; m < rep.offsets[c + 1]; ++m)
        rep.scores[rep.members[m]] *= 0.5f;
    }
    // Greedy k-center: the pick is a reference point from now on.
    if (weightD > 0) {
      squaredDistances(points.row(best), points.cols.data(), dim, points.stride,
                       scratch.data());
      largest = 0;
      for (size_t i = 0; i < n; ++i) {
        if (!haveReference || scratch[i] < nearest[i]) {
          nearest[i] = scratch[i];
          distance[i] = std::sqrt(scratch[i]);
        }
        largest = std::max(largest, distance[i]);
      }
      haveReference = true;
    }
  }
  return order;
}
