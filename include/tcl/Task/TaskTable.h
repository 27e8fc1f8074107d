//===- TaskTable.h - Human-readable table of extracted tasks ----*- C++ -*-===//

#ifndef TCL_TASK_TASKTABLE_H
#define TCL_TASK_TASKTABLE_H

#include "tcl/Task/Task.h"

#include "llvm/Support/raw_ostream.h"

namespace tcl {

/// One row per task, heaviest share of the model's FLOPs first, then the
/// unsupported ops and a totals line.
void printTaskTable(const TaskSet &set, llvm::raw_ostream &os);

} // namespace tcl

#endif // TCL_TASK_TASKTABLE_H
