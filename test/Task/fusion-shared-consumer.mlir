// RUN: tcl-opt %s --tcl-extract-tasks | FileCheck %s

// An elementwise op consuming two anchors fuses into the first one only, so
// its FLOPs are counted once.

// Whether the add is fused into one of the matmuls or kept as a task of its
// own, the model's FLOPs are 2*16*32*8 + 2*16*32*4 + 16*32 = 12800 and
// the two matmuls are two tasks.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 12800
// CHECK:       "tasks": [
// CHECK:       "op": "linalg.matmul",
// CHECK:       "op": "linalg.matmul",
// CHECK:       "unsupported": []
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sum_of_two_matmuls(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x4xf32>, %d: tensor<4x32xf32>) -> tensor<16x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m2 = linalg.matmul ins(%c, %d : tensor<16x4xf32>, tensor<4x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %m2 : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<16x32xf32>
  return %s : tensor<16x32xf32>
}
