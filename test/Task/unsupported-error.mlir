// RUN: not tcl-opt %s --tcl-extract-tasks 2>&1 | FileCheck %s
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks --verify-diagnostics
// RUN: tcl-opt %S/Inputs/all-static.mlir --tcl-extract-tasks | FileCheck %s --check-prefix=OK

// By default an op that cannot be tuned is an error at its location and
// the tool exits with a failure (after writing the report).

// CHECK: unsupported-error.mlir:[[@LINE+6]]:8: error: cannot tune 'linalg.matmul': dynamic shapes; tcl tunes static shapes only
// CHECK: note: pass allow-unsupported=true to leave such ops to the default schedule and go on with the rest
// CHECK-NOT: warning:
func.func @dynamic(%a: tensor<?x32xf32>, %b: tensor<32x16xf32>, %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error @below {{cannot tune 'linalg.matmul': dynamic shapes}}
  // expected-note @below {{pass allow-unsupported=true}}
  %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// A module with only tunable ops passes.

// OK: "num_unsupported": 0,
// OK: "kind": "matmul",
