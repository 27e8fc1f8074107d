// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --schedule=loops | FileCheck %s

// Regression: linalg.softmax decomposes into reductions that must lower and run.

// CHECK: check:      output #0 (4x12x40xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%x: tensor<4x12x40xf32>) -> tensor<4x12x40xf32> {
  %e = tensor.empty() : tensor<4x12x40xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<4x12x40xf32>) outs(%e : tensor<4x12x40xf32>) -> tensor<4x12x40xf32>
  return %r : tensor<4x12x40xf32>
}
