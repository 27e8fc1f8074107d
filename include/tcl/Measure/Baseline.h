//===- Baseline.h - Vendor-library baselines of tasks ----------*- C++ -*-===//
//
// oneDNN's time for a task is what a tuned schedule is compared against. It
// is measured by the tcl-onednn tool in its own process (oneDNN threads with
// OpenMP, reads its ISA limit from the environment, and must not share a
// process with candidates' JIT code), restricted to the target's vector ISA
// and holding the same core locks as candidates.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MEASURE_BASELINE_H
#define TCL_MEASURE_BASELINE_H

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Target/CpuTarget.h"
#include "tcl/Task/Task.h"

namespace tcl {

/// tcl-onednn has a primitive for this kind of task.
bool hasOnednnBaseline(TaskKind kind);

/// oneDNN's widest ISA that stays within `target`'s vector registers, as
/// DNNL_MAX_CPU_ISA spells it ("SSE41", "AVX2", "ALL").
llvm::StringRef onednnIsaFor(const CpuTarget &target);

/// Runs `tool` (tcl-onednn) on the task module `payload` for `target` on
/// `cores`. The row's status is "ok", or "failed" with the tool's error;
/// its task, target and machine are left for the caller.
BaselineRow measureOnednnBaseline(llvm::StringRef tool, llvm::StringRef payload,
                                  const CpuTarget &target,
                                  llvm::ArrayRef<unsigned> cores);

} // namespace tcl

#endif // TCL_MEASURE_BASELINE_H
