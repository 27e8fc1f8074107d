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

/// Builds share the machine; timings have it to themselves. Code compiled
/// on one core slows code timed on another (shared caches and memory
/// bandwidth; on a VM the "cores" may be one physical core's threads), so a
/// timing waits until no other tcl build or timing runs, and holds them off
/// while it runs. An flock on one machine-wide file, beside the core locks.
class MachineLock {
public:
  static llvm::Expected<MachineLock> open();
  MachineLock(MachineLock &&other) : descriptor(other.descriptor) {
    other.descriptor = -1;
  }
  MachineLock(const MachineLock &) = delete;
  ~MachineLock();

  /// For building: other builds may run, timings may not.
  llvm::Error shared();
  /// For timing: nothing else may run. Converting from shared releases the
  /// shared lock first, so two builds turning into timings cannot deadlock.
  llvm::Error exclusive();

private:
  explicit MachineLock(int descriptor) : descriptor(descriptor) {}
  int descriptor;
};

/// $TCL_CORE_LOCK_DIR, else /tmp/tcl-core-locks; created (world-writable,
/// like /tmp) if missing. Other machine-wide measurement state lives there
/// too.
llvm::Expected<std::string> coreLockDirectory();

/// Restricts this process (and the children it forks later) to `cores`.
llvm::Error pinToCores(llvm::ArrayRef<unsigned> cores);

/// Cores this process may run on.
llvm::SmallVector<unsigned> allowedCores();

} // namespace tcl

#endif // TCL_RUN_CORELOCK_H
