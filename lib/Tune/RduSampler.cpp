//===- RduSampler.cpp - Picking the candidates worth measuring ------------===//
//
// The greedy RDU selection over k-means clusters (KMeans.cpp), on scaled
// copies of the embeddings (ScaledPoints.h), whose distances agree bit for
// bit whatever the CPU's vector width.
//
// Cost, for N candidates of D dimensions, M measured and `count` picks:
// clustering as in KMeans.cpp; representativeness O(N D); diversity
// O(N M D) to start and O(N D) per pick; the greedy choice O(N) per pick.
//
//===----------------------------------------------------------------------===//

#include "tcl/Tune/RduSampler.h"

#include "ScaledPoints.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace tcl;
using namespace tcl::scaled;

namespace {

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
