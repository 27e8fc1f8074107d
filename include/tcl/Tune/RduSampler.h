//===- RduSampler.h - Picking the candidates worth measuring ----*- C++ -*-===//
//
// The RDU sampler (TCL, arXiv 2604.12891) picks the few candidates of a pool
// whose measurements teach the cost model most, by three scores computed in
// the cost model's embedding space:
//
// - Representativeness: k-means over the pool; a candidate near the centre
//   of a populous cluster stands for many others (a candidate far from every
//   centre is an outlier whose measurement says little about the rest).
// - Diversity: distance to the nearest candidate already measured or already
//   picked in this batch (greedy k-center), so a batch does not spend its
//   budget on near-duplicates.
// - Uncertainty: the spread of the model's predictions (MC-dropout), which
//   marks what the model does not know yet.
//
// Each score is normalized to [0, 1] over the pool and the three are combined
// with weights; a weight of 0 switches a score off (the ablation). Picking is
// greedy: after each pick, diversity is updated against the picked point.
//
// The tuner adds a fourth term, the model's predicted speed: a tuner must
// find fast schedules as well as teach its model, and without it RDU spends
// its picks evenly over the pool whatever the model expects of them. Pool
// mode, whose only aim is the model, leaves it off.
//
// The same sampler serves the tuner (a batch of ~tens from the search's
// candidates) and dataset collection in pool mode (~10% of a pool).
//
// Plain C++ on float arrays: no LibTorch or MLIR, so it is cheap to test and
// to reuse.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_RDUSAMPLER_H
#define TCL_TUNE_RDUSAMPLER_H

#include "tcl/Tune/KMeans.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcl {

struct RduOptions {
  /// Weights of the three scores; 0 switches one off. All zero picks
  /// uniformly at random (seeded): the "random" baseline of the ablation.
  double representativeness = 1.0;
  double diversity = 1.0;
  double uncertainty = 1.0;
  /// Weight of the model's predicted score (exploitation); off by default,
  /// the tuner's default turns it on.
  double performance = 0.0;
  /// Clusters for representativeness; 0 means as many as candidates picked
  /// (capped at the pool size).
  unsigned clusters = 0;
  /// Lloyd iterations of k-means (k-means++ seeding).
  unsigned kmeansIterations = 20;
  uint64_t seed = 0;
};

/// What the sampler knows about a pool.
struct RduPool {
  /// Embeddings of the candidates, [N][D].
  EmbeddingMatrix candidates;
  /// Uncertainty per candidate (N values, e.g. the standard deviation of
  /// MC-dropout scores); empty when the model gives none (the uncertainty
  /// term is then off).
  llvm::ArrayRef<float> uncertainty;
  /// The model's score per candidate (N values, higher = faster); empty
  /// turns the performance term off.
  llvm::ArrayRef<float> predicted;
  /// Embeddings of what is already measured, [M][D] (M may be 0); same D.
  EmbeddingMatrix measured;
};

/// The scores behind a pick, for reports and tests: per candidate, each in
/// [0, 1] (all zeros for a term that is switched off).
struct RduScores {
  std::vector<float> representativeness, diversity, uncertainty, performance;
};

/// Indices of `count` distinct candidates of `pool` (all of them when the
/// pool is smaller), in the order picked. Deterministic for a seed.
/// `scores`, when given, receives the scores at the start of the pick (N
/// values per term, even when `count` is 0).
///
/// Picking is greedy on wR * R + wD * D + wU * U + wP * P (ties to the lower
/// index), P being the predicted score normalized to [0, 1] over the pool.
/// After each pick, diversity is measured against it too, and the other
/// members of its k-means cluster have their representativeness halved, so
/// that picks spread over the clusters; representativeness is normalized
/// once, diversity at every pick (over the candidates not picked yet).
///
/// What the sampler cannot use, it ignores rather than fails on:
/// - a weight that is not a positive finite number switches its term off;
/// - `measured` of another dimension than the candidates (or without data)
///   counts as nothing measured; diversity is then first measured from the
///   pool's mean;
/// - `uncertainty` or `predicted` that is not one value per candidate, or is
///   constant, switches its term off;
/// - non-finite coordinates count as 0.
/// When no term is in effect (all weights 0, or only uncertainty weighted
/// and none usable) the picks are a uniform random sample (seeded): the
/// "random" baseline.
std::vector<size_t> selectRdu(const RduPool &pool, size_t count,
                              const RduOptions &options,
                              RduScores *scores = nullptr);

} // namespace tcl

#endif // TCL_TUNE_RDUSAMPLER_H
