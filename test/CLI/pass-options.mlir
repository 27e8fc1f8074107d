// RUN: not tcl-opt %s --tcl-cpu-default-schedule="vector-width=0" 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not tcl-opt %s --tcl-cpu-default-schedule="row-tile=-1" 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not tcl-opt %s --tcl-extract-tasks="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tcl-opt %s --tcl-extract-tasks="allow-unsupported=maybe" 2>&1 | FileCheck %s --check-prefix=BOOL

// WIDTH: pass-options.mlir:[[@LINE+4]]:1: error: vector-width{{.*}} must be positive
// UNKNOWN: no-such-option
// BOOL: allow-unsupported
// BOOL-SAME: maybe
func.func @forward(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
