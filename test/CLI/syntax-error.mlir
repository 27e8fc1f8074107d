// RUN: not tcl-opt %s --tcl-extract-tasks 2>&1 | FileCheck %s
// RUN: not tcl-run %s 2>&1 | FileCheck %s

// A parse error is reported at file:line:col with the offending line, and
// no report is printed.

// CHECK: syntax-error.mlir:[[@LINE+5]]:{{[0-9]+}}: error: expected ':'
// CHECK-NEXT: return %r
// CHECK-NOT: "summary"
func.func @forward(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %a : tensor<4xf32>
  return %r
}
