//===- GpuTarget.h - An NVVM GPU target: chip and its limits ----*- C++ -*-===//
//
// A GPU target is written `nvvm:<chip>` (`nvvm:sm_90`). The chip decides the
// PTX ISA the kernels are compiled for and the per-block limits (threads,
// static shared memory, registers) that the schedule templates' constraints
// keep every legal schedule within.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TARGET_GPUTARGET_H
#define TCL_TARGET_GPUTARGET_H

#include "llvm/Support/Error.h"

#include <string>

namespace tcl {

struct GpuTarget {
  /// The chip as ptxas names it: "sm_90".
  std::string chip;
  /// The PTX ISA version feature LLVM's NVPTX backend needs for the chip
  /// ("+ptx80" for sm_90; the default +ptx60 aborts there).
  std::string ptxFeatures;
  unsigned streamingMultiprocessors = 0;
  unsigned maxThreadsPerBlock = 1024;
  /// Static shared memory per block: 48 KiB on every chip (more needs the
  /// dynamic opt-in, which generated kernels do not use).
  unsigned sharedMemoryPerBlock = 48 * 1024;
  unsigned registersPerBlock = 65536;
  unsigned maxRegistersPerThread = 255;
  unsigned warpSize = 32;

  /// Parses "nvvm:sm_XY" (or "sm_XY"); known chips are sm_70 to sm_90a.
  /// The error names the accepted forms.
  static llvm::Expected<GpuTarget> parse(llvm::StringRef text);

  /// Whether `text` names a GPU target (starts with "nvvm").
  static bool isGpuTarget(llvm::StringRef text) {
    return text.starts_with("nvvm");
  }

  /// "nvvm:sm_90": the target string stored with every record.
  std::string name() const { return "nvvm:" + chip; }
};

} // namespace tcl

#endif // TCL_TARGET_GPUTARGET_H
