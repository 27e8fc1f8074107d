//===- Hardware.h - What a cost model knows about a target ------*- C++ -*-===//
//
// The hardware half of a schedule's features: the numbers that decide
// whether a tile fits (register file, caches) and how wide code can be
// (vector width, cores). One model serves several targets because it sees
// them, as in Verma et al. and TLP's joint program + hardware features.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_FEATURES_HARDWARE_H
#define TCL_FEATURES_HARDWARE_H

#include <cstdint>

namespace tcl {

class CpuTarget;

struct HardwareDescription {
  unsigned vectorBits = 128;
  unsigned vectorRegisters = 16;
  int64_t l1Bytes = 32 << 10;
  int64_t l2Bytes = 512 << 10;
  int64_t l3Bytes = 32 << 20;
  unsigned cores = 1;
  /// Threads the target's code runs on.
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

  /// `target`'s ISA with this machine's caches and cores (sysfs; typical
  /// values where the kernel does not say).
  static HardwareDescription forCpu(const CpuTarget &target);
};

} // namespace tcl

#endif // TCL_FEATURES_HARDWARE_H
