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
// before it draws from the whole space.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TUNE_EXPLORATION_H
#define TCL_TUNE_EXPLORATION_H

#include "tcl/Space/Space.h"

#include <vector>

namespace tcl {

/// For each option of each knob that none of `measured` has, the first of
/// `seeds` (best first) that stays legal with that one knob set to it. An
/// option that no seed can take alone is left out; so is every option when
/// `seeds` is empty. In knob order, then option order.
std::vector<Assignment>
untriedOptionNeighbours(const Space &space, llvm::ArrayRef<Assignment> seeds,
                        llvm::ArrayRef<Assignment> measured);

} // namespace tcl

#endif // TCL_TUNE_EXPLORATION_H
