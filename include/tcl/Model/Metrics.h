//===- Metrics.h - How well a cost model ranks schedules --------*- C++ -*-===//
//
// TenSet's metrics (Zheng et al., NeurIPS 2021), computed on one dataset
// from one score per sample:
//   - pairwise comparison accuracy (PCA): within each (task, target) group,
//     the fraction of pairs with different latencies that the scores order
//     like the latencies;
//   - top-k score of a network on a target: sum over its tasks of
//     weight * best latency, divided by the same sum over the best latency
//     among each task's k highest-scored schedules (1 = the model's top-k
//     always contains the best); weight = occurrences of the task;
//   - RMSE of the scores against the labels (meaningful for models trained
//     with MSE on the labels).
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MODEL_METRICS_H
#define TCL_MODEL_METRICS_H

#include "tcl/Model/Dataset.h"

#include <map>
#include <string>

namespace tcl {

/// How the scores rank one task's schedules on one target.
struct TaskRanking {
  std::string taskKey, target;
  /// Best latency / latency of the highest-scored schedule (1 = found).
  double top1 = 0;
  /// The group's pairwise accuracy, and its pairs and samples.
  double pairwiseAccuracy = 0;
  int64_t pairs = 0, samples = 0;
  /// The task's share of each covered network's best end-to-end time on
  /// the target: occurrences * best latency / the network's sum of them.
  std::map<std::string, double> networkShare;
};

struct RankingMetrics {
  double pairwiseAccuracy = 0;
  /// Mean over (network, target) of the top-k scores.
  double top1 = 0, top5 = 0;
  double rmse = 0;
  /// Top-1 and top-5 per "network @ target".
  std::map<std::string, std::pair<double, double>> topByNetwork;
  /// Where a network's top-1 is won or lost: one entry per group (task on
  /// a target, measured on one CPU) of the covered networks, named
  /// "task @ target", with " #2", " #3"... for the same task and target
  /// measured on other CPUs.
  std::map<std::string, TaskRanking> byTask;
};

/// `scores[i]` is the model's score of sample i (higher = faster). Top-k
/// scores cover `networks` only (every network when empty): a held-out
/// network's tasks may also occur in networks that were trained on.
RankingMetrics evaluateRanking(const Dataset &dataset,
                               llvm::ArrayRef<float> scores,
                               const std::set<std::string> &networks = {});

/// Pairwise accuracy alone: what early stopping watches by default.
double pairwiseAccuracy(const Dataset &dataset, llvm::ArrayRef<float> scores);

/// One group's share of pairwise accuracy: its pairs of samples with
/// different latencies, and how many of them `scores` order like the
/// latencies (faster = higher score).
struct OrderedPairs {
  int64_t correct = 0, pairs = 0;
};
OrderedPairs orderedPairs(const Dataset &dataset, const DatasetGroup &group,
                          llvm::ArrayRef<float> scores);

/// Normalized discounted cumulative gain of the ranking `scores` give each
/// group, averaged over groups with two or more samples: a sample at rank r
/// (1 = highest score) gains label^gainExponent / log2(r + 1), divided by
/// the same sum for the ideal order. What LambdaRank optimizes, so early
/// stopping on it keeps the epoch that ranks the near-best schedules best.
double normalizedDcg(const Dataset &dataset, llvm::ArrayRef<float> scores,
                     double gainExponent = 1);

} // namespace tcl

#endif // TCL_MODEL_METRICS_H
