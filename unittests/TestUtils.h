//===- TestUtils.h - Shared helpers of tcl's unit tests ---------*- C++ -*-===//

#ifndef TCL_UNITTESTS_TESTUTILS_H
#define TCL_UNITTESTS_TESTUTILS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>

namespace tcl::testing {

/// A context with every upstream dialect registered and loaded.
std::unique_ptr<mlir::MLIRContext> makeContext();

/// Parses `source`; fails the current test on a parse error.
mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                        llvm::StringRef source);

/// The first op named `name` in `module`, or null.
mlir::Operation *findFirst(mlir::ModuleOp module, llvm::StringRef name);

} // namespace tcl::testing

#endif // TCL_UNITTESTS_TESTUTILS_H
