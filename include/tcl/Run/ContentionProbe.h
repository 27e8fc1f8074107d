//===- ContentionProbe.h - Is another tenant sharing our core? --*- C++ -*-===//
//
// On a virtual machine, a vCPU is one hardware thread of a physical core
// whose other thread may belong to another tenant. When that thread runs
// floating-point code, ours runs at up to half speed, in phases of
// milliseconds to seconds that no lock of ours can prevent (measured on the
// 2-vCPU EPYC VM: a 0.61 ms kernel took 1.2-1.4 ms for two seconds at a
// time, and the host was contended 30-80% of the time; see
// docs/measurement.md). A timing taken in such a phase measures
// the neighbour, not the schedule, so timings ask a monitor before and
// after each sample and keep only samples taken while the core was ours.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_CONTENTIONPROBE_H
#define TCL_RUN_CONTENTIONPROBE_H

#include <string>

namespace tcl {

/// Says whether the core this thread runs on is free of contention now.
class ContentionMonitor {
public:
  virtual ~ContentionMonitor() = default;
  virtual bool quiet() = 0;
};

/// A few microseconds of vector loads, multiply-adds and stores over a
/// buffer in the L1 cache: the resources a sibling hardware thread takes
/// from our kernels. The core is quiet when the loop runs within
/// `tolerance` of the fastest run seen on this machine.
///
/// That fastest run is shared across processes through a small file in the
/// core-lock directory: a process that starts inside a contended phase would
/// otherwise take the contended speed for the quiet one. The file expires
/// after ten minutes, so a machine that has become slower for good (a new
/// host, a lower clock) stops being compared with its past.
class CoreContentionProbe : public ContentionMonitor {
public:
  explicit CoreContentionProbe(double tolerance);
  ~CoreContentionProbe() override;

  bool quiet() override;

  /// Seconds one run of the loop takes now.
  static double runOnce();

  double referenceSeconds() const { return reference; }

private:
  double tolerance;
  /// Fastest run known, from the shared file or this process.
  double reference;
  /// Fastest run of this process, written back if it beats the file.
  double fastestHere;
  std::string referencePath;
};

} // namespace tcl

#endif // TCL_RUN_CONTENTIONPROBE_H
