//===- Record.cpp - A measured candidate as a database record -------------===//

#include "tcl/Measure/Record.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <ctime>

using namespace tcl;

RecordRow tcl::makeRecord(llvm::StringRef taskKey, llvm::StringRef target,
                          const MachineInfo &machine,
                          llvm::StringRef assignment, mlir::ModuleOp schedule,
                          const CandidateResult &result) {
  std::string script;
  llvm::raw_string_ostream os(script);
  schedule->print(os);
  RecordRow record;
  record.taskKey = taskKey.str();
  record.target = target.str();
  record.machine = machine;
  record.assignment = assignment.str();
  record.scriptHash = llvm::utohexstr(llvm::xxh3_64bits(script), true, 16);
  record.status = statusName(result.status).str();
  if (!result.timing.samples.empty()) {
    record.medianSeconds = result.timing.median;
    record.minSeconds = result.timing.min;
    record.spread = result.timing.relativeSpread;
  }
  record.samples = result.timing.samples.size();
  record.compileSeconds = result.compileSeconds;
  record.wallSeconds = result.wallSeconds;
  record.vectorOps = result.vectorOps;
  record.scalarFallback = result.scalarFallback();
  record.error = result.failure;
  record.createdAt = std::time(nullptr);
  return record;
}
