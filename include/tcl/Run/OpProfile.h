//===- OpProfile.h - Per-op times of a profiled module ----------*- C++ -*-===//
//
// The runtime side of tcl-profile-ops: the `tcl_profile_mark` function the
// instrumented module calls, and the per-call record of the time between
// marks, attributed to each top-level op.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_OPPROFILE_H
#define TCL_RUN_OPPROFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

extern "C" void tcl_profile_mark(int64_t id);

namespace tcl {

/// One top-level op of a profiled module and its median time per call.
struct ProfiledOp {
  std::string category; ///< compute, copy, fill, alloc or call.
  std::string op;       ///< The op's name before lowering.
  std::string location; ///< Its source location, "file:line:col".
  double seconds = 0;
};

/// The ops tcl-profile-ops instrumented in `module`, in mark order, with no
/// times yet; empty when the module was not instrumented.
std::vector<ProfiledOp> readProfiledOps(mlir::ModuleOp module);

/// Runs `call` (a bound entry of the module `ops` was read from) `calls`
/// times and sets each op's `seconds` to its median over the calls. Not
/// reentrant: the marks go to one process-wide record.
void measureOps(const std::function<void()> &call, unsigned calls,
                std::vector<ProfiledOp> &ops);

/// The ops as a JSON array of {category, op, location, seconds}, and back
/// (entries that are not such objects are skipped).
llvm::json::Array profileToJson(const std::vector<ProfiledOp> &ops);
std::vector<ProfiledOp> profileFromJson(const llvm::json::Array &array);

} // namespace tcl

#endif // TCL_RUN_OPPROFILE_H
