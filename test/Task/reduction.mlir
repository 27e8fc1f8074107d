// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// Row sum: a reduction generic. The accumulator is read and written.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "reduction": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 512
// CHECK:       "bytes": 2176,
// CHECK-NEXT:  "canonical_form": "iterators=[parallel, reduction] maps=[(d0, d1) -> (d0, d1), (d0, d1) -> (d0)] operands=[tensor<16x32xf32>, tensor<16xf32>] payload={arith.addf(%a0, %a1){{.*}};linalg.yield(%v0):;}",
// CHECK-NEXT:  "dtype": "f32",
// CHECK-NEXT:  "flops": 512,
// CHECK-NEXT:  "fusable_consumers": [],
// CHECK-NEXT:  "iterator_types": [
// CHECK-NEXT:    "parallel",
// CHECK-NEXT:    "reduction"
// CHECK-NEXT:  ],
// CHECK:       "kind": "reduction",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}reduction.mlir:[[@LINE+8]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    16,
// CHECK-NEXT:    32
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.generic",
func.func @row_sum(%x: tensor<16x32xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x32xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// linalg.reduce (a max over the last dimension) is a reduction task.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "reduction": 1
// CHECK-NEXT:  },
// CHECK:       "canonical_form": "{{.*}}payload={arith.maximumf(%a0, %a1)
// CHECK:       "kind": "reduction",
// CHECK:       "op": "linalg.reduce",
func.func @reduce_max(%x: tensor<16x32xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%o : tensor<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %in, %init : f32
      linalg.yield %m : f32
    }
  return %r : tensor<16xf32>
}

// -----

// Global average pooling written as a reduction over H and W (outer
// reduction loops, channels innermost).

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 100352
// CHECK:       "iterator_types": [
// CHECK-NEXT:    "parallel",
// CHECK-NEXT:    "reduction",
// CHECK-NEXT:    "reduction",
// CHECK-NEXT:    "parallel"
// CHECK-NEXT:  ],
// CHECK:       "kind": "reduction",
func.func @spatial_sum(%x: tensor<1x7x7x2048xf32>, %o: tensor<1x2048xf32>) -> tensor<1x2048xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x2048xf32>) outs(%o : tensor<1x2048xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<1x2048xf32>
  return %r : tensor<1x2048xf32>
}

// -----

// A full reduction to a 0-d tensor still has a loop to schedule.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "reduction": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 1024
// CHECK:       "iterator_types": [
// CHECK-NEXT:    "reduction"
// CHECK-NEXT:  ],
// CHECK:       "unsupported": []
func.func @full_sum(%x: tensor<1024xf32>, %o: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<1024xf32>) outs(%o : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
