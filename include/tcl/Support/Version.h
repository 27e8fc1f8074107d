//===- Version.h - tcl version string ---------------------------*- C++ -*-===//

#ifndef TCL_SUPPORT_VERSION_H
#define TCL_SUPPORT_VERSION_H

#include "llvm/Support/raw_ostream.h"

namespace tcl {

/// Prints "tcl version X (LLVM Y, MLIR)" for every tool's --version.
void printVersion(llvm::raw_ostream &os);

} // namespace tcl

#endif // TCL_SUPPORT_VERSION_H
