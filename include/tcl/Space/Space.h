//===- Space.h - A tunable Transform script and its knobs -------*- C++ -*-===//
//
// A schedule space is a Transform-dialect script whose free parameters are
// upstream `transform.tune.knob` ops (MLIR 22's Tune extension). A schedule
// is one choice per knob; concretizing writes the choices into the knobs'
// `selected` attributes, which makes the script replayable by stock
// `mlir-opt -transform-interpreter`. tcl's own templates and users' tunable
// scripts are spaces in exactly the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_SPACE_SPACE_H
#define TCL_SPACE_SPACE_H

#include "tcl/Space/Constraint.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcl {

/// One tunable parameter: every `transform.tune.knob` op with this name.
struct Knob {
  std::string name;
  llvm::SmallVector<mlir::Attribute> options;
  /// Index into `options` of the knob's `selected` attribute, if it has one.
  std::optional<unsigned> selected;
  /// Where the knob first appears, for diagnostics.
  mlir::Location location;
  /// The options as integers, when they all are (constraints need them).
  std::optional<std::vector<int64_t>> integerOptions;
};

/// An option as users write it in a schedule: integers without their type
/// ("16", not "16 : i64"), anything else as MLIR prints it.
std::string formatOption(mlir::Attribute option);

/// A schedule: for each knob of a space (in the space's order), the index
/// of the chosen option.
using Assignment = std::vector<unsigned>;

class Space {
public:
  /// Collects the knobs of every `transform.tune.knob` in `script`, and the
  /// constraints of every `tcl.constraints` string array attribute on its
  /// ops. Knobs must list their options as an array; ops sharing a name must
  /// share the options (they are one knob); constraints may only name knobs
  /// with integer options. Emits diagnostics at the offending op.
  static llvm::FailureOr<Space> fromScript(mlir::Operation *script);

  llvm::ArrayRef<Knob> knobs() const { return knobList; }
  llvm::ArrayRef<Constraint> constraints() const { return constraintList; }

  /// Number of schedules, legal or not: the product of the option counts,
  /// saturated at UINT64_MAX.
  uint64_t size() const;

  /// Number of legal schedules, counted exactly by a depth-first walk that
  /// prunes as soon as a constraint's knobs are all set; stops at `cap`.
  uint64_t countLegal(uint64_t cap = 1'000'000'000) const;

  /// Whether `assignment` satisfies every constraint; the first violated
  /// one is returned through `violated`.
  bool isLegal(const Assignment &assignment,
               const Constraint **violated = nullptr) const;

  /// Parses "name=value" items. A knob not mentioned takes a random option
  /// when `seed` is given (the draw is legal for the constraints), else its
  /// `selected` option; a knob with neither is an error, as is an unknown
  /// name, a value that is not among the knob's options, or a schedule that
  /// violates a constraint.
  llvm::FailureOr<Assignment>
  parseAssignment(llvm::ArrayRef<std::string> items,
                  std::optional<uint64_t> seed,
                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const;

  /// A random legal schedule, uniform over the legal ones up to rejection
  /// sampling; the same seed gives the same schedule. None when no schedule
  /// is legal.
  std::optional<Assignment> sample(uint64_t seed) const;

  /// "name=value,name=value" in knob order.
  std::string format(const Assignment &assignment) const;

  /// Writes `assignment` into the `selected` attribute of every knob op in
  /// `script` (the script the space was read from, or a clone of it).
  void concretize(mlir::Operation *script, const Assignment &assignment) const;

private:
  /// Values of every knob under `assignment` (0 for non-integer knobs).
  std::vector<int64_t> values(const Assignment &assignment) const;
  /// Constraints grouped by the depth (knob index + 1) at which a knob-order
  /// walk has set all the knobs they read.
  std::vector<std::vector<const Constraint *>> constraintsByDepth() const;

  std::vector<Knob> knobList;
  std::vector<Constraint> constraintList;
};

} // namespace tcl

#endif // TCL_SPACE_SPACE_H
