//===- ScheduleFeaturizer.h - Schedules as token sequences ------*- C++ -*-===//
//
// Featurizing reads a task's schedule template once: its steps (with tile
// sizes that are constants or knobs, and `transform.tune.alternatives`
// regions chosen by knobs) and the task op's loops and operand accesses.
// A schedule is then featurized by replaying the steps on loop extents
// alone, without MLIR, which is what makes featurizing tens of thousands of
// candidates per second possible. The replay follows one op: packing adds
// its inner loops, tiling shrinks extents, fusion tiles the output's loops.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_FEATURES_SCHEDULEFEATURIZER_H
#define TCL_FEATURES_SCHEDULEFEATURIZER_H

#include "tcl/Features/Hardware.h"
#include "tcl/Features/Tokens.h"
#include "tcl/Space/Space.h"
#include "tcl/Task/Task.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <vector>

namespace tcl {

/// A schedule's sequence: `length` tokens of kFeatureSize floats, followed
/// by zeros up to kMaxTokens.
struct TokenSequence {
  float values[kMaxTokens * kFeatureSize];
  unsigned length = 0;
};

class ScheduleFeaturizer {
public:
  /// Reads `script` (the task's template, concrete or not, whose knobs are
  /// `space`'s) for `anchor`, an occurrence of `task`. Fails with a
  /// diagnostic on a step the featurizer cannot follow (a tile size that is
  /// neither a constant nor a knob).
  static llvm::FailureOr<ScheduleFeaturizer>
  create(mlir::linalg::LinalgOp anchor, const Task &task,
         mlir::Operation *script, const Space &space,
         const HardwareDescription &hardware);

  /// Writes the sequence of `assignment` (a schedule of the space).
  void featurize(const Assignment &assignment, TokenSequence &sequence) const;

  /// One step of the script. Sizes are per loop of the op the step sees
  /// (Tile, ThreadTile, Pack) or per output dimension (Fuse).
  struct Step {
    TokenKind kind;
    /// A size: `knob` >= 0 reads that knob's value, else `constant`.
    struct Size {
      int64_t constant = 0;
      int knob = -1;
    };
    std::vector<Size> sizes;
    std::vector<int64_t> interchange;
    /// `transform.tune.alternatives`: the knob choosing among `regions`.
    int selector = -1;
    std::vector<std::vector<Step>> regions;
  };

  /// How an operand is indexed: per operand dimension, the loops it reads
  /// with their coefficients (oh * stride + kh * dilation).
  struct Access {
    std::vector<std::vector<std::pair<unsigned, int64_t>>> dims;
    int64_t elementBytes = 4;
    bool isOutput = false;
  };

private:
  ScheduleFeaturizer() = default;

  std::vector<Step> steps;
  std::vector<Access> accesses;
  std::vector<int64_t> bounds;
  std::vector<bool> isReduction;
  /// Each knob's values by option (0 for non-integer options).
  std::vector<std::vector<int64_t>> knobValues;
  /// Loop of the op that each output dimension indexes (for Fuse).
  std::vector<unsigned> outputLoops;
  /// The task and hardware tokens: the same for every schedule.
  std::vector<float> prefix;
  HardwareDescription hardware;
  int64_t lanes = 4;
  double flops = 0;

  friend class StepReplay;
};

} // namespace tcl

#endif // TCL_FEATURES_SCHEDULEFEATURIZER_H
