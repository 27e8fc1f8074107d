//===- FaultInjection.h - Deliberately broken candidates --------*- C++ -*-===//
//
// The measuring side must record a candidate that crashes, hangs or computes
// wrong values as such, and never let it win. These rewrites make a real
// compiled candidate do exactly that, so tests exercise the same path a
// broken schedule would take: code generation, the isolated child, the
// time limit, the reference check.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_LIB_RUN_FAULTINJECTION_H
#define TCL_LIB_RUN_FAULTINJECTION_H

#include "tcl/Run/Candidate.h"

namespace tcl {

/// Before lowering: the entry function overwrites element 0 of its first
/// floating-point tensor result with 1e6.
mlir::LogicalResult injectWrongResult(mlir::ModuleOp module,
                                      llvm::StringRef entry);

/// After lowering to the LLVM dialect: the entry function stores through a
/// null pointer (Crash) or spins forever on a volatile flag (Hang) before
/// doing anything else.
mlir::LogicalResult injectAtEntry(mlir::ModuleOp module, llvm::StringRef entry,
                                  InjectedFault fault);

} // namespace tcl

#endif // TCL_LIB_RUN_FAULTINJECTION_H
