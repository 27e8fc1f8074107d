// RUN: not tcl-opt %s --tcl-extract-tasks -o /dev/null 2>&1 | FileCheck %s
// RUN: not tcl-opt %s --tcl-print-space 2>&1 | FileCheck %s
// RUN: not tcl-opt %s --tcl-cpu-space=output=/dev/null -o /dev/null 2>&1 | FileCheck %s
// RUN: not tcl-opt %s --tcl-tune="db=%t.db onednn= trials=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TUNE
// RUN: tcl-opt %s --tcl-print-space=allow-unsupported=true 2>&1 | FileCheck %s --check-prefix=ALLOWED
// RUN: tcl-opt %s --tcl-cpu-space="output=/dev/null allow-unsupported=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOWED

// A shape that stays dynamic is diagnosed the same way by every pass that
// looks for tasks: an error at the op, with how to go on; with
// allow-unsupported=true a warning, and the op keeps the default schedule.

// CHECK: dynamic-everywhere.mlir:[[@LINE+10]]:8: error: cannot tune 'linalg.matmul': dynamic shapes; tcl tunes static shapes only
// CHECK-NEXT: %r = linalg.matmul
// CHECK: note: pass allow-unsupported=true to leave such ops to the default schedule and go on with the rest

// TUNE: dynamic-everywhere.mlir:[[@LINE+6]]:8: error: cannot tune 'linalg.matmul': dynamic shapes
// TUNE: error: tcl-tune: the module has ops that cannot be tuned (diagnosed above)

// ALLOWED: dynamic-everywhere.mlir:[[@LINE+3]]:8: warning: cannot tune 'linalg.matmul': dynamic shapes; tcl tunes static shapes only; it keeps the default schedule
// ALLOWED-NOT: error
func.func @forward(%a: tensor<?x32xf32>, %b: tensor<32x16xf32>, %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
