//===- Record.h - A measured candidate as a database record -----*- C++ -*-===//
//
// The collector and the tuner store what a candidate did in the same way,
// so that a tuning run's records are dataset records and the other way
// round.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MEASURE_RECORD_H
#define TCL_MEASURE_RECORD_H

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Run/Candidate.h"

namespace tcl {

/// The record of `result`, the evaluation of `schedule` (the task's space
/// concretized to `assignment`) for task `taskKey` on `target`.
RecordRow makeRecord(llvm::StringRef taskKey, llvm::StringRef target,
                     const MachineInfo &machine, llvm::StringRef assignment,
                     mlir::ModuleOp schedule, const CandidateResult &result);

} // namespace tcl

#endif // TCL_MEASURE_RECORD_H
