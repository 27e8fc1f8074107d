// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks > %t.first
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks > %t.second
// RUN: diff %t.first %t.second

// A task's key is the first 64 bits of the SHA-256 of its canonical form.
// It names the task in tuning databases, so it must not depend on SSA
// names, function names, locations or discardable attributes, and must not
// change between runs or releases. This one is pinned: if it changes, the
// canonical form changed and existing tuning records are orphaned.

// CHECK-LABEL: "summary"
// CHECK:       "key": "0c7de13d08fa1ccd",
func.func @pinned(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// CHECK-LABEL: "summary"
// CHECK:       "key": "[[KEY:([0-9a-f]{16})]]",
// CHECK-NEXT:  "kind": "matmul",
func.func @original(%a: tensor<32x8xf32>, %b: tensor<8x16xf32>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x8xf32>, tensor<8x16xf32>) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// Other function, other SSA names, other surrounding ops, a discardable
// attribute and an explicit location: the same task.

// CHECK-LABEL: "summary"
// CHECK:       "key": "[[KEY]]",
// CHECK-NEXT:  "kind": "matmul",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "elsewhere.py:7:3"
// CHECK-NEXT:  ],
func.func @renamed(%lhs: tensor<32x8xf32>, %rhs: tensor<8x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<32x16xf32>) -> tensor<32x16xf32>
  %product = linalg.matmul {tcl.note = "ignored"} ins(%lhs, %rhs : tensor<32x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<32x16xf32>) -> tensor<32x16xf32> loc("elsewhere.py":7:3)
  return %product : tensor<32x16xf32>
}

// -----

// Another shape is another task.

// CHECK-LABEL: "summary"
// CHECK-NOT:   "key": "[[KEY]]",
// CHECK:       "key": "{{([0-9a-f]{16})}}",
// CHECK-NOT:   "key": "[[KEY]]",
// CHECK:       "unsupported"
func.func @other_shape(%a: tensor<32x8xf32>, %b: tensor<8x24xf32>, %c: tensor<32x24xf32>) -> tensor<32x24xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x8xf32>, tensor<8x24xf32>) outs(%c : tensor<32x24xf32>) -> tensor<32x24xf32>
  return %r : tensor<32x24xf32>
}

// -----

// Another element type is another task.

// CHECK-LABEL: "summary"
// CHECK-NOT:   "key": "[[KEY]]",
// CHECK:       "dtype": "f64",
// CHECK-NOT:   "key": "[[KEY]]",
// CHECK:       "unsupported"
func.func @other_type(%a: tensor<32x8xf64>, %b: tensor<8x16xf64>, %c: tensor<32x16xf64>) -> tensor<32x16xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<32x8xf64>, tensor<8x16xf64>) outs(%c : tensor<32x16xf64>) -> tensor<32x16xf64>
  return %r : tensor<32x16xf64>
}

// -----

// Fast-math flags change the computation: another task.

// CHECK-LABEL: "summary"
// CHECK-NOT:   "key": "[[KEY]]",
// CHECK:       "canonical_form": "{{.*}}arith.mulf(%a0, %a1){fastmath=#arith.fastmath<fast>}
// CHECK-NOT:   "key": "[[KEY]]",
// CHECK:       "kind": "matmul",
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @fast_math(%x: tensor<32x8xf32>, %y: tensor<8x16xf32>, %z: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<32x8xf32>, tensor<8x16xf32>) outs(%z : tensor<32x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q fastmath<fast> : f32
    %1 = arith.addf %acc, %0 fastmath<fast> : f32
    linalg.yield %1 : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// Constants captured by the payload are part of the computation: ReLU
// (max with 0) and a max with 6 are two tasks; a scalar function argument
// is an opaque value of its type.

// CHECK-LABEL: "summary"
// CHECK:       "num_occurrences": 4,
// CHECK-NEXT:  "num_tasks": 3,
// CHECK:       "canonical_form": "{{.*}}arith.maximumf(%a0, const(0.000000e+00 : f32))
// CHECK:       "weight": 1
// CHECK:       "canonical_form": "{{.*}}arith.maximumf(%a0, const(6.000000e+00 : f32))
// CHECK:       "weight": 1
// CHECK:       "canonical_form": "{{.*}}arith.maximumf(%a0, ext(f32))
// CHECK:       "weight": 2
#id = affine_map<(d0) -> (d0)>
func.func @captured(%x: tensor<64xf32>, %s: f32, %t: f32) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %six : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %t : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
