//===- ReplayTuning.cpp - Tuning replayed on measured records -------------===//

#include "tcl/Tune/ReplayTuning.h"

#include "TuningTask.h"

#include "tcl/Tune/BatchPicking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace tcl;

namespace {

/// One task of the replay: its records, what is revealed of them, and the
/// best latency found after each of its trials.
struct ReplayedTask {
  const DatasetGroup *group = nullptr;
  std::vector<bool> revealed;
  std::vector<size_t> measured;
  std::vector<double> bestAfterTrial;
  /// As TuningTask::roundsWithoutGain: a stalled task takes the top-k.
  unsigned roundsWithoutGain = 0;

  size_t records() const { return group->end - group->begin; }
  bool done(unsigned trials) const {
    return measured.size() >= std::min<size_t>(trials, records());
  }
};

/// The sequences `indices` of `data`, in that order.
OwnedBatch gather(const Dataset &data, llvm::ArrayRef<size_t> indices) {
  OwnedBatch batch;
  batch.length = data.length;
  size_t stride = static_cast<size_t>(data.length) * kFeatureSize;
  batch.tokens.reserve(indices.size() * stride);
  for (size_t index : indices) {
    const float *row = data.tokens.data() + index * stride;
    batch.tokens.insert(batch.tokens.end(), row, row + stride);
    batch.lengths.push_back(data.lengths[index]);
  }
  return batch;
}

} // namespace

llvm::Expected<std::vector<ReplayPoint>>
tcl::replayTuning(CostModel &model, const Dataset &tasks,
                  const ReplayOptions &options) {
  const TuneOptions &tuner = options.tuner;
  unsigned updateSteps = tuner.updateStepsFor(model);
  std::mt19937_64 random(tuner.seed);
  std::vector<ReplayedTask> replayed;
  for (const DatasetGroup &group : tasks.groups) {
    ReplayedTask task;
    task.group = &group;
    task.revealed.assign(group.end - group.begin, false);
    replayed.push_back(std::move(task));
  }
  size_t stride = static_cast<size_t>(tasks.length) * kFeatureSize;
  std::vector<size_t> allMeasured;

  // The anchor, as the tuner's: the model as it starts, and a sample of
  // every task's schedules standing in for the tuner's random draws from
  // its space.
  std::unique_ptr<CostModel> initial;
  Dataset anchorSchedules;
  UpdateAnchor anchor;
  if (tuner.anchoredUpdate && updateSteps) {
    auto copy = model.clone();
    if (!copy)
      return copy.takeError();
    initial = std::move(*copy);
    std::vector<size_t> sample;
    for (const DatasetGroup &group : tasks.groups) {
      std::vector<size_t> records(group.end - group.begin);
      std::iota(records.begin(), records.end(), group.begin);
      std::shuffle(records.begin(), records.end(), random);
      records.resize(std::min<size_t>(records.size(), tuner.anchorSchedules));
      sample.insert(sample.end(), records.begin(), records.end());
    }
    anchorSchedules = tasks.select(sample);
    anchor.initial = initial.get();
    anchor.schedules = &anchorSchedules;
  }

  // As the tuner: the update waits for a round that the updated model
  // scores.
  bool modelBehind = false;
  auto round = [&](ReplayedTask &task) -> llvm::Error {
    const DatasetGroup &group = *task.group;
    bool firstRound = task.measured.empty();
    bool initialScores = firstRound && initial;
    if (modelBehind && !initialScores && updateSteps) {
      if (llvm::Error error =
              model.update(tasks.select(allMeasured), updateSteps, anchor))
        return error;
      modelBehind = false;
    }
    size_t count = std::min<size_t>(
        firstRound ? tuner.firstBatchSize : tuner.batchSize,
        std::min<size_t>(options.trialsPerTask, task.records()) -
            task.measured.size());
    size_t randomCount =
        std::min<size_t>(count, std::lround(count * tuner.randomShare));
    size_t modelCount = count - randomCount;

    // The search's pool: the best-scored unmeasured records.
    SequenceBatch all{tasks.tokens.data() + group.begin * stride,
                      tasks.lengths.data() + group.begin, task.records(),
                      tasks.length, group.target};
    // As the tuner: the model as loaded scores a task's first round.
    CostModel &scorer = initialScores ? *initial : model;
    std::vector<float> scores = scorer.predict(all);
    std::vector<size_t> unmeasured;
    for (size_t i = 0; i < task.records(); ++i)
      if (!task.revealed[i])
        unmeasured.push_back(i);
    std::stable_sort(unmeasured.begin(), unmeasured.end(),
                     [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    std::vector<size_t> pool(
        unmeasured.begin(),
        unmeasured.begin() +
            std::min(unmeasured.size(),
                     std::max(modelCount, modelCount * tuner.poolFactor)));
    std::vector<size_t> poolRecords, measuredRecords;
    for (size_t i : pool)
      poolRecords.push_back(group.begin + i);
    for (size_t i : task.measured)
      measuredRecords.push_back(group.begin + i);
    OwnedBatch poolBatch = gather(tasks, poolRecords);
    OwnedBatch measuredBatch = gather(tasks, measuredRecords);
    SequenceBatch poolView = poolBatch.view(), measuredView = measuredBatch.view();
    poolView.target = measuredView.target = group.target;
    RduOptions rdu = tuner.rdu;
    rdu.seed = random();

    std::vector<size_t> picks;
    for (size_t index : pickToMeasure(scorer, poolView, measuredView, modelCount,
                                      tuner.samplerAfter(task.roundsWithoutGain),
                                      rdu, firstRound))
      picks.push_back(pool[index]);
    // The random share, and whatever the pool could not fill.
    std::vector<size_t> rest;
    for (size_t i : unmeasured)
      if (!llvm::is_contained(picks, i))
        rest.push_back(i);
    std::shuffle(rest.begin(), rest.end(), random);
    for (size_t i : rest) {
      if (picks.size() >= count)
        break;
      picks.push_back(i);
    }

    double bestBefore = task.bestAfterTrial.empty()
                            ? std::numeric_limits<double>::infinity()
                            : task.bestAfterTrial.back();
    double best = bestBefore;
    for (size_t i : picks) {
      task.revealed[i] = true;
      task.measured.push_back(i);
      allMeasured.push_back(group.begin + i);
      best = std::min(best, tasks.seconds[group.begin + i]);
      task.bestAfterTrial.push_back(best);
    }
    task.roundsWithoutGain = best < bestBefore ? 0 : task.roundsWithoutGain + 1;
    modelBehind = true;
    return llvm::Error::success();
  };

  // Rounds visit the tasks in turn until each has its trials.
  for (bool anyLeft = true; anyLeft;) {
    anyLeft = false;
    for (ReplayedTask &task : replayed) {
      if (task.done(options.trialsPerTask))
        continue;
      if (llvm::Error error = round(task))
        return std::move(error);
      anyLeft |= !task.done(options.trialsPerTask);
    }
  }

  std::vector<ReplayPoint> points;
  for (unsigned trials = 1; trials <= options.trialsPerTask; ++trials) {
    ReplayPoint point;
    point.trials = trials;
    std::map<std::string, std::pair<double, double>> networks;
    for (const ReplayedTask &task : replayed) {
      if (task.bestAfterTrial.empty())
        continue;
      double found = task.bestAfterTrial[std::min<size_t>(
          trials, task.bestAfterTrial.size()) - 1];
      point.meanBestFound += task.group->bestSeconds / found;
      for (const auto &[network, occurrences] : task.group->networks) {
        networks[network].first += occurrences * task.group->bestSeconds;
        networks[network].second += occurrences * found;
      }
    }
    point.meanBestFound /= std::max<size_t>(1, replayed.size());
    for (const auto &[network, sums] : networks)
      point.networkBestFound[network] = sums.first / sums.second;
    points.push_back(std::move(point));
  }
  return points;
}
