//===- Evolution.cpp - Evolutionary search over a schedule space ----------===//

#include "tcl/Tune/Evolution.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace tcl;

/// Tries per operator before giving up: constraints reject some children,
/// but a space where hundreds of tries find nothing legal has no neighbours
/// worth searching.
static constexpr unsigned kTries = 64;

std::optional<Assignment> tcl::mutate(const Space &space,
                                      const Assignment &parent,
                                      std::mt19937_64 &random) {
  llvm::ArrayRef<Knob> knobs = space.knobs();
  std::vector<unsigned> mutable_;
  for (auto [index, knob] : llvm::enumerate(knobs))
    if (knob.options.size() > 1)
      mutable_.push_back(index);
  if (mutable_.empty() || parent.size() != knobs.size())
    return std::nullopt;
  for (unsigned attempt = 0; attempt < kTries; ++attempt) {
    Assignment child = parent;
    unsigned changes =
        std::uniform_int_distribution<unsigned>(0, 3)(random) == 0 ? 2 : 1;
    for (unsigned change = 0; change < changes; ++change) {
      unsigned knob = mutable_[std::uniform_int_distribution<size_t>(
          0, mutable_.size() - 1)(random)];
      // Another option than the current one, uniformly.
      unsigned option = std::uniform_int_distribution<unsigned>(
          0, knobs[knob].options.size() - 2)(random);
      child[knob] = option >= child[knob] ? option + 1 : option;
    }
    if (child != parent && space.isLegal(child))
      return child;
  }
  return std::nullopt;
}

std::optional<Assignment> tcl::crossover(const Space &space,
                                         const Assignment &first,
                                         const Assignment &second,
                                         std::mt19937_64 &random) {
  if (first.size() != space.knobs().size() || second.size() != first.size())
    return std::nullopt;
  std::bernoulli_distribution coin(0.5);
  for (unsigned attempt = 0; attempt < kTries; ++attempt) {
    Assignment child(first.size());
    for (size_t knob = 0; knob < first.size(); ++knob)
      child[knob] = coin(random) ? first[knob] : second[knob];
    if (space.isLegal(child))
      return child;
  }
  return std::nullopt;
}

std::vector<ScoredSchedule>
tcl::evolve(const Space &space, llvm::ArrayRef<Assignment> seeds,
            ScheduleScorer score, const std::set<std::string> &exclude,
            unsigned count, const EvolutionOptions &options,
            std::mt19937_64 &random) {
  const unsigned populationSize = std::max(2u, options.population);
  // Every schedule scored so far, best kept: the answer is the best of all
  // generations, not of the last one.
  std::map<std::string, ScoredSchedule> scored;
  /// The score of every schedule evaluated, excluded ones included.
  std::map<std::string, float> known;
  std::vector<Assignment> population;
  std::set<std::string> inPopulation;
  auto add = [&](Assignment assignment) {
    if (inPopulation.insert(space.format(assignment)).second)
      population.push_back(std::move(assignment));
  };

  // The first population: seeds, their mutants, and random draws.
  for (const Assignment &seed : seeds)
    if (population.size() < populationSize / 4 && space.isLegal(seed))
      add(seed);
  unsigned randomCount =
      static_cast<unsigned>(options.randomShare * populationSize);
  for (unsigned attempt = 0;
       population.size() < populationSize - randomCount && !seeds.empty() &&
       attempt < 4 * populationSize;
       ++attempt) {
    const Assignment &parent = seeds[attempt % seeds.size()];
    if (std::optional<Assignment> child = mutate(space, parent, random))
      add(std::move(*child));
  }
  for (unsigned attempt = 0;
       population.size() < populationSize && attempt < 4 * populationSize;
       ++attempt)
    if (std::optional<Assignment> draw = space.sample(random()))
      add(std::move(*draw));

  for (unsigned generation = 0;; ++generation) {
    if (population.empty())
      break;
    // Only schedules not seen before go to the model: the elites that
    // survive a generation keep their scores.
    std::vector<std::string> texts;
    std::vector<Assignment> unseen;
    for (const Assignment &assignment : population) {
      texts.push_back(space.format(assignment));
      if (!known.count(texts.back()))
        unseen.push_back(assignment);
    }
    std::vector<float> fresh = unseen.empty() ? std::vector<float>() : score(unseen);
    for (auto [assignment, value] : llvm::zip(unseen, fresh)) {
      std::string text = space.format(assignment);
      known[text] = value;
      if (!exclude.count(text))
        scored.try_emplace(text, ScoredSchedule{assignment, value});
    }
    std::vector<float> scores;
    for (const std::string &text : texts)
      scores.push_back(known[text]);
    if (generation == options.generations)
      break;
    // Parents by tournaments of two: selection pressure that only needs the
    // scores' order, which is all a ranking model promises.
    std::uniform_int_distribution<size_t> pick(0, population.size() - 1);
    auto tournament = [&]() -> const Assignment & {
      size_t a = pick(random), b = pick(random);
      return population[scores[a] >= scores[b] ? a : b];
    };
    std::vector<Assignment> next;
    std::set<std::string> inNext;
    // The best quarter survives (elitism), so a generation never loses the
    // best it found.
    std::vector<size_t> order(population.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    for (size_t i = 0; i < order.size() && next.size() < populationSize / 4; ++i)
      if (inNext.insert(space.format(population[order[i]])).second)
        next.push_back(population[order[i]]);
    std::bernoulli_distribution mutation(options.mutationProbability);
    for (unsigned attempt = 0;
         next.size() < populationSize && attempt < 4 * populationSize;
         ++attempt) {
      std::optional<Assignment> child =
          mutation(random) ? mutate(space, tournament(), random)
                           : crossover(space, tournament(), tournament(), random);
      if (child && inNext.insert(space.format(*child)).second)
        next.push_back(std::move(*child));
    }
    population = std::move(next);
    inPopulation = std::move(inNext);
  }

  std::vector<ScoredSchedule> best;
  best.reserve(scored.size());
  for (auto &[text, schedule] : scored)
    best.push_back(std::move(schedule));
  std::stable_sort(best.begin(), best.end(),
                   [](const ScoredSchedule &a, const ScoredSchedule &b) {
                     return a.score > b.score;
                   });
  if (best.size() > count)
    best.resize(count);
  return best;
}
