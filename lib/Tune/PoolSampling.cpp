//===- PoolSampling.cpp - Choosing what to measure from a pool ------------===//

#include "tcl/Tune/PoolSampling.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace tcl;

/// How many of `size` candidates a task gets after `round` of `rounds`.
static size_t quotaAfter(size_t size, double fraction, unsigned round,
                         unsigned rounds) {
  size_t total = std::min(
      size, std::max<size_t>(2, static_cast<size_t>(std::lround(fraction * size))));
  return std::max<size_t>(std::min<size_t>(total, 2),
                          total * round / std::max(1u, rounds));
}

/// The model whose embedding places the pool in `round`: the warm start
/// fine-tuned on `chosen`, or a new model trained on it, for about
/// `roundSteps` gradient steps however few records are chosen yet.
static llvm::Expected<std::unique_ptr<CostModel>>
roundModel(const Dataset &chosen, const PoolSamplingOptions &options,
           unsigned round) {
  ModelOptions modelOptions = options.model;
  modelOptions.seed = options.seed + round;
  if (!options.warmStart.empty()) {
    auto model = CostModel::load(options.warmStart);
    if (!model)
      return model.takeError();
    if (llvm::Error error = (*model)->setTrainingOptions(modelOptions))
      return std::move(error);
    if (chosen.size() > 0)
      if (llvm::Error error = (*model)->update(chosen, options.roundSteps))
        return std::move(error);
    return model;
  }
  size_t perBatch = std::max(1u, modelOptions.groupsPerBatch) *
                    std::max(2u, modelOptions.samplesPerGroup);
  size_t batchesPerEpoch = std::max<size_t>(1, chosen.size() / perBatch);
  modelOptions.epochs = static_cast<unsigned>(
      (options.roundSteps + batchesPerEpoch - 1) / batchesPerEpoch);
  modelOptions.patience = modelOptions.epochs;
  auto model = CostModel::create(modelOptions);
  if (!model)
    return model.takeError();
  if (auto trained = (*model)->train(chosen, Dataset()); !trained)
    return trained.takeError();
  return model;
}

/// The records of `pool`'s tasks taken whole in `order` until `fraction` of
/// its records, sorted.
static std::vector<size_t> takeWholeTasks(const Dataset &pool,
                                          llvm::ArrayRef<size_t> order,
                                          double fraction) {
  std::vector<size_t> result;
  double wanted = fraction * static_cast<double>(pool.size());
  for (size_t group : order) {
    if (static_cast<double>(result.size()) >= wanted)
      break;
    for (size_t i = pool.groups[group].begin; i < pool.groups[group].end; ++i)
      result.push_back(i);
  }
  llvm::sort(result);
  return result;
}

/// Whole tasks of `pool` at random until `fraction` of its records: a task
/// measured through ranks all its pairs, where a tenth of each task ranks a
/// hundredth of them.
static std::vector<size_t> wholeTasks(const Dataset &pool, double fraction,
                                      std::mt19937_64 &random) {
  std::vector<size_t> order(pool.groups.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::shuffle(order.begin(), order.end(), random);
  return takeWholeTasks(pool, order, fraction);
}

/// Whole tasks of `pool`, drawn without replacement with probability in
/// proportion to their FLOPs times their occurrences in the networks, until
/// `fraction` of its records: a tuner's task scheduler spends its trials on
/// the tasks that hold the networks' time, so those are the ones a new
/// target has measured through. FLOPs stand in for the time, which is not
/// known before anything is measured.
static std::vector<size_t> heavyTasks(const Dataset &pool, double fraction,
                                      std::mt19937_64 &random) {
  // Efraimidis and Spirakis: the largest log(u) / weight, u uniform in
  // (0, 1), is a draw in proportion to weight.
  std::uniform_real_distribution<double> uniform(
      std::numeric_limits<double>::min(), 1.0);
  std::vector<std::pair<double, size_t>> keys;
  for (auto [index, group] : llvm::enumerate(pool.groups)) {
    int64_t occurrences = 0;
    for (const auto &[network, count] : group.networks)
      occurrences += count;
    double weight = std::max(1.0, group.flops) *
                    static_cast<double>(std::max<int64_t>(1, occurrences));
    keys.push_back({std::log(uniform(random)) / weight, index});
  }
  llvm::sort(keys, [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<size_t> order;
  for (const auto &[key, group] : keys)
    order.push_back(group);
  return takeWholeTasks(pool, order, fraction);
}

llvm::Expected<std::vector<size_t>>
tcl::samplePool(const Dataset &pool, const PoolSamplingOptions &options) {
  if (options.sampler != "rdu" && options.sampler != "random" &&
      options.sampler != "tasks" && options.sampler != "heavy-tasks")
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unknown pool sampler '" + options.sampler +
            "' (expected rdu, random, tasks or heavy-tasks)");
  std::mt19937_64 random(options.seed);
  if (options.sampler == "tasks")
    return wholeTasks(pool, options.fraction, random);
  if (options.sampler == "heavy-tasks")
    return heavyTasks(pool, options.fraction, random);
  std::vector<std::vector<size_t>> chosen(pool.groups.size());
  std::vector<std::vector<size_t>> left(pool.groups.size());
  for (auto [index, group] : llvm::enumerate(pool.groups)) {
    for (size_t sample = group.begin; sample < group.end; ++sample)
      left[index].push_back(sample);
    std::shuffle(left[index].begin(), left[index].end(), random);
  }
  auto takeRandom = [&](size_t group, size_t count) {
    for (size_t i = 0; i < count && !left[group].empty(); ++i) {
      chosen[group].push_back(left[group].back());
      left[group].pop_back();
    }
  };
  unsigned rounds = options.sampler == "random" ? 1 : std::max(1u, options.rounds);
  for (unsigned round = 1; round <= rounds; ++round) {
    std::vector<size_t> wanted(pool.groups.size());
    for (auto [index, group] : llvm::enumerate(pool.groups)) {
      size_t quota = quotaAfter(group.end - group.begin, options.fraction,
                                round, rounds);
      wanted[index] = quota > chosen[index].size() ? quota - chosen[index].size() : 0;
    }
    if (round == 1 && options.warmStart.empty()) {
      for (size_t group = 0; group < pool.groups.size(); ++group)
        takeRandom(group, wanted[group]);
      continue;
    }
    // A model of what is chosen so far places the pool in its embedding.
    std::vector<size_t> sofar;
    for (const std::vector<size_t> &samples : chosen)
      sofar.insert(sofar.end(), samples.begin(), samples.end());
    Dataset chosenSet = pool.select(sofar);
    auto model = roundModel(chosenSet, options, round);
    if (!model)
      return model.takeError();
    Prediction all = (*model)->predictForSampling(pool.all());
    size_t dim = all.embeddingSize;
    for (size_t group = 0; group < pool.groups.size(); ++group) {
      if (wanted[group] == 0 || left[group].empty())
        continue;
      std::vector<float> candidates, measured, uncertainty;
      for (size_t sample : left[group]) {
        candidates.insert(candidates.end(), all.embeddings.begin() + sample * dim,
                          all.embeddings.begin() + (sample + 1) * dim);
        if (!all.uncertainty.empty())
          uncertainty.push_back(all.uncertainty[sample]);
      }
      for (size_t sample : chosen[group])
        measured.insert(measured.end(), all.embeddings.begin() + sample * dim,
                        all.embeddings.begin() + (sample + 1) * dim);
      RduPool rduPool;
      rduPool.candidates = {candidates.data(), left[group].size(), dim};
      rduPool.measured = {measured.data(), chosen[group].size(), dim};
      rduPool.uncertainty = uncertainty;
      RduOptions rdu = options.rdu;
      rdu.seed = options.seed * 7919 + group * 31 + round;
      std::vector<size_t> picks = selectRdu(rduPool, wanted[group], rdu);
      std::vector<bool> taken(left[group].size(), false);
      for (size_t pick : picks) {
        chosen[group].push_back(left[group][pick]);
        taken[pick] = true;
      }
      std::vector<size_t> rest;
      for (size_t i = 0; i < left[group].size(); ++i)
        if (!taken[i])
          rest.push_back(left[group][i]);
      left[group] = std::move(rest);
    }
    if (options.verbose) {
      size_t total = 0;
      for (const std::vector<size_t> &samples : chosen)
        total += samples.size();
      llvm::errs() << llvm::format("pool round %u (%s): %zu chosen\n", round,
                                   options.warmStart.empty() ? "new model"
                                                             : "warm start",
                                   total);
    }
  }
  std::vector<size_t> result;
  for (const std::vector<size_t> &samples : chosen)
    result.insert(result.end(), samples.begin(), samples.end());
  llvm::sort(result);
  return result;
}
