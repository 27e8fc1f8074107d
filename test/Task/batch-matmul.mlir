// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "batch_matmul": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 32768
// CHECK:       "bytes": 18432,
// CHECK:       "iterator_types": [
// CHECK-NEXT:    "parallel",
// CHECK-NEXT:    "parallel",
// CHECK-NEXT:    "parallel",
// CHECK-NEXT:    "reduction"
// CHECK-NEXT:  ],
// CHECK:       "kind": "batch_matmul",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}batch-matmul.mlir:[[@LINE+12]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    4,
// CHECK-NEXT:    8,
// CHECK-NEXT:    32,
// CHECK-NEXT:    16
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.batch_matmul",
// CHECK:       "transpose": "nn",
// CHECK-NEXT:  "weight": 1
func.func @batch_matmul(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>, %c: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

// -----

// Attention scores Q * K^T: B is stored [batch][n][k].

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 786432
// CHECK:       "kind": "batch_matmul",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    12,
// CHECK-NEXT:    16,
// CHECK-NEXT:    32,
// CHECK-NEXT:    64
// CHECK-NEXT:  ],
// CHECK:       "transpose": "nt",
func.func @batch_matmul_nt(%q: tensor<12x16x64xf32>, %k: tensor<12x32x64xf32>, %c: tensor<12x16x32xf32>) -> tensor<12x16x32xf32> {
  %r = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<12x16x64xf32>, tensor<12x32x64xf32>) outs(%c : tensor<12x16x32xf32>) -> tensor<12x16x32xf32>
  return %r : tensor<12x16x32xf32>
}

// -----

// torch-mlir's 4-d attention matmul as a generic: two batch dimensions.

// CHECK-LABEL: "summary"
// CHECK:       "kind": "batch_matmul",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    2,
// CHECK-NEXT:    4,
// CHECK-NEXT:    8,
// CHECK-NEXT:    8,
// CHECK-NEXT:    16
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.generic",
// CHECK:       "transpose": "nn",
func.func @generic_batch_matmul(%a: tensor<2x4x8x16xf32>, %b: tensor<2x4x16x8xf32>, %c: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) outs(%c : tensor<2x4x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x8x8xf32>
  return %r : tensor<2x4x8x8xf32>
}
