// RUN: not tcl-opt %s --tcl-extract-tasks 2>&1 | FileCheck %s
// RUN: tcl-opt %s --tcl-extract-tasks --allow-unregistered-dialect | FileCheck %s --check-prefix=ALLOWED

// Ops of dialects tcl does not know (here a leftover frontend op) are a
// parse error, unless explicitly allowed; then they are neither tasks nor
// unsupported ops.

// CHECK: unregistered-dialect.mlir:[[@LINE+8]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect

// ALLOWED:      "num_occurrences": 1,
// ALLOWED-NEXT: "num_tasks": 1,
// ALLOWED-NEXT: "num_unsupported": 0,
// ALLOWED:      "kind": "elementwise",
func.func @forward(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %x = "torch.aten.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
