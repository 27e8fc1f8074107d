//===- TaskScheduler.cpp - Sharing a trial budget among tasks -------------===//

#include "tcl/Tune/TaskScheduler.h"

#include <cmath>
#include <limits>

using namespace tcl;

TaskScheduler::TaskScheduler(std::vector<double> weights,
                             TaskSchedulerOptions options)
    : weights(std::move(weights)), options(options), random(options.seed) {
  state.resize(this->weights.size());
}

double TaskScheduler::best(size_t task) const {
  const std::vector<std::pair<unsigned, double>> &history = state[task].history;
  return history.empty() ? std::numeric_limits<double>::infinity()
                         : history.back().second;
}

double TaskScheduler::estimatedTotal() const {
  double total = 0;
  for (size_t task = 0; task < weights.size(); ++task)
    if (std::isfinite(best(task)))
      total += weights[task] * best(task);
  return total;
}

void TaskScheduler::record(size_t task, unsigned trials, double bestSeconds) {
  TaskState &task_ = state[task];
  task_.trials += trials;
  task_.history.push_back({task_.trials, bestSeconds});
}

void TaskScheduler::retire(size_t task) { state[task].retired = true; }

double TaskScheduler::priority(size_t task) const {
  const TaskState &task_ = state[task];
  double current = best(task);
  // A task where nothing ran correctly yet: its time is unknown and may
  // dominate, until a few rounds suggest its space has nothing that runs.
  if (!std::isfinite(current))
    return task_.history.size() < 3 ? std::numeric_limits<double>::infinity()
                                    : 0;
  double forward = -current / std::max(1u, task_.trials);
  double backward = 0;
  size_t rounds = task_.history.size();
  if (rounds > 1) {
    const auto &[oldTrials, oldBest] =
        task_.history[rounds - 1 - std::min<size_t>(options.window, rounds - 1)];
    double before = std::isfinite(oldBest) ? oldBest : current;
    backward = (current - before) / std::max(1u, task_.trials - oldTrials);
  }
  return weights[task] *
         std::abs(options.alpha * backward + (1 - options.alpha) * forward);
}

size_t TaskScheduler::next() {
  std::vector<size_t> open;
  for (size_t task = 0; task < state.size(); ++task)
    if (!state[task].retired)
      open.push_back(task);
  if (open.empty())
    return state.size();
  // Warm-up: one round each, in order.
  for (size_t task : open)
    if (state[task].history.empty())
      return task;
  if (std::bernoulli_distribution(options.epsilon)(random))
    return open[std::uniform_int_distribution<size_t>(0, open.size() - 1)(random)];
  size_t chosen = open.front();
  for (size_t task : open)
    if (priority(task) > priority(chosen))
      chosen = task;
  return chosen;
}
