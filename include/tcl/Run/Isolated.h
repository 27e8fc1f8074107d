//===- Isolated.h - Run untrusted work in a child process -------*- C++ -*-===//
//
// Compiling a candidate schedule can loop forever (FACTS: some pattern sets
// never terminate), exhaust memory, or hit a crash in an upstream pattern.
// The tuner must survive all three and record the candidate as failed, so
// each candidate is compiled and measured in a forked child with a wall-clock
// limit and an address-space limit.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_ISOLATED_H
#define TCL_RUN_ISOLATED_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace tcl {

struct IsolationLimits {
  unsigned timeoutSeconds = 120;
  /// Address-space limit of the child in bytes (0: none).
  uint64_t memoryBytes = 0;
};

/// Why an isolated child did not finish normally.
class IsolationError : public llvm::ErrorInfo<IsolationError> {
public:
  enum class Kind { TimedOut, Crashed, Exited };
  IsolationError(Kind kind, std::string message)
      : errorKind(kind), text(std::move(message)) {}
  Kind kind() const { return errorKind; }
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  static char ID;

private:
  Kind errorKind;
  std::string text;
};

/// Forks; the child runs `body` and sends back the string it returns. Fails
/// with an IsolationError ("timed out after N s", "crashed (signal N, ...)",
/// "exited with status N") when the child does not finish normally. The caller's MLIRContexts must
/// have multithreading disabled: thread pools do not survive fork().
llvm::Expected<std::string> runIsolated(llvm::function_ref<std::string()> body,
                                        const IsolationLimits &limits);

} // namespace tcl

#endif // TCL_RUN_ISOLATED_H
