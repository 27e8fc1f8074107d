//===- CpuTarget.h - An LLVM CPU target: name, features, threads -*- C++ -*-===//
//
// On one physical CPU, code generated for a restricted feature set (AVX2
// only, SSE4.2 only) is a genuinely different target: other vector width,
// other register count, other cost landscape. A CpuTarget pins down exactly
// what LLVM generates code for.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TARGET_CPUTARGET_H
#define TCL_TARGET_CPUTARGET_H

#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace tcl {

struct CpuTarget {
  std::string triple;
  /// Resolved LLVM CPU name ("host" is replaced by this machine's CPU).
  std::string cpu;
  /// The full feature string LLVM receives: the host's detected features
  /// when cpu was "host", followed by the user's overrides.
  std::string features;
  unsigned threads = 1;

  /// Validates `cpu` and each `+feature`/`-feature` in `features` against
  /// LLVM's X86 (or native) target; errors name the offending word.
  static llvm::Expected<CpuTarget> resolve(llvm::StringRef cpu,
                                           llvm::StringRef features,
                                           unsigned threads = 1);

  /// Whether LLVM's subtarget for this target has `feature` ("fma").
  bool hasFeature(llvm::StringRef feature) const;
  /// Widest fp32 vector register in bits: 512, 256, 128 or 64 (scalar).
  unsigned vectorBits() const;
  /// fp32 lanes of the widest vector register.
  unsigned fp32Lanes() const { return vectorBits() / 32; }
  /// Architectural vector registers: 32 with AVX-512, else 16 (x86-64).
  unsigned vectorRegisters() const { return vectorBits() == 512 ? 32 : 16; }

  /// A target machine at -O3 that generates code for exactly this target;
  /// `forJit` selects a code model safe for in-memory JIT linking.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine(bool forJit = false) const;
};

} // namespace tcl

#endif // TCL_TARGET_CPUTARGET_H
