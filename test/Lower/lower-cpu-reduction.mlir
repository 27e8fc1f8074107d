// RUN: tcl-opt %s --split-input-file --tcl-lower-cpu="cpu=x86-64-v3" | FileCheck %s

// Regression: vector.multi_reduction must not survive tcl-lower-cpu.

// CHECK-LABEL: llvm.func @row_sum(
// CHECK-NOT:   vector.multi_reduction
// CHECK-NOT:   unrealized_conversion_cast
// CHECK-LABEL: llvm.func @_mlir_ciface_row_sum(
func.func @row_sum(%x: tensor<16x64xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// CHECK-LABEL: llvm.func @softmax(
// CHECK-NOT:   vector.multi_reduction
// CHECK-NOT:   unrealized_conversion_cast
// CHECK-LABEL: llvm.func @_mlir_ciface_softmax(
func.func @softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
