//===- RduSamplerTest.cpp - k-means and the RDU sampler -------------------===//

#include "tcl/Tune/RduSampler.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <set>

using namespace tcl;

namespace {

/// Points as an owning row-major matrix.
struct Matrix {
  std::vector<float> values;
  size_t count = 0;
  size_t dim = 0;

  Matrix(size_t count, size_t dim)
      : values(count * dim, 0.0f), count(count), dim(dim) {}
  float *row(size_t i) { return values.data() + i * dim; }
  EmbeddingMatrix view() const { return {values.data(), count, dim}; }
};

/// `perBlob` points around each centre, Gaussian with deviation `spread`;
/// point i belongs to blob i / perBlob.
Matrix blobs(const std::vector<std::vector<float>> &centres, size_t perBlob,
             float spread, uint64_t seed) {
  size_t dim = centres.front().size();
  Matrix points(centres.size() * perBlob, dim);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> gauss(0.0f, spread);
  for (size_t b = 0; b < centres.size(); ++b)
    for (size_t p = 0; p < perBlob; ++p)
      for (size_t d = 0; d < dim; ++d)
        points.row(b * perBlob + p)[d] = centres[b][d] + gauss(rng);
  return points;
}

Matrix gaussian(size_t count, size_t dim, uint64_t seed) {
  Matrix points(count, dim);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> gauss;
  for (float &value : points.values)
    value = gauss(rng);
  return points;
}

double squaredDistance(const float *a, const float *b, size_t dim) {
  double sum = 0;
  for (size_t d = 0; d < dim; ++d)
    sum += (double(a[d]) - b[d]) * (double(a[d]) - b[d]);
  return sum;
}

bool allDistinct(const std::vector<size_t> &indices) {
  return std::set<size_t>(indices.begin(), indices.end()).size() ==
         indices.size();
}

RduOptions only(double r, double d, double u) {
  RduOptions options;
  options.representativeness = r;
  options.diversity = d;
  options.uncertainty = u;
  return options;
}

} // namespace

//===----------------------------------------------------------------------===//
// k-means
//===----------------------------------------------------------------------===//

TEST(RduSampler, KMeansSeparatesWellSeparatedBlobs) {
  Matrix points = blobs({{0, 0, 0}, {20, 0, 0}, {0, 20, 20}}, 40, 1.0f, 1);
  for (uint64_t seed : {0, 1, 2, 3}) {
    KMeansResult result = kmeans(points.view(), 3, 20, seed);
    ASSERT_EQ(result.k, 3u);
    ASSERT_EQ(result.assignment.size(), points.count);
    ASSERT_EQ(result.centres.size(), 3u * 3u);
    std::set<unsigned> used;
    for (size_t b = 0; b < 3; ++b) {
      unsigned cluster = result.assignment[b * 40];
      for (size_t p = 0; p < 40; ++p)
        EXPECT_EQ(result.assignment[b * 40 + p], cluster)
            << "blob " << b << " point " << p << " seed " << seed;
      used.insert(cluster);
      // The centre is the blob's mean, within a few deviations / sqrt(40).
      const float *centre = &result.centres[cluster * 3];
      EXPECT_NEAR(centre[0], b == 1 ? 20 : 0, 1.0);
      EXPECT_NEAR(centre[1], b == 2 ? 20 : 0, 1.0);
    }
    EXPECT_EQ(used.size(), 3u) << "seed " << seed;
  }
}

TEST(RduSampler, KMeansIsDeterministicForASeed) {
  Matrix points = gaussian(500, 8, 3);
  KMeansResult a = kmeans(points.view(), 25, 20, 42);
  KMeansResult b = kmeans(points.view(), 25, 20, 42);
  EXPECT_EQ(a.assignment, b.assignment);
  EXPECT_EQ(a.centres, b.centres);
  EXPECT_EQ(a.k, b.k);
}

TEST(RduSampler, KMeansCapsKAtThePointCount) {
  Matrix points(5, 2);
  for (size_t i = 0; i < 5; ++i)
    points.row(i)[0] = float(i * i);
  KMeansResult result = kmeans(points.view(), 10, 20, 0);
  ASSERT_EQ(result.k, 5u);
  // Five distinct points, five clusters: one point each, centred on it.
  std::set<unsigned> clusters(result.assignment.begin(),
                              result.assignment.end());
  EXPECT_EQ(clusters.size(), 5u);
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(result.centres[result.assignment[i] * 2], points.row(i)[0]);
}

TEST(RduSampler, KMeansOfNothingIsEmpty) {
  Matrix points = gaussian(10, 3, 0);
  KMeansResult noClusters = kmeans(points.view(), 0, 20, 0);
  EXPECT_EQ(noClusters.k, 0u);
  EXPECT_TRUE(noClusters.assignment.empty());
  EXPECT_TRUE(noClusters.centres.empty());

  KMeansResult noPoints = kmeans(EmbeddingMatrix{nullptr, 0, 3}, 4, 20, 0);
  EXPECT_EQ(noPoints.k, 0u);
  EXPECT_TRUE(noPoints.assignment.empty());
}

/// The bounds that let most points skip most centres must not change the
/// answer: once Lloyd has settled, every point is in the cluster of a
/// nearest centre, and every centre is the mean of its cluster. Enough
/// clusters that the bounds (not a scan of all centres) decide most points.
TEST(RduSampler, KMeansSettlesOnNearestCentresAndMeans) {
  Matrix points = gaussian(3000, 16, 5);
  KMeansResult result = kmeans(points.view(), 300, 500, 9);
  ASSERT_EQ(result.k, 300u);
  std::vector<std::vector<double>> sums(300, std::vector<double>(16, 0.0));
  std::vector<size_t> sizes(300, 0);
  size_t notNearest = 0;
  for (size_t i = 0; i < points.count; ++i) {
    unsigned own = result.assignment[i];
    ASSERT_LT(own, 300u);
    double ownDistance =
        squaredDistance(points.row(i), &result.centres[own * 16], 16);
    double nearest = ownDistance;
    for (unsigned c = 0; c < 300; ++c)
      nearest = std::min(
          nearest, squaredDistance(points.row(i), &result.centres[c * 16], 16));
    if (ownDistance > nearest * (1 + 1e-5) + 1e-9)
      ++notNearest;
    ++sizes[own];
    for (size_t d = 0; d < 16; ++d)
      sums[own][d] += points.row(i)[d];
  }
  EXPECT_EQ(notNearest, 0u);
  for (unsigned c = 0; c < 300; ++c) {
    ASSERT_GT(sizes[c], 0u) << "cluster " << c << " is empty";
    for (size_t d = 0; d < 16; ++d)
      EXPECT_NEAR(result.centres[c * 16 + d], sums[c][d] / sizes[c], 1e-5);
  }
}

/// Each Lloyd iteration must assign every point to a nearest centre of the
/// previous iteration, whatever the bounds let it skip. kmeans with t - 1
/// iterations returns exactly the centres that iteration t starts from (the
/// means of its last assignment), so the two together check iteration t.
/// Many clusters, so that bounds rather than full scans decide most points;
/// in two dimensions many points also sit near a boundary.
TEST(RduSampler, KMeansIteratesLikePlainLloyd) {
  for (size_t dim : {2, 16}) {
    Matrix points = gaussian(2000, dim, 6);
    const unsigned k = 200;
    KMeansResult previous = kmeans(points.view(), k, 0, 4);
    for (unsigned iterations = 1; iterations <= 10; ++iterations) {
      KMeansResult current = kmeans(points.view(), k, iterations, 4);
      ASSERT_EQ(current.k, k);
      size_t notNearest = 0;
      for (size_t i = 0; i < points.count; ++i) {
        const float *row = points.row(i);
        double own = squaredDistance(
            row, &previous.centres[current.assignment[i] * dim], dim);
        double nearest = own;
        for (unsigned c = 0; c < k; ++c)
          nearest = std::min(
              nearest, squaredDistance(row, &previous.centres[c * dim], dim));
        if (own > nearest * (1 + 1e-5) + 1e-9)
          ++notNearest;
      }
      EXPECT_EQ(notNearest, 0u)
          << dim << " dimensions, iteration " << iterations;
      previous = std::move(current);
    }
  }
}

TEST(RduSampler, KMeansOfDuplicatesLeavesNoClusterEmpty) {
  Matrix points(10, 4);
  std::fill(points.values.begin(), points.values.end(), 3.0f);
  KMeansResult result = kmeans(points.view(), 3, 20, 0);
  ASSERT_EQ(result.k, 3u);
  std::vector<size_t> sizes(3, 0);
  for (unsigned cluster : result.assignment)
    ++sizes.at(cluster);
  for (size_t size : sizes)
    EXPECT_GT(size, 0u);
  for (float value : result.centres)
    EXPECT_EQ(value, 3.0f);
}

//===----------------------------------------------------------------------===//
// selectRdu
//===----------------------------------------------------------------------===//

TEST(RduSampler, DiversityPicksAwayFromWhatIsMeasured) {
  // Cluster A (0-19) around the origin, B (20-39) around (10, 10); a
  // measured point sits inside A.
  Matrix candidates = blobs({{0, 0}, {10, 10}}, 20, 0.3f, 2);
  Matrix measured(1, 2);
  RduPool pool;
  pool.candidates = candidates.view();
  pool.measured = measured.view();
  std::vector<size_t> picks = selectRdu(pool, 2, only(0, 1, 0));
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_GE(picks[0], 20u) << "the first pick should come from cluster B";

  // With A measured and B picked, the second pick goes back to A's far side
  // or B's far side, but never next to the measured point.
  EXPECT_GT(squaredDistance(candidates.row(picks[1]), measured.row(0), 2),
            0.25);

  // Measured inside B instead: the first pick comes from A.
  measured.row(0)[0] = measured.row(0)[1] = 10;
  picks = selectRdu(pool, 1, only(0, 1, 0));
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_LT(picks[0], 20u);
}

TEST(RduSampler, DiversityAloneSpreadsPicksLikeKCenter) {
  // Four far corners with a tight cloud each; nothing measured. Four picks
  // must land in four different corners.
  Matrix candidates =
      blobs({{0, 0}, {100, 0}, {0, 100}, {100, 100}}, 25, 1.0f, 4);
  RduPool pool;
  pool.candidates = candidates.view();
  std::vector<size_t> picks = selectRdu(pool, 4, only(0, 1, 0));
  ASSERT_EQ(picks.size(), 4u);
  std::set<size_t> corners;
  for (size_t pick : picks)
    corners.insert(pick / 25);
  EXPECT_EQ(corners.size(), 4u);
}

TEST(RduSampler, DiversityStartsFromTheMeanThenFromThePicks) {
  // Ten points at 0 (0-9), one at 10 (10), one at 4 (11); nothing measured.
  // The mean is at 14 / 12, so the first pick is the point at 10. From then
  // on the picks are the reference, not the mean: the next pick is the
  // farthest from 10, a point at 0, though the point at 4 is farther from
  // the mean.
  Matrix candidates(12, 1);
  candidates.row(10)[0] = 10;
  candidates.row(11)[0] = 4;
  RduPool pool;
  pool.candidates = candidates.view();
  std::vector<size_t> picks = selectRdu(pool, 2, only(0, 1, 0));
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_EQ(picks[0], 10u);
  EXPECT_EQ(picks[1], 0u);
}

TEST(RduSampler, UncertaintyAlonePicksTheMostUncertainFirst) {
  Matrix candidates = gaussian(8, 3, 1);
  std::vector<float> uncertainty = {0.1f, 0.9f, 0.3f, 0.7f,
                                    0.0f, 0.5f, 0.8f, 0.2f};
  RduPool pool;
  pool.candidates = candidates.view();
  pool.uncertainty = uncertainty;
  std::vector<size_t> picks = selectRdu(pool, 4, only(0, 0, 1));
  EXPECT_EQ(picks, (std::vector<size_t>{1, 6, 3, 5}));
}

TEST(RduSampler, PerformanceAlonePicksTheFastestPredictedFirst) {
  Matrix candidates = gaussian(6, 3, 2);
  std::vector<float> predicted = {-1.0f, 3.0f, 0.5f, 2.0f, -4.0f, 1.0f};
  RduPool pool;
  pool.candidates = candidates.view();
  pool.predicted = predicted;
  RduOptions options = only(0, 0, 0);
  options.performance = 1.0;
  RduScores scores;
  std::vector<size_t> picks = selectRdu(pool, 3, options, &scores);
  EXPECT_EQ(picks, (std::vector<size_t>{1, 3, 5}));
  EXPECT_FLOAT_EQ(scores.performance[1], 1.0f);
  EXPECT_FLOAT_EQ(scores.performance[4], 0.0f);

  // Scores of another count than the pool's switch the term off: with no
  // other term left, the picks are the seeded random sample.
  std::vector<float> tooFew = {1.0f, 2.0f};
  pool.predicted = tooFew;
  EXPECT_EQ(selectRdu(pool, 3, options), selectRdu(pool, 3, only(0, 0, 0)));
}

TEST(RduSampler, PerformanceTradesAgainstDiversity) {
  // Two candidates predicted fastest sit on top of each other; with
  // diversity weighed in, the second pick leaves that spot, and without it
  // the predicted order decides.
  Matrix candidates(4, 2);
  float coordinates[4][2] = {{0, 0}, {0, 0.01f}, {5, 5}, {-5, 5}};
  for (size_t i = 0; i < 4; ++i)
    std::copy(coordinates[i], coordinates[i] + 2, candidates.row(i));
  std::vector<float> predicted = {1.0f, 0.99f, 0.0f, 0.0f};
  RduPool pool;
  pool.candidates = candidates.view();
  pool.predicted = predicted;
  RduOptions exploit = only(0, 0, 0);
  exploit.performance = 1.0;
  EXPECT_EQ(selectRdu(pool, 2, exploit), (std::vector<size_t>{0, 1}));
  RduOptions balanced = only(0, 1, 0);
  balanced.performance = 1.0;
  EXPECT_EQ(selectRdu(pool, 2, balanced), (std::vector<size_t>{0, 2}));
}

TEST(RduSampler, RepresentativenessPrefersTheCentreOfThePopulousCluster) {
  // A big cluster (0-39) around (0, 0) plus a point exactly at its mean
  // (index 40, the big cluster's most typical member), a small cluster
  // (41-45) around (20, 0), and an outlier (46).
  Matrix big = blobs({{0, 0}}, 40, 1.0f, 8);
  double meanX = 0, meanY = 0;
  for (size_t i = 0; i < 40; ++i) {
    meanX += big.row(i)[0] / 40.0;
    meanY += big.row(i)[1] / 40.0;
  }
  Matrix small = blobs({{20, 0}}, 5, 0.5f, 9);
  Matrix candidates(47, 2);
  std::copy(big.values.begin(), big.values.end(), candidates.values.begin());
  candidates.row(40)[0] = float(meanX);
  candidates.row(40)[1] = float(meanY);
  std::copy(small.values.begin(), small.values.end(), candidates.row(41));
  candidates.row(46)[0] = -30;
  candidates.row(46)[1] = 40;

  RduPool pool;
  pool.candidates = candidates.view();
  RduOptions options = only(1, 0, 0);
  options.clusters = 3;
  RduScores scores;
  std::vector<size_t> picks = selectRdu(pool, 3, options, &scores);
  ASSERT_EQ(picks.size(), 3u);
  EXPECT_EQ(picks[0], 40u);
  EXPECT_FLOAT_EQ(scores.representativeness[40], 1.0f);
  // The outlier is a cluster of one: worth 1/41 of the big one's centre,
  // and less than the centre of the small cluster.
  EXPECT_LT(scores.representativeness[46], 0.05f);
  float smallBest = *std::max_element(scores.representativeness.begin() + 41,
                                      scores.representativeness.begin() + 46);
  EXPECT_GT(smallBest, scores.representativeness[46]);
  EXPECT_NE(picks[1], 46u);
  EXPECT_NE(picks[2], 46u);
}

TEST(RduSampler, RepresentativenessDampingSpreadsPicksOverClusters) {
  // Three equal blobs, three clusters: three picks, one from each.
  Matrix candidates = blobs({{0, 0}, {10, 0}, {0, 10}}, 30, 1.0f, 6);
  RduPool pool;
  pool.candidates = candidates.view();
  RduOptions options = only(1, 0, 0);
  options.clusters = 3;
  std::vector<size_t> picks = selectRdu(pool, 3, options);
  ASSERT_EQ(picks.size(), 3u);
  std::set<size_t> blobsPicked;
  for (size_t pick : picks)
    blobsPicked.insert(pick / 30);
  EXPECT_EQ(blobsPicked.size(), 3u);
}

TEST(RduSampler, CountsAtAndBeyondThePool) {
  Matrix candidates = gaussian(30, 4, 2);
  std::vector<float> uncertainty(30);
  for (size_t i = 0; i < 30; ++i)
    uncertainty[i] = float(i % 7);
  RduPool pool;
  pool.candidates = candidates.view();
  pool.uncertainty = uncertainty;
  RduOptions options;

  for (size_t count : {30, 31, 1000}) {
    std::vector<size_t> picks = selectRdu(pool, count, options);
    ASSERT_EQ(picks.size(), 30u);
    std::vector<size_t> sorted = picks;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < 30; ++i)
      EXPECT_EQ(sorted[i], i);
    EXPECT_EQ(picks, selectRdu(pool, 30, options));
  }
  EXPECT_TRUE(selectRdu(pool, 0, options).empty());

  RduPool empty;
  RduScores scores;
  EXPECT_TRUE(selectRdu(empty, 5, options, &scores).empty());
  EXPECT_TRUE(scores.representativeness.empty());
  EXPECT_TRUE(scores.diversity.empty());
}

TEST(RduSampler, AllWeightsZeroIsASeededRandomSample) {
  Matrix candidates = gaussian(200, 4, 3);
  RduPool pool;
  pool.candidates = candidates.view();
  RduOptions options = only(0, 0, 0);
  options.seed = 11;
  RduScores scores;
  std::vector<size_t> a = selectRdu(pool, 20, options, &scores);
  ASSERT_EQ(a.size(), 20u);
  EXPECT_TRUE(allDistinct(a));
  for (size_t pick : a)
    EXPECT_LT(pick, 200u);
  EXPECT_EQ(a, selectRdu(pool, 20, options));
  // Not simply the first indices, and another seed draws another sample.
  std::vector<size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_NE(sorted.back(), 19u);
  options.seed = 12;
  EXPECT_NE(a, selectRdu(pool, 20, options));
  // No term is on: every score is zero.
  for (float value : scores.diversity)
    EXPECT_EQ(value, 0.0f);

  // An uncertainty-only sampler without uncertainties has nothing to go on
  // either, and samples at random rather than taking the lowest indices.
  options = only(0, 0, 1);
  options.seed = 11;
  EXPECT_EQ(selectRdu(pool, 20, options), a);
}

TEST(RduSampler, PicksAreDistinctAndDeterministic) {
  Matrix candidates =
      blobs({{0, 0, 0, 0}, {5, 5, 0, 0}, {0, 5, 5, 5}}, 100, 1.5f, 12);
  Matrix measured = gaussian(10, 4, 13);
  std::vector<float> uncertainty(candidates.count);
  std::mt19937_64 rng(14);
  for (float &value : uncertainty)
    value = float(rng() % 1000) / 1000.0f;
  RduPool pool;
  pool.candidates = candidates.view();
  pool.measured = measured.view();
  pool.uncertainty = uncertainty;
  RduOptions options;
  options.seed = 5;
  options.clusters = 12;
  std::vector<size_t> picks = selectRdu(pool, 60, options);
  ASSERT_EQ(picks.size(), 60u);
  EXPECT_TRUE(allDistinct(picks));
  EXPECT_EQ(picks, selectRdu(pool, 60, options));
  // With the clusters fixed, a shorter batch is a prefix of a longer one:
  // picking is greedy.
  std::vector<size_t> prefix = selectRdu(pool, 10, options);
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), picks.begin()));
}

TEST(RduSampler, ScoresAreNormalizedAndZeroWhenOff) {
  Matrix candidates = blobs({{0, 0}, {8, 8}}, 50, 1.0f, 15);
  std::vector<float> uncertainty(100);
  for (size_t i = 0; i < 100; ++i)
    uncertainty[i] = 2.0f + float(i % 10);
  RduPool pool;
  pool.candidates = candidates.view();
  pool.uncertainty = uncertainty;

  RduScores scores;
  selectRdu(pool, 10, RduOptions(), &scores);
  for (const std::vector<float> *term :
       {&scores.representativeness, &scores.diversity, &scores.uncertainty}) {
    ASSERT_EQ(term->size(), 100u);
    for (float value : *term) {
      EXPECT_GE(value, 0.0f);
      EXPECT_LE(value, 1.0f);
    }
    EXPECT_FLOAT_EQ(*std::max_element(term->begin(), term->end()), 1.0f);
  }
  EXPECT_FLOAT_EQ(scores.uncertainty[0], 0.0f);
  EXPECT_FLOAT_EQ(scores.uncertainty[9], 1.0f);

  selectRdu(pool, 10, only(0, 1, 0), &scores);
  ASSERT_EQ(scores.representativeness.size(), 100u);
  ASSERT_EQ(scores.uncertainty.size(), 100u);
  for (size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(scores.representativeness[i], 0.0f);
    EXPECT_EQ(scores.uncertainty[i], 0.0f);
  }
  EXPECT_FLOAT_EQ(
      *std::max_element(scores.diversity.begin(), scores.diversity.end()),
      1.0f);

  // A constant uncertainty says nothing: that term is off.
  std::vector<float> constant(100, 0.5f);
  pool.uncertainty = constant;
  selectRdu(pool, 10, RduOptions(), &scores);
  for (float value : scores.uncertainty)
    EXPECT_EQ(value, 0.0f);
}

TEST(RduSampler, MeasuredOfAnotherDimensionIsIgnored) {
  Matrix candidates = gaussian(50, 4, 16);
  Matrix measured = gaussian(5, 3, 17);
  RduPool withMeasured, without;
  withMeasured.candidates = without.candidates = candidates.view();
  withMeasured.measured = measured.view();
  RduScores a, b;
  std::vector<size_t> picks = selectRdu(withMeasured, 10, RduOptions(), &a);
  EXPECT_EQ(picks, selectRdu(without, 10, RduOptions(), &b));
  EXPECT_EQ(a.diversity, b.diversity);

  // Uncertainties that are not one per candidate are ignored too.
  std::vector<float> wrongSize(7, 1.0f);
  withMeasured.uncertainty = wrongSize;
  EXPECT_EQ(picks, selectRdu(withMeasured, 10, RduOptions()));
}

TEST(RduSampler, DegeneratePoolsDoNotBreakIt) {
  // No dimensions at all.
  RduPool pool;
  pool.candidates = {nullptr, 12, 0};
  std::vector<size_t> picks = selectRdu(pool, 5, RduOptions());
  EXPECT_EQ(picks.size(), 5u);
  EXPECT_TRUE(allDistinct(picks));

  // All candidates the same point, and a measured copy of it.
  Matrix same(20, 3);
  std::fill(same.values.begin(), same.values.end(), 1.5f);
  Matrix measured(1, 3);
  std::fill(measured.values.begin(), measured.values.end(), 1.5f);
  pool.candidates = same.view();
  pool.measured = measured.view();
  RduScores scores;
  picks = selectRdu(pool, 8, RduOptions(), &scores);
  EXPECT_EQ(picks.size(), 8u);
  EXPECT_TRUE(allDistinct(picks));
  for (float value : scores.diversity)
    EXPECT_EQ(value, 0.0f);

  // Huge coordinates: no overflow to infinity or NaN in the scores.
  Matrix huge = gaussian(40, 3, 18);
  for (float &value : huge.values)
    value *= 1e37f;
  pool = RduPool();
  pool.candidates = huge.view();
  picks = selectRdu(pool, 10, RduOptions(), &scores);
  EXPECT_EQ(picks.size(), 10u);
  EXPECT_TRUE(allDistinct(picks));
  for (const std::vector<float> *term :
       {&scores.representativeness, &scores.diversity})
    for (float value : *term)
      EXPECT_TRUE(value >= 0.0f && value <= 1.0f) << value;
}

TEST(RduSampler, PicksDoNotDependOnTheScaleOfTheEmbedding) {
  // Every score is a ratio of distances, so scaling the embedding by a
  // power of two (exact in floating point) must not change a single pick,
  // from tiny to huge magnitudes.
  Matrix candidates = blobs({{0, 0, 0}, {3, 1, 0}, {1, 4, 2}}, 40, 1.0f, 19);
  Matrix measured = gaussian(3, 3, 20);
  RduPool pool;
  pool.candidates = candidates.view();
  pool.measured = measured.view();
  RduScores referenceScores;
  std::vector<size_t> reference =
      selectRdu(pool, 15, RduOptions(), &referenceScores);
  for (int exponent : {-100, -20, 20, 100}) {
    Matrix scaledCandidates = candidates, scaledMeasured = measured;
    for (float &value : scaledCandidates.values)
      value = std::ldexp(value, exponent);
    for (float &value : scaledMeasured.values)
      value = std::ldexp(value, exponent);
    RduPool scaled;
    scaled.candidates = scaledCandidates.view();
    scaled.measured = scaledMeasured.view();
    RduScores scores;
    EXPECT_EQ(selectRdu(scaled, 15, RduOptions(), &scores), reference)
        << "scaled by 2^" << exponent;
    // To the bit: the sampler's own scaling is by a power of two as well.
    EXPECT_EQ(scores.representativeness, referenceScores.representativeness);
    EXPECT_EQ(scores.diversity, referenceScores.diversity);
  }
}

/// The dataset-collection size: 20,000 candidates of 32 dimensions, 10%
/// picked, so k-means with 2,000 clusters. Loose on time so that a loaded
/// machine does not fail it; a quadratic blow-up would.
TEST(RduSampler, LargePoolIsFast) {
  Matrix candidates = gaussian(20000, 32, 21);
  Matrix measured = gaussian(100, 32, 22);
  std::vector<float> uncertainty(20000);
  std::mt19937_64 rng(23);
  for (float &value : uncertainty)
    value = float(rng() % 10000) / 10000.0f;
  RduPool pool;
  pool.candidates = candidates.view();
  pool.measured = measured.view();
  pool.uncertainty = uncertainty;

  auto start = std::chrono::steady_clock::now();
  std::vector<size_t> picks = selectRdu(pool, 2000, RduOptions());
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_EQ(picks.size(), 2000u);
  EXPECT_TRUE(allDistinct(picks));
  EXPECT_LT(seconds, 10.0);
  RecordProperty("seconds", std::to_string(seconds));
}
