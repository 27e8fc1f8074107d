// RUN: tcl-opt %s --split-input-file --tcl-cpu-default-schedule="vector-width=8 row-tile=8" | FileCheck %s

// Elementwise ops: one strip of 4 vector widths of the innermost parallel
// loop per iteration, outer parallel loops one at a time; broadcast
// operands become vector.broadcast and constants vector splats.

// CHECK-LABEL: func.func @bias_relu
// CHECK:         scf.for %[[I:.+]] = %c0 to %c8 step %c1
// CHECK:           scf.for %[[J:.+]] = %c0 to %c64 step %c32
// CHECK:             %[[X:.+]] = vector.transfer_read %{{.+}}[%[[I]], %[[J]]]{{.*}} : tensor<8x64xf32>, vector<1x32xf32>
// CHECK:             %[[B:.+]] = vector.transfer_read %{{.+}}[%[[J]]]{{.*}} : tensor<64xf32>, vector<32xf32>
// CHECK:             %[[BB:.+]] = vector.broadcast %[[B]] : vector<32xf32> to vector<1x32xf32>
// CHECK:             %[[S:.+]] = arith.addf %[[X]], %[[BB]] : vector<1x32xf32>
// CHECK:             %[[R:.+]] = arith.maximumf %[[S]], %{{.+}} : vector<1x32xf32>
// CHECK:             vector.transfer_write %[[R]], %{{.+}}[%[[I]], %[[J]]]
// CHECK-NOT:     linalg.generic
func.func @bias_relu(%x: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<8x64xf32>, tensor<64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %0 = arith.addf %in, %bias : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// -----

// A math function is vectorized too.

// CHECK-LABEL: func.func @exp
// CHECK:         scf.for {{.*}} = %c0 to %c4096 step %c32
// CHECK:           math.exp %{{.+}} : vector<32xf32>
// CHECK-NOT:     linalg.exp
func.func @exp(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %r = linalg.exp ins(%x : tensor<4096xf32>) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}

// -----

// A row reduction goes one row at a time, each row reduced in strips of
// 8 vectors (64 elements) into a one-element accumulator.

// CHECK-LABEL: func.func @row_sum
// CHECK:         scf.for %[[I:.+]] = %c0 to %c16 step %c1
// CHECK:           %[[ACC:.+]] = vector.transfer_read %{{.+}}[%[[I]]]{{.*}} : tensor<16xf32>, vector<1xf32>
// CHECK:           %[[X:.+]] = vector.transfer_read %{{.+}}[%[[I]], %c0]{{.*}} : tensor<16x64xf32>, vector<1x64xf32>
// CHECK:           vector.multi_reduction <add>, %[[X]], %[[ACC]] [1] : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT:     linalg.generic
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

// Ops that are not tasks (fill) and ops with dynamic shapes are left alone.

// CHECK-LABEL: func.func @untouched
// CHECK:         linalg.fill
// CHECK:         linalg.exp ins(%{{.+}} : tensor<?xf32>)
// CHECK-NOT:     scf.for
func.func @untouched(%x: tensor<?xf32>, %e: tensor<?xf32>, %f: tensor<16xf32>) -> (tensor<?xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.fill ins(%zero : f32) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %1 = linalg.exp ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %1, %0 : tensor<?xf32>, tensor<16xf32>
}
