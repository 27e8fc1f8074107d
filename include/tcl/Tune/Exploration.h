//===- Exploration.h - Options a task has never measured --------*- C++ -*-===//
//
// A cost model carried to new hardware ranks schedules by what earlier
// targets rewarded, and it has no evidence for an option that no schedule
// of the task has been measured with on this one. On znver5, whose 32 vector
// registers make 14-row register tiles the best on ResNet-50's 1×1
// convolutions, the model distilled from two 16-register targets never
// proposed one: the evolutionary search only ever offers what the model
// scores well. So the tuner spends its random share on schedules that give
// one knob an option the task has not measured yet, next to the task's best,
// before it draws from the whole space; first those of the knobs whose
// measured options already made the most difference, since a task gets few
// rounds and each round only a few such picks.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_EXPLORATION_H
#define TCL_TUNE_EXPLORATION_H

#include "tcl/Space/Space.h"

#include <random>
#include <utility>
#include <vector>

namespace tcl {

/// A schedule that sets `knob` to an option no measured schedule has.
struct UntriedOption {
  unsigned knob;
  Assignment schedule;
};

/// For each option of each knob that none of `measured` has, the first of
/// `seeds` (best first) that stays legal with that one knob set to it. An
/// option that no seed can take alone is left out; so is every option when
/// `seeds` is empty. In knob order, then option order.
std::vector<UntriedOption>
untriedOptionNeighbours(const Space &space, llvm::ArrayRef<Assignment> seeds,
                        llvm::ArrayRef<Assignment> measured);

/// How much each knob's choice has mattered in `timed` (schedules with
/// their latencies): the share of the variance of log latency that the
/// knob's options explain (between the means of the schedules sharing an
/// option). 0 for a knob measured with a single option, and for every knob
/// before two distinct latencies.
std::vector<double>
knobInfluence(const Space &space,
              llvm::ArrayRef<std::pair<Assignment, double>> timed);

/// `untried` ordered for measuring: knobs of greater influence first, in a
/// random order within a knob and among knobs of equal influence.
void orderForExploration(std::vector<UntriedOption> &untried,
                         llvm::ArrayRef<double> influence,
                         std::mt19937_64 &random);

} // namespace tcl

#endif // TCL_TUNE_EXPLORATION_H
