//===- KMeans.cpp - k-means over embeddings -------------------------------===//
//
// k-means++ seeding, then Lloyd iterations that skip distances by bounds, on
// scaled copies of the points (ScaledPoints.h).
//
// Cost, for N points of D dimensions and k centres: seeding O(N k D); Lloyd
// O(N k D) per iteration in the worst case, typically a small fraction of
// that.
//
//===----------------------------------------------------------------------===//

#include "tcl/Tune/KMeans.h"

#include "ScaledPoints.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

using namespace tcl;
using namespace tcl::scaled;

namespace {

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

} // namespace

KMeansResult scaled::clusterPoints(const Points &points, unsigned k,
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
