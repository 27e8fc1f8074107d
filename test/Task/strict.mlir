// RUN: not tcl-opt %s --tcl-extract-tasks=strict=true 2>&1 | FileCheck %s
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks=strict=true --verify-diagnostics
// RUN: tcl-opt %S/Inputs/all-static.mlir --tcl-extract-tasks=strict=true | FileCheck %s --check-prefix=OK

// With strict=true an op that cannot be tuned is an error at its location
// and the tool exits with a failure.

// CHECK: strict.mlir:[[@LINE+4]]:8: error: cannot tune 'linalg.matmul': dynamic shapes; tcl tunes static shapes only
// CHECK-NOT: warning:
func.func @dynamic(%a: tensor<?x32xf32>, %b: tensor<32x16xf32>, %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error @below {{cannot tune 'linalg.matmul': dynamic shapes}}
  %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// A module with only tunable ops passes in strict mode.

// OK: "num_unsupported": 0,
// OK: "kind": "matmul",
