//===- Machine.h - The physical machine a measurement ran on ----*- C++ -*-===//
//
// A target name ("x86_64:host:1t", "x86_64:x86-64-v3:2t") says what code is
// generated for; the same name on another machine is other hardware. Every
// measurement therefore also stores the machine's CPU model.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TARGET_MACHINE_H
#define TCL_TARGET_MACHINE_H

#include <cstdint>
#include <string>

namespace tcl {

struct MachineInfo {
  /// /proc/cpuinfo's "model name", e.g. "AMD EPYC 9R14 96-Core Processor".
  std::string cpuModel;
  /// LLVM's name for the host CPU, e.g. "znver4".
  std::string hostCpu;
  int64_t cores = 0;

  /// "AMD EPYC 9R14 96-Core Processor (znver4, 96 cores)".
  std::string label() const;
};

/// The machine this process runs on.
MachineInfo currentMachine();

} // namespace tcl

#endif // TCL_TARGET_MACHINE_H
