//===- InputDomain.h - Which values random inputs may take -----*- C++ -*-===//
//
// tcl runs models on random inputs: arguments, and weights whose values a
// published file elides. A batch-norm variance drawn from [-1, 1) makes the
// square root of `var + eps` NaN, and a check against NaN judges nothing;
// a token id drawn negative fails the model's own bounds assertion. The
// analysis here finds the values that must be positive or in bounds.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_INPUTDOMAIN_H
#define TCL_RUN_INPUTDOMAIN_H

#include "tcl/Run/HostTensor.h"

#include "mlir/IR/Value.h"

namespace tcl {

/// The domain random values for `value` must keep to:
/// - `positive` if `value` reaches the operand of a square root, a
///   reciprocal square root, a logarithm or the base of a power through ops
///   that keep a positive value positive (additions, products, quotients,
///   maxima, casts, reshapes, broadcasts, and the payloads of linalg ops). A
///   difference or a square stops the walk: a layer norm's input is not
///   constrained by the root of its variance.
/// - `indexBound` if `value` (an integer) reaches an index of a
///   `tensor.extract` through casts and linalg payloads: the smallest
///   dimension it indexes (torch-mlir's embedding lookups assert that ids
///   are in bounds).
/// - `scale` sqrt(3 / fan-in) if `value` is read, through reshapes,
///   transposes and broadcasts, as the second input of a contraction or a
///   convolution (a weight); fan-in is the product of the reduction loops
///   that index it (K of a matmul, KH x KW x C of a filter).
InputDomain inferInputDomain(mlir::Value value);

} // namespace tcl

#endif // TCL_RUN_INPUTDOMAIN_H
