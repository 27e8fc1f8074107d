//===- PoolSampling.cpp - Choosing what to measure from a pool ------------===//

#include "tcl/Tune/PoolSampling.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
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

/// Per network, the FLOPs of `pool`'s tasks in it (counted per
/// occurrence), of all tasks or only of those `counted` accepts.
template <typename Accept>
static std::map<std::string, double> networkFlops(const Dataset &pool,
                                                  Accept counted) {
  std::map<std::string, double> flops;
  for (const DatasetGroup &group : pool.groups)
    if (counted(group))
      for (const auto &[network, count] : group.networks)
        flops[network] += group.flops * static_cast<double>(count);
  return flops;
}

/// Whole tasks of `pool`, drawn without replacement until `fraction` of its
/// records. A tuner's task scheduler spends its trials on the tasks that
/// hold the networks' time, so those are the ones a new target has measured
/// through: without a teacher, a task is drawn in proportion to its FLOPs
/// times its occurrences (FLOPs stand in for the time, which is not known
/// before anything is measured).
///
/// With the tasks the teacher learned its last target from, the draw
/// complements them, as a chain that tunes on each new target what it has
/// not tuned yet would: the tasks it was not labelled on come first, a task
/// weighed by its share of each network's FLOPs (a tuner tunes one network
/// at a time) times the share of that network the teacher's labels left
/// out; its labelled tasks follow, in the FLOPs draw. A FLOPs draw of v2
/// labels GPT-2's, ViT-B/16's and VGG-16's heavy tasks; the next target's
/// draw then labels ResNet-18's and MobileNet-V2's convolutions, which a
/// held-out ResNet-50 resembles. A teacher labelled on every task leaves
/// nothing to complement: the draw is the FLOPs draw.
static std::vector<size_t>
heavyTasks(const Dataset &pool, double fraction,
           const std::set<std::string> &teacherLabelled,
           std::mt19937_64 &random) {
  auto labelled = [&](const DatasetGroup &group) {
    return teacherLabelled.count(group.taskKey) != 0;
  };
  std::map<std::string, double> total =
      networkFlops(pool, [](const DatasetGroup &) { return true; });
  std::map<std::string, double> leftOut = networkFlops(
      pool, [&](const DatasetGroup &group) { return !labelled(group); });
  // Efraimidis and Spirakis: the largest log(u) / weight, u uniform in
  // (0, 1), is a draw in proportion to weight. One u per task, in the
  // pool's order, so that a teacher labelled on everything draws exactly
  // what no teacher does.
  std::uniform_real_distribution<double> uniform(
      std::numeric_limits<double>::min(), 1.0);
  std::vector<std::pair<double, size_t>> first, then;
  for (auto [index, group] : llvm::enumerate(pool.groups)) {
    double logU = std::log(uniform(random));
    if (labelled(group) || teacherLabelled.empty()) {
      int64_t occurrences = 0;
      for (const auto &[network, count] : group.networks)
        occurrences += count;
      double weight = std::max(1.0, group.flops) *
                      static_cast<double>(std::max<int64_t>(1, occurrences));
      then.push_back({logU / weight, index});
      continue;
    }
    // A task of no known network is a network of its own, left out whole.
    double weight = group.networks.empty() ? 1.0 : 0.0;
    for (const auto &[network, count] : group.networks) {
      double flops = total[network];
      if (flops > 0)
        weight += group.flops * static_cast<double>(count) / flops *
                  (leftOut[network] / flops);
    }
    first.push_back({logU / std::max(weight, 1e-300), index});
  }
  std::vector<size_t> order;
  for (auto *keys : {&first, &then}) {
    llvm::sort(*keys,
               [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[key, group] : *keys)
      order.push_back(group);
  }
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
    return heavyTasks(pool, options.fraction, options.teacherLabelled, random);
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
