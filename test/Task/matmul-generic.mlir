// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// Classification is structural: a contraction written as linalg.generic is
// a matmul, and it is the same task (same key) as the named linalg.matmul
// that computes the same thing on the same shapes.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "matmul": 1
// CHECK-NEXT:  },
// CHECK:       "flops": 65536,
// CHECK:       "key": "[[KEY:([0-9a-f]{16})]]",
// CHECK-NEXT:  "kind": "matmul",
// CHECK:       "op": "linalg.generic",
// CHECK:       "transpose": "nn",
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @generic_matmul(%x: tensor<64x32xf32>, %y: tensor<32x16xf32>, %z: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<64x32xf32>, tensor<32x16xf32>) outs(%z : tensor<64x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// CHECK-LABEL: "summary"
// CHECK:       "key": "[[KEY]]",
// CHECK-NEXT:  "kind": "matmul",
// CHECK:       "op": "linalg.matmul",
func.func @named_matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// A multiply-add without a reduction loop is elementwise, not a matmul.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 1
// CHECK-NEXT:  },
// CHECK:       "flops": 4096,
// CHECK-NOT:   "transpose"
// CHECK:       "unsupported": []
#id = affine_map<(m, n) -> (m, n)>
func.func @fma_elementwise(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>, %z: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<64x32xf32>, tensor<64x32xf32>) outs(%z : tensor<64x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
