// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=transposed_b | FileCheck %s --check-prefix=NT

// Sizes the default register tile divides: the vectorized outer-product
// code path, with a bias + ReLU chain after it, and an A * B^T variant.

// CHECK: check:      output #0 (64x96xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
// NT: check:      output #0 (48x32xf32) matches the naive-loops reference
// NT-NOT: DIFFERS
#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d1)>
func.func @forward(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
func.func @transposed_b(%a: tensor<48x64xf32>, %b: tensor<32x64xf32>) -> tensor<48x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<48x32xf32>) -> tensor<48x32xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<48x64xf32>, tensor<32x64xf32>) outs(%f : tensor<48x32xf32>) -> tensor<48x32xf32>
  return %r : tensor<48x32xf32>
}
