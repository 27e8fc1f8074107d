//===- Version.cpp - tcl version string -----------------------------------===//

#include "tcl/Support/Version.h"

#include "llvm/Config/llvm-config.h"

void tcl::printVersion(llvm::raw_ostream &os) {
  os << "tcl version " TCL_VERSION "\n"
     << "  built with LLVM " LLVM_VERSION_STRING " and MLIR "
     << LLVM_VERSION_MAJOR << "\n";
}
