// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// A transpose moves data and computes nothing: an elementwise task with
// zero FLOPs (and zero arithmetic intensity) whose maps permute the input.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 0
// CHECK:       "arithmetic_intensity": 0,
// CHECK-NEXT:  "bytes": 4096,
// CHECK-NEXT:  "canonical_form": "iterators=[parallel, parallel] maps=[(d0, d1) -> (d1, d0), (d0, d1) -> (d0, d1)] operands=[tensor<16x32xf32>, tensor<32x16xf32>] payload={linalg.yield(%a0):;}",
// CHECK-NEXT:  "dtype": "f32",
// CHECK-NEXT:  "flops": 0,
// CHECK:       "key": "[[KEY:([0-9a-f]{16})]]",
// CHECK-NEXT:  "kind": "elementwise",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    32,
// CHECK-NEXT:    16
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.transpose",
func.func @transpose(%x: tensor<16x32xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %r = linalg.transpose ins(%x : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) permutation = [1, 0]
  return %r : tensor<32x16xf32>
}

// -----

// The same transpose as a generic is the same task.

// CHECK-LABEL: "summary"
// CHECK:       "key": "[[KEY]]",
// CHECK:       "op": "linalg.generic",
func.func @transpose_generic(%x: tensor<16x32xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// Attention's head split: a 4-d permutation (0, 2, 1, 3).

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 0
// CHECK:       "canonical_form": "iterators=[parallel, parallel, parallel, parallel] maps=[(d0, d1, d2, d3) -> (d0, d2, d1, d3), (d0, d1, d2, d3) -> (d0, d1, d2, d3)]
// CHECK:       "kind": "elementwise",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    12,
// CHECK-NEXT:    128,
// CHECK-NEXT:    64
// CHECK-NEXT:  ],
func.func @head_split(%x: tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32> {
  %e = tensor.empty() : tensor<1x12x128x64xf32>
  %r = linalg.transpose ins(%x : tensor<1x128x12x64xf32>) outs(%e : tensor<1x12x128x64xf32>) permutation = [0, 2, 1, 3]
  return %r : tensor<1x12x128x64xf32>
}
