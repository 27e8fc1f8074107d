//===- Hardware.h - What a cost model knows about a target ------*- C++ -*-===//
//
// The hardware half of a schedule's features: the numbers that decide
// whether a tile fits (register file, caches) and how wide code can be
// (vector width, threads). One model serves several targets because it sees
// them, as in Verma et al. and TLP's joint program + hardware features.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_FEATURES_HARDWARE_H
#define TCL_FEATURES_HARDWARE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tcl {

struct CpuTarget;

/// A CPU's data caches: per core for L1 and L2, and the L3 one core shares
/// with its neighbours (a Zen CCX, an Intel socket).
struct CpuCaches {
  int64_t l1Bytes = 32 << 10;
  int64_t l2Bytes = 512 << 10;
  int64_t l3Bytes = 32 << 20;

  /// The caches of the CPU LLVM calls `cpu` ("znver5", "sapphirerapids"),
  /// from a table; typical values for CPUs it does not list. A table and
  /// not the kernel's sysfs, so that a schedule's features depend on the
  /// record alone: a model trained on a VM that hides its caches sees the
  /// same numbers as on the user's bare-metal machine of that CPU.
  static CpuCaches forCpu(llvm::StringRef cpu);
};

struct HardwareDescription {
  unsigned vectorBits = 128;
  unsigned vectorRegisters = 16;
  CpuCaches caches;
  /// Threads the target's code runs on: the cores it can use.
  unsigned threads = 1;
  bool hasFma = false;
  /// GPU targets: streaming multiprocessors and shared memory per block.
  bool isGpu = false;
  unsigned multiprocessors = 0;
  int64_t sharedMemoryBytes = 0;

  /// Vector registers' total size: the innermost level a tile must fit.
  int64_t registerFileBytes() const {
    return static_cast<int64_t>(vectorRegisters) * vectorBits / 8;
  }

  /// `target`'s ISA and threads on a machine whose CPU LLVM calls
  /// `machineCpu`: the ISA subset a target names ("x86-64-v3") runs on that
  /// machine's caches.
  static HardwareDescription forCpu(const CpuTarget &target,
                                    llvm::StringRef machineCpu);
};

} // namespace tcl

#endif // TCL_FEATURES_HARDWARE_H
