//===- TargetSpec.h - Target strings users type -----------------*- C++ -*-===//
//
// A CPU target as a string: "x86_64:<cpu>[,<+feature|-feature>...][:<N>t]".
//   x86_64:host            this machine's CPU with all its features, 1 thread
//   x86_64:x86-64-v3:2t    AVX2/FMA only, 2 threads
//   x86_64:x86-64-v2       SSE4.2 only
//   x86_64:znver4,-avx512f Zen 4 without AVX-512
// The string is the target's identity in the tuning database, so it has one
// canonical spelling (`name()`): the thread count is always written.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TARGET_TARGETSPEC_H
#define TCL_TARGET_TARGETSPEC_H

#include "tcl/Target/CpuTarget.h"

#include <string>

namespace tcl {

struct TargetSpec {
  std::string cpu = "host";
  /// Comma-separated +feature/-feature overrides.
  std::string features;
  unsigned threads = 1;

  /// Parses and validates (CPU and feature names against LLVM); errors say
  /// what is wrong with which part.
  static llvm::Expected<TargetSpec> parse(llvm::StringRef text);
  /// "x86_64:x86-64-v3:1t".
  std::string name() const;
  llvm::Expected<CpuTarget> resolve() const {
    return CpuTarget::resolve(cpu, features, threads);
  }
};

} // namespace tcl

#endif // TCL_TARGET_TARGETSPEC_H
