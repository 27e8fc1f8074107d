// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// linalg.matmul with explicit indexing_maps: the transpose field says which
// operand is stored transposed relative to row-major A[m][k] * B[k][n].

// CHECK-LABEL: "summary"
// CHECK:       "canonical_form": "{{.*}}maps=[(d0, d1, d2) -> (d0, d2), (d0, d1, d2) -> (d1, d2), (d0, d1, d2) -> (d0, d1)]
// CHECK:       "flops": 65536,
// CHECK:       "kind": "matmul",
// CHECK:       "{{.*}}matmul-transpose.mlir:[[@LINE+7]]:8"
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    64,
// CHECK-NEXT:    16,
// CHECK-NEXT:    32
// CHECK:       "transpose": "nt",
func.func @matmul_nt(%a: tensor<64x32xf32>, %b: tensor<16x32xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x32xf32>, tensor<16x32xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// CHECK-LABEL: "summary"
// CHECK:       "kind": "matmul",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    64,
// CHECK-NEXT:    16,
// CHECK-NEXT:    32
// CHECK:       "transpose": "tn",
func.func @matmul_tn(%a: tensor<32x64xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<32x64xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// CHECK-LABEL: "summary"
// CHECK:       "kind": "matmul",
// CHECK:       "transpose": "tt",
func.func @matmul_tt(%a: tensor<32x64xf32>, %b: tensor<16x32xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<32x64xf32>, tensor<16x32xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// The same A * B^T written as a linalg.generic (what torch-mlir emits for
// x @ W.T): a matmul with transpose "nt", and the same task as the named op.

// CHECK-LABEL: "summary"
// CHECK:       "num_occurrences": 2,
// CHECK-NEXT:  "num_tasks": 1,
// CHECK:       "kind": "matmul",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}matmul-transpose.mlir:[[@LINE+10]]:8",
// CHECK-NEXT:    "{{.*}}matmul-transpose.mlir:[[@LINE+19]]:8"
// CHECK-NEXT:  ],
// CHECK:       "op": "linalg.generic",
// CHECK:       "transpose": "nt",
// CHECK-NEXT:  "weight": 2
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @generic_nt(%x: tensor<8x128xf32>, %w: tensor<256x128xf32>, %z: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<8x128xf32>, tensor<256x128xf32>) outs(%z : tensor<8x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}
func.func @named_nt(%x: tensor<8x128xf32>, %w: tensor<256x128xf32>, %z: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = linalg.matmul indexing_maps = [#mA, #mB, #mC]
      ins(%x, %w : tensor<8x128xf32>, tensor<256x128xf32>) outs(%z : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}
