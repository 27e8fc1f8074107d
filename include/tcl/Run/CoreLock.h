//===- CoreLock.h - Exclusive use of CPU cores for measurement --*- C++ -*-===//
//
// Two measurements on one core time each other's interference, not the
// code. Every process that measures on a core (candidate workers of one or
// several collectors, benchmarks, oneDNN baselines) first takes that core's
// lock: an flock() on a per-core file, so the kernel releases it when the
// holder dies, however it dies.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_CORELOCK_H
#define TCL_RUN_CORELOCK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

namespace tcl {

class CoreLock {
public:
  /// Blocks until every core in `cores` is exclusively held by this
  /// process. Locks are taken in ascending core order, so two holders of
  /// overlapping sets cannot deadlock. The lock files live in
  /// $TCL_CORE_LOCK_DIR, else /tmp/tcl-core-locks.
  static llvm::Expected<CoreLock> acquire(llvm::ArrayRef<unsigned> cores);

  CoreLock(CoreLock &&other) : descriptors(std::move(other.descriptors)) {
    other.descriptors.clear();
  }
  CoreLock(const CoreLock &) = delete;
  CoreLock &operator=(const CoreLock &) = delete;
  ~CoreLock();

private:
  CoreLock() = default;
  llvm::SmallVector<int> descriptors;
};

/// Restricts this process (and the children it forks later) to `cores`.
llvm::Error pinToCores(llvm::ArrayRef<unsigned> cores);

/// Cores this process may run on.
llvm::SmallVector<unsigned> allowedCores();

} // namespace tcl

#endif // TCL_RUN_CORELOCK_H
