// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// The matmul's result has two uses (returned and consumed by the ReLU): the
// ReLU cannot be fused, it stays a task of its own.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 1,
// CHECK-NEXT:    "matmul": 1
// CHECK-NEXT:  },
// CHECK:       "fusable_consumers": [],
// CHECK:       "kind": "matmul",
// CHECK:       "fusable_consumers": [],
// CHECK:       "kind": "elementwise",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}fusion-negative.mlir:[[@LINE+7]]:11"
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_uses(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %cst : f32
    linalg.yield %m : f32
  } -> tensor<64x16xf32>
  return %mm, %relu : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// A consumer that reads the result transposed cannot work on the
// producer's output tile.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 1,
// CHECK-NEXT:    "matmul": 1
// CHECK-NEXT:  },
// CHECK:       "fusable_consumers": [],
// CHECK:       "kind": "matmul",
// CHECK:       "op": "linalg.transpose",
func.func @transposing_consumer(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<16x64xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %t = linalg.transpose ins(%mm : tensor<64x16xf32>) outs(%e : tensor<16x64xf32>) permutation = [1, 0]
  return %t : tensor<16x64xf32>
}

// -----

// A consumer that broadcasts the result into a larger iteration space, and
// a reduction consumer: neither is fused.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 1,
// CHECK-NEXT:    "matmul": 2,
// CHECK-NEXT:    "reduction": 1
// CHECK-NEXT:  },
// CHECK-NOT:   "fusable_consumers": [{{$}}
// CHECK:       "unsupported": []
func.func @broadcast_and_reduce(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>, %r0: tensor<64xf32>) -> (tensor<4x64x16xf32>, tensor<64xf32>) {
  %mm1 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  %e = tensor.empty() : tensor<4x64x16xf32>
  %bc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm1 : tensor<64x16xf32>) outs(%e : tensor<4x64x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  } -> tensor<4x64x16xf32>
  %mm2 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%mm2 : tensor<64x16xf32>) outs(%r0 : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %x, %o : f32
    linalg.yield %0 : f32
  } -> tensor<64xf32>
  return %bc, %sum : tensor<4x64x16xf32>, tensor<64xf32>
}

// -----

// Elementwise ops are not fusion anchors: a chain of two elementwise ops
// stays two tasks.

// CHECK-LABEL: "summary"
// CHECK:       "num_occurrences": 2,
// CHECK-NEXT:  "num_tasks": 2,
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 2
// CHECK-NEXT:  },
// CHECK-NOT:   "fusable_consumers": [{{$}}
// CHECK:       "unsupported": []
func.func @elementwise_chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %0 = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %1 = linalg.negf ins(%0 : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %1 : tensor<64xf32>
}
