//===- ElidedResources.h - Weights whose values a file leaves out -*- C++ -*-===//
//
// Published IR often elides its weights: `dense_resource<__elided__>` keeps
// the type and drops the values, so the module parses, extracts and prints
// its space, but cannot run. Running it needs values of some kind: seeded
// random ones are enough to time and to check a schedule.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_ELIDEDRESOURCES_H
#define TCL_RUN_ELIDEDRESOURCES_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace tcl {

/// Emits an error at every op holding a dense resource without data, with
/// how to fill them; fails if there is one.
llvm::LogicalResult verifyNoElidedResources(mlir::ModuleOp module);

/// Replaces every dense resource without data by seeded random values:
/// uniform in [-1, 1) times sqrt(3 / fan-in) for weights of rank 2 or more
/// (PyTorch's layouts put the output channels first, so the fan-in is the
/// size over the first dimension: activations then keep their scale from
/// layer to layer), in [-1, 1) for vectors, and in [0.5, 1.5) for values
/// that must be positive (inferInputDomain). Returns how many it filled.
unsigned fillElidedResources(mlir::ModuleOp module, uint64_t seed);

} // namespace tcl

#endif // TCL_RUN_ELIDEDRESOURCES_H
