//===- Exploration.cpp - Options a task has never measured ----------------===//

#include "tcl/Tune/Exploration.h"

using namespace tcl;

std::vector<Assignment>
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

  std::vector<Assignment> neighbours;
  for (size_t knob = 0; knob < knobs.size(); ++knob)
    for (unsigned option = 0; option < knobs[knob].options.size(); ++option) {
      if (tried[knob][option])
        continue;
      for (const Assignment &seed : seeds) {
        if (seed.size() != knobs.size())
          continue;
        Assignment neighbour = seed;
        neighbour[knob] = option;
        if (space.isLegal(neighbour)) {
          neighbours.push_back(std::move(neighbour));
          break;
        }
      }
    }
  return neighbours;
}
