// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// ReLU as a generic: one max per element. The init is not read, so bytes
// are one read of the input and one write of the output.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 512
// CHECK:       "arithmetic_intensity": 0.125,
// CHECK-NEXT:  "bytes": 4096,
// CHECK-NEXT:  "canonical_form": "iterators=[parallel, parallel] maps=[(d0, d1) -> (d0, d1), (d0, d1) -> (d0, d1)] operands=[tensor<16x32xf32>, tensor<16x32xf32>] payload={arith.maximumf(%a0, const(0.000000e+00 : f32)){{.*}};linalg.yield(%v0):;}",
// CHECK-NEXT:  "dtype": "f32",
// CHECK-NEXT:  "flops": 512,
// CHECK-NEXT:  "fusable_consumers": [],
// CHECK-NEXT:  "iterator_types": [
// CHECK-NEXT:    "parallel",
// CHECK-NEXT:    "parallel"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "key": "{{([0-9a-f]{16})}}",
// CHECK-NEXT:  "kind": "elementwise",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}elementwise.mlir:[[@LINE+12]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    16,
// CHECK-NEXT:    32
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.generic",
// CHECK-NOT:   "transpose"
// CHECK-NOT:   "conv"
func.func @relu(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// Named elementwise ops (linalg.add, linalg.exp) are elementwise tasks.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "elementwise": 2
// CHECK-NEXT:  },
// CHECK:       "bytes": 6144,
// CHECK:       "kind": "elementwise",
// CHECK:       "op": "linalg.add",
// CHECK:       "bytes": 4096,
// CHECK:       "canonical_form": "{{.*}}payload={math.exp(%a0)
// CHECK:       "kind": "elementwise",
// CHECK:       "op": "linalg.exp",
func.func @named(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %s = linalg.add ins(%x, %y : tensor<16x32xf32>, tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.exp ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// GELU (tanh approximation) on a broadcast bias add: every arith/math op of
// the payload counts, casts and constants do not.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 10240
// CHECK:       "bytes": 8448,
// CHECK:       "canonical_form": "iterators=[parallel, parallel, parallel] maps=[(d0, d1, d2) -> (d0, d1, d2), (d0, d1, d2) -> (d2), (d0, d1, d2) -> (d0, d1, d2)]
// CHECK:       "flops": 10240,
// CHECK:       "kind": "elementwise",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    16,
// CHECK-NEXT:    64
// CHECK-NEXT:  ],
func.func @bias_gelu(%x: tensor<1x16x64xf32>, %b: tensor<64xf32>) -> tensor<1x16x64xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %c = arith.constant 0.797884583 : f32
  %k = arith.constant 0.044715 : f32
  %e = tensor.empty() : tensor<1x16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x16x64xf32>, tensor<64xf32>) outs(%e : tensor<1x16x64xf32>) {
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
  } -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}

// -----

// A type conversion only: no arithmetic, zero FLOPs, bytes of f32 in and
// f16 out.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 0
// CHECK:       "arithmetic_intensity": 0,
// CHECK-NEXT:  "bytes": 1536,
// CHECK:       "dtype": "f16",
// CHECK-NEXT:  "flops": 0,
// CHECK:       "kind": "elementwise",
func.func @truncate(%x: tensor<256xf32>) -> tensor<256xf16> {
  %e = tensor.empty() : tensor<256xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<256xf32>) outs(%e : tensor<256xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<256xf16>
  return %r : tensor<256xf16>
}
