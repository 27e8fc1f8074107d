// RUN: tcl-run %s --check --repeats=1 --warmup=0 --schedule=loops | FileCheck %s

// With the naive schedule, softmax is decomposed and runs (the reference
// path used by --check).

// CHECK: tcl-run: {{.*}}softmax-loops.mlir @forward, schedule loops, 1 thread(s)
// CHECK: check:      output #0 (4x12x40xf32) matches the naive-loops reference: max abs err 0.00E+00
// CHECK-NOT: DIFFERS
func.func @forward(%x: tensor<4x12x40xf32>) -> tensor<4x12x40xf32> {
  %e = tensor.empty() : tensor<4x12x40xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<4x12x40xf32>) outs(%e : tensor<4x12x40xf32>) -> tensor<4x12x40xf32>
  return %r : tensor<4x12x40xf32>
}
