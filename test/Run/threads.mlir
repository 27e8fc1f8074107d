// RUN: tcl-run %s --check --repeats=1 --warmup=0 --num-threads=4 | FileCheck %s

// More than one thread: the header says so and the results still match.

// CHECK: tcl-run: {{.*}}threads.mlir @forward, schedule default, 4 thread(s)
// CHECK: check:      output #0 (64x64xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
