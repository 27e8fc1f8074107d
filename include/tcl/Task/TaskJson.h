//===- TaskJson.h - JSON form of extracted tasks ----------------*- C++ -*-===//
//
// The JSON form is the contract with the Python bindings, the tuning
// database and users' scripts; field names are documented in docs/tasks.md.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_TASK_TASKJSON_H
#define TCL_TASK_TASKJSON_H

#include "tcl/Task/Task.h"

#include "llvm/Support/JSON.h"

namespace tcl {

llvm::json::Value toJSON(const Task &task);
llvm::json::Value toJSON(const UnsupportedOp &op);
/// `{"tasks": [...], "unsupported": [...], "summary": {...}}`.
llvm::json::Value toJSON(const TaskSet &set);

} // namespace tcl

#endif // TCL_TASK_TASKJSON_H
