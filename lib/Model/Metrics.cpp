//===- Metrics.cpp - How well a cost model ranks schedules ----------------===//

#include "tcl/Model/Metrics.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

using namespace tcl;

OrderedPairs tcl::orderedPairs(const Dataset &dataset, const DatasetGroup &group,
                               llvm::ArrayRef<float> scores) {
  OrderedPairs counted;
  for (size_t i = group.begin; i < group.end; ++i)
    for (size_t j = i + 1; j < group.end; ++j) {
      double a = dataset.seconds[i], b = dataset.seconds[j];
      if (a == b)
        continue;
      ++counted.pairs;
      // Faster (smaller latency) must score higher.
      counted.correct += (a < b) == (scores[i] > scores[j]);
    }
  return counted;
}

double tcl::pairwiseAccuracy(const Dataset &dataset,
                             llvm::ArrayRef<float> scores) {
  int64_t correct = 0, pairs = 0;
  for (const DatasetGroup &group : dataset.groups) {
    OrderedPairs counted = orderedPairs(dataset, group, scores);
    correct += counted.correct;
    pairs += counted.pairs;
  }
  return pairs ? static_cast<double>(correct) / static_cast<double>(pairs) : 0;
}

double tcl::normalizedDcg(const Dataset &dataset, llvm::ArrayRef<float> scores,
                          double gainExponent) {
  double sum = 0;
  size_t groups = 0;
  for (const DatasetGroup &group : dataset.groups) {
    if (group.end - group.begin < 2)
      continue;
    // Gains in sample order; samples by score, ties to the earlier one as
    // in the top-k scores.
    std::vector<double> gains;
    for (size_t i = group.begin; i < group.end; ++i)
      gains.push_back(std::pow(static_cast<double>(dataset.labels[i]), gainExponent));
    std::vector<size_t> byScore(gains.size());
    std::iota(byScore.begin(), byScore.end(), size_t(0));
    std::stable_sort(byScore.begin(), byScore.end(), [&](size_t a, size_t b) {
      return scores[group.begin + a] > scores[group.begin + b];
    });
    double dcg = 0;
    for (size_t rank = 0; rank < byScore.size(); ++rank)
      dcg += gains[byScore[rank]] / std::log2(static_cast<double>(rank) + 2);
    std::sort(gains.begin(), gains.end(), std::greater<double>());
    double ideal = 0;
    for (size_t rank = 0; rank < gains.size(); ++rank)
      ideal += gains[rank] / std::log2(static_cast<double>(rank) + 2);
    sum += ideal > 0 ? dcg / ideal : 1;
    ++groups;
  }
  return groups ? sum / static_cast<double>(groups) : 0;
}

/// The best latency among the `k` highest-scored samples of `group`.
static double bestOfTopK(const Dataset &dataset, const DatasetGroup &group,
                         llvm::ArrayRef<float> scores, size_t k) {
  std::vector<size_t> order(group.end - group.begin);
  std::iota(order.begin(), order.end(), group.begin);
  k = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](size_t a, size_t b) {
                      // Ties go to the earlier sample, deterministically.
                      return scores[a] > scores[b] ||
                             (scores[a] == scores[b] && a < b);
                    });
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < k; ++i)
    best = std::min(best, dataset.seconds[order[i]]);
  return best;
}

RankingMetrics tcl::evaluateRanking(const Dataset &dataset,
                                    llvm::ArrayRef<float> scores,
                                    const std::set<std::string> &networks) {
  RankingMetrics metrics;
  double squared = 0;
  for (size_t i = 0; i < dataset.size(); ++i) {
    double error = scores[i] - dataset.labels[i];
    squared += error * error;
  }
  metrics.rmse = dataset.size() ? std::sqrt(squared / dataset.size()) : 0;

  // Sums per "network @ target": weight * best, weight * best of top-k.
  struct Sums {
    double best = 0, top1 = 0, top5 = 0;
  };
  std::map<std::string, Sums> sums;
  // Every group's pairs count once: overall, and for its task entry.
  OrderedPairs overall;
  for (const DatasetGroup &group : dataset.groups) {
    OrderedPairs counted = orderedPairs(dataset, group, scores);
    overall.pairs += counted.pairs;
    overall.correct += counted.correct;
    double top1 = bestOfTopK(dataset, group, scores, 1);
    double top5 = bestOfTopK(dataset, group, scores, 5);
    TaskRanking task;
    for (const auto &[network, occurrences] : group.networks) {
      if (!networks.empty() && !networks.count(network))
        continue;
      Sums &entry = sums[network + " @ " + group.target];
      double weight = static_cast<double>(occurrences);
      entry.best += weight * group.bestSeconds;
      entry.top1 += weight * top1;
      entry.top5 += weight * top5;
      // The network's total is known only after every group: divide below.
      task.networkShare[network] = weight * group.bestSeconds;
    }
    if (task.networkShare.empty())
      continue;
    task.taskKey = group.taskKey;
    task.target = group.target;
    task.top1 = group.bestSeconds / top1;
    task.pairs = counted.pairs;
    task.pairwiseAccuracy =
        counted.pairs ? static_cast<double>(counted.correct) / counted.pairs : 0;
    task.samples = static_cast<int64_t>(group.end - group.begin);
    std::string name = group.taskKey + " @ " + group.target;
    for (int copy = 2; metrics.byTask.count(name); ++copy)
      name = group.taskKey + " @ " + group.target + " #" + std::to_string(copy);
    metrics.byTask[name] = std::move(task);
  }
  metrics.pairwiseAccuracy =
      overall.pairs ? static_cast<double>(overall.correct) / overall.pairs : 0;
  for (auto &[name, task] : metrics.byTask)
    for (auto &[network, share] : task.networkShare)
      share /= sums[network + " @ " + task.target].best;
  for (const auto &[name, entry] : sums) {
    std::pair<double, double> top{entry.best / entry.top1, entry.best / entry.top5};
    metrics.topByNetwork[name] = top;
    metrics.top1 += top.first / sums.size();
    metrics.top5 += top.second / sums.size();
  }
  return metrics;
}
