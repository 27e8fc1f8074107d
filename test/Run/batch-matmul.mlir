// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s

// Attention-shaped batch_matmuls: Q * K^T (B transposed) then P * V.

// CHECK: check:      output #0 (4x16x8xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x16x8xf32>) outs(%f : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %e2 = tensor.empty() : tensor<4x16x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%s, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%f2 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
