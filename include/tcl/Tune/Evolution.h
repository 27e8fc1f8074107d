//===- Evolution.h - Evolutionary search over a schedule space --*- C++ -*-===//
//
// The search proposes candidates for the sampler to choose from, the way
// Ansor's evolutionary search does: a population seeded with the best
// measured schedules and fresh random ones evolves for a few generations by
// mutation (one or two knobs changed) and crossover (each knob from one of
// two parents), parents chosen by the cost model's scores. Every child is
// legal: operators retry until the space's constraints hold.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_EVOLUTION_H
#define TCL_TUNE_EVOLUTION_H

#include "tcl/Space/Space.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace tcl {

/// `parent` with one knob (with probability 1/4, two) set to another
/// option; none if no legal mutation turned up in a bounded number of tries
/// (say, a space with a single legal schedule).
std::optional<Assignment> mutate(const Space &space, const Assignment &parent,
                                 std::mt19937_64 &random);

/// Each knob from one of the two parents, at random; none if no legal mix
/// turned up in a bounded number of tries.
std::optional<Assignment> crossover(const Space &space, const Assignment &first,
                                    const Assignment &second,
                                    std::mt19937_64 &random);

struct EvolutionOptions {
  unsigned population = 256;
  unsigned generations = 4;
  /// Share of children made by mutation; the rest by crossover.
  double mutationProbability = 0.85;
  /// Share of the first population drawn at random (the rest are the
  /// seeds and their mutants).
  double randomShare = 0.5;
};

/// Scores a batch of schedules; higher is predicted faster.
using ScheduleScorer =
    llvm::function_ref<std::vector<float>(llvm::ArrayRef<Assignment>)>;

/// Evolves a population from `seeds` (the best measured schedules, best
/// first; may be empty) and returns up to `count` distinct legal schedules
/// that are not in `exclude` (formatted as Space::format writes them),
/// best-scored first, with their scores. Deterministic for a generator
/// state.
struct ScoredSchedule {
  Assignment assignment;
  float score = 0;
};
std::vector<ScoredSchedule> evolve(const Space &space,
                                   llvm::ArrayRef<Assignment> seeds,
                                   ScheduleScorer score,
                                   const std::set<std::string> &exclude,
                                   unsigned count,
                                   const EvolutionOptions &options,
                                   std::mt19937_64 &random);

} // namespace tcl

#endif // TCL_TUNE_EVOLUTION_H
