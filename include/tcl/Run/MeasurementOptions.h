//===- MeasurementOptions.h - Command-line timing options -------*- C++ -*-===//
//
// Every tool that times code (tcl-run, tcl-onednn, tcl-collect) takes the
// same timing options, so that a candidate and its oneDNN baseline are
// measured under one policy.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_MEASUREMENTOPTIONS_H
#define TCL_RUN_MEASUREMENTOPTIONS_H

#include "tcl/Run/Statistics.h"

#include "llvm/Support/CommandLine.h"

namespace tcl {

/// Declare one (static) instance per tool, in the tool's option category.
class MeasurementOptions {
public:
  explicit MeasurementOptions(llvm::cl::OptionCategory &category);

  /// Adaptive by default; `--repeats=N` asks for exactly N single-call
  /// samples.
  MeasurementPolicy policy() const;

private:
  llvm::cl::opt<unsigned> warmup;
  llvm::cl::opt<unsigned> repeats;
  llvm::cl::opt<unsigned> minRepeats;
  llvm::cl::opt<unsigned> maxRepeats;
  llvm::cl::opt<double> targetSpread;
  llvm::cl::opt<double> maxSeconds;
  llvm::cl::opt<double> contentionTolerance;
  llvm::cl::opt<double> maxContendedSeconds;
};

} // namespace tcl

#endif // TCL_RUN_MEASUREMENTOPTIONS_H
