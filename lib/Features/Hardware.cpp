//===- Hardware.cpp - What a cost model knows about a target --------------===//

#include "tcl/Features/Hardware.h"

#include "tcl/Target/CpuTarget.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tcl;

static constexpr int64_t KiB = 1 << 10;
static constexpr int64_t MiB = 1 << 20;

CpuCaches CpuCaches::forCpu(llvm::StringRef cpu) {
  // Vendor figures. Intel's L3 depends on the SKU; these are the common
  // server parts'. Extend the table when measuring on a new CPU.
  return llvm::StringSwitch<CpuCaches>(cpu)
      .Case("znver1", {32 * KiB, 512 * KiB, 8 * MiB})
      .Case("znver2", {32 * KiB, 512 * KiB, 16 * MiB})
      .Case("znver3", {32 * KiB, 512 * KiB, 32 * MiB})
      .Case("znver4", {32 * KiB, 1 * MiB, 32 * MiB})
      .Case("znver5", {48 * KiB, 1 * MiB, 32 * MiB})
      .Cases({"haswell", "broadwell", "skylake"}, {32 * KiB, 256 * KiB, 8 * MiB})
      .Cases({"skylake-avx512", "cascadelake", "cooperlake"},
             {32 * KiB, 1 * MiB, 32 * MiB})
      .Case("icelake-server", {48 * KiB, 1280 * KiB, 48 * MiB})
      .Cases({"sapphirerapids", "emeraldrapids", "graniterapids"},
             {48 * KiB, 2 * MiB, 96 * MiB})
      .Default(CpuCaches());
}

HardwareDescription HardwareDescription::forCpu(const CpuTarget &target,
                                                llvm::StringRef machineCpu) {
  HardwareDescription hardware;
  hardware.vectorBits = target.vectorBits();
  hardware.vectorRegisters = target.vectorRegisters();
  hardware.threads = target.threads;
  hardware.hasFma = target.hasFeature("fma");
  hardware.caches = CpuCaches::forCpu(machineCpu);
  return hardware;
}
