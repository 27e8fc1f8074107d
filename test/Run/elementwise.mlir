// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s

// Elementwise math with broadcasting (the GELU of a bias add), a transpose
// and a cast: vectorized strips against scalar loops.

// CHECK: check:      output #0 (2x16x40xf32) matches the naive-loops reference
// CHECK: check:      output #1 (40x32xf32) matches the naive-loops reference
// CHECK: check:      output #2 (2x16x40xi32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%x: tensor<2x16x40xf32>, %b: tensor<40xf32>, %m: tensor<32x40xf32>) -> (tensor<2x16x40xf32>, tensor<40x32xf32>, tensor<2x16x40xi32>) {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.797884583 : f32
  %k = arith.constant 0.044715 : f32
  %scale = arith.constant 100.0 : f32
  %e = tensor.empty() : tensor<2x16x40xf32>
  %gelu = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<2x16x40xf32>, tensor<40xf32>) outs(%e : tensor<2x16x40xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %0 = arith.addf %in, %bias : f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.mulf %2, %k : f32
    %4 = arith.addf %0, %3 : f32
    %5 = arith.mulf %4, %c : f32
    %6 = math.tanh %5 : f32
    %7 = arith.addf %6, %one : f32
    %8 = arith.mulf %0, %half : f32
    %9 = arith.mulf %8, %7 : f32
    linalg.yield %9 : f32
  } -> tensor<2x16x40xf32>
  %et = tensor.empty() : tensor<40x32xf32>
  %t = linalg.transpose ins(%m : tensor<32x40xf32>) outs(%et : tensor<40x32xf32>) permutation = [1, 0]
  %ei = tensor.empty() : tensor<2x16x40xi32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x16x40xf32>) outs(%ei : tensor<2x16x40xi32>) {
  ^bb0(%in: f32, %out: i32):
    %0 = arith.mulf %in, %scale : f32
    %1 = arith.fptosi %0 : f32 to i32
    linalg.yield %1 : i32
  } -> tensor<2x16x40xi32>
  return %gelu, %t, %q : tensor<2x16x40xf32>, tensor<40x32xf32>, tensor<2x16x40xi32>
}
