//===- Context.h - The MLIR context tcl's libraries work in -----*- C++ -*-===//

#ifndef TCL_SUPPORT_CONTEXT_H
#define TCL_SUPPORT_CONTEXT_H

#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace tcl {

/// A context with every upstream dialect and extension (the Tune extension
/// included) registered and loaded. Without threads: tcl forks candidate
/// builds, and thread pools do not survive fork().
std::unique_ptr<mlir::MLIRContext> createContext();

} // namespace tcl

#endif // TCL_SUPPORT_CONTEXT_H
