//===- Constraint.h - Legality constraints between knobs --------*- C++ -*-===//
//
// A template's knobs are not independent: a register tile must fit the
// register file, a packed tile must divide the packed dimension, a cache tile
// must fit the cache. Templates state these as integer expressions over knob
// names in a `tcl.constraints` string-array attribute, e.g.
//   "reg_m * ((reg_n + 7) / 8) <= 14"
// so that an illegal schedule is rejected before anything is compiled.
// Operators (C precedence): || && == != < <= > >= + - * / % unary -, and
// parentheses; operands are integer literals and knob names (letters,
// digits, '_' and '.', not starting with a digit).
//
//===----------------------------------------------------------------------===//

#ifndef TCL_SPACE_CONSTRAINT_H
#define TCL_SPACE_CONSTRAINT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcl {

class Constraint {
public:
  /// Parses `text`; `knobIndex` maps a name to its knob's index (or -1 when
  /// no knob has that name, which is an error).
  static llvm::Expected<Constraint>
  parse(llvm::StringRef text,
        llvm::function_ref<int(llvm::StringRef)> knobIndex);

  /// Evaluates with `values[i]` as knob i's value. Division or remainder by
  /// zero makes the constraint false rather than undefined.
  bool holds(llvm::ArrayRef<int64_t> values) const;

  /// Indices of the knobs the expression reads, ascending and unique.
  llvm::ArrayRef<unsigned> knobs() const { return usedKnobs; }
  const std::string &text() const { return source; }

  struct Node;

private:
  std::string source;
  std::shared_ptr<const Node> root;
  std::vector<unsigned> usedKnobs;
};

} // namespace tcl

#endif // TCL_SPACE_CONSTRAINT_H
