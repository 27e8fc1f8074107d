//===- Exploration.cpp - Options a task has never measured ----------------===//

#include "tcl/Tune/Exploration.h"

#include <algorithm>
#include <cmath>

using namespace tcl;

std::vector<UntriedOption>
tcl::untriedOptionNeighbours(const Space &space,
                             llvm::ArrayRef<Assignment> seeds,
                             llvm::ArrayRef<Assignment> measured) {
  llvm::ArrayRef<Knob> knobs = space.knobs();
  std::vector<std::vector<bool>> tried;
  for (const Knob &knob : knobs)
    tried.emplace_back(knob.options.size(), false);
  for (const Assignment &schedule : measured)
    if (schedule.size() == knobs.size())
      for (size_t knob = 0; knob < knobs.size(); ++knob)
        tried[knob][schedule[knob]] = true;

  std::vector<UntriedOption> untried;
  for (unsigned knob = 0; knob < knobs.size(); ++knob)
    for (unsigned option = 0; option < knobs[knob].options.size(); ++option) {
      if (tried[knob][option])
        continue;
      for (const Assignment &seed : seeds) {
        if (seed.size() != knobs.size())
          continue;
        Assignment neighbour = seed;
        neighbour[knob] = option;
        if (space.isLegal(neighbour)) {
          untried.push_back({knob, std::move(neighbour)});
          break;
        }
      }
    }
  return untried;
}

std::vector<double>
tcl::knobInfluence(const Space &space,
                   llvm::ArrayRef<std::pair<Assignment, double>> timed) {
  llvm::ArrayRef<Knob> knobs = space.knobs();
  std::vector<double> influence(knobs.size(), 0.0);
  std::vector<std::pair<const Assignment *, double>> logs;
  double mean = 0;
  for (const auto &[schedule, seconds] : timed)
    if (schedule.size() == knobs.size() && seconds > 0) {
      logs.push_back({&schedule, std::log(seconds)});
      mean += logs.back().second;
    }
  if (logs.empty())
    return influence;
  mean /= logs.size();
  double total = 0;
  for (const auto &[schedule, value] : logs)
    total += (value - mean) * (value - mean);
  if (total <= 0)
    return influence;
  for (size_t knob = 0; knob < knobs.size(); ++knob) {
    std::vector<double> sums(knobs[knob].options.size(), 0.0);
    std::vector<unsigned> counts(knobs[knob].options.size(), 0);
    for (const auto &[schedule, value] : logs) {
      sums[(*schedule)[knob]] += value;
      ++counts[(*schedule)[knob]];
    }
    double between = 0;
    for (size_t option = 0; option < sums.size(); ++option)
      if (counts[option]) {
        double deviation = sums[option] / counts[option] - mean;
        between += counts[option] * deviation * deviation;
      }
    influence[knob] = between / total;
  }
  return influence;
}

void tcl::orderForExploration(std::vector<UntriedOption> &untried,
                              llvm::ArrayRef<double> influence,
                              std::mt19937_64 &random) {
  std::shuffle(untried.begin(), untried.end(), random);
  auto of = [&](const UntriedOption &option) {
    return option.knob < influence.size() ? influence[option.knob] : 0.0;
  };
  std::stable_sort(untried.begin(), untried.end(),
                   [&](const UntriedOption &a, const UntriedOption &b) {
                     return of(a) > of(b);
                   });
}
