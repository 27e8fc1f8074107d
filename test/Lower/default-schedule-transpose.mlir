// RUN: tcl-opt %s --split-input-file --tcl-cpu-default-schedule="vector-width=8 row-tile=8" | FileCheck %s

// Transposes (torch-mlir's Linear weights, NCHW <-> NHWC copies): a square
// tile of one vector along the output's innermost loop by one along the
// input's contiguous loop, read by rows, transposed in registers, written by
// rows. A strip along the innermost loop alone read one element per cache
// line and ran slower than naive loops.

// CHECK-LABEL: func.func @weight_transpose
// CHECK:         scf.for %[[I:.+]] = %c0 to %c48 step %c8
// CHECK:           scf.for %[[J:.+]] = %c0 to %c64 step %c8
// CHECK:             %[[R:.+]] = vector.transfer_read %{{.+}}[%[[J]], %[[I]]]{{.*}} : tensor<64x48xf32>, vector<8x8xf32>
// CHECK:             %[[T:.+]] = vector.transpose %[[R]], [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:             vector.transfer_write %[[T]], %{{.+}}[%[[I]], %[[J]]]
// CHECK-NOT:     linalg.transpose
func.func @weight_transpose(%w: tensor<64x48xf32>) -> tensor<48x64xf32> {
  %e = tensor.empty() : tensor<48x64xf32>
  %t = linalg.transpose ins(%w : tensor<64x48xf32>) outs(%e : tensor<48x64xf32>) permutation = [1, 0]
  return %t : tensor<48x64xf32>
}

// -----

// The rows along the input's contiguous loop are a power of two (56 -> 8, not
// 14), so that each is a whole vector.

// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK:         scf.for %{{.+}} = %c0 to %c56 step %c1
// CHECK:           scf.for %{{.+}} = %c0 to %c56 step %c8
// CHECK:             scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK:               vector.transfer_read {{.*}} : tensor<1x16x56x56xf32>, vector<1x8x1x8xf32>
// CHECK:               vector.transpose %{{.+}}, [0, 2, 3, 1] : vector<1x8x1x8xf32> to vector<1x1x8x8xf32>
func.func @nchw_to_nhwc(%x: tensor<1x16x56x56xf32>) -> tensor<1x56x56x16xf32> {
  %e = tensor.empty() : tensor<1x56x56x16xf32>
  %t = linalg.transpose ins(%x : tensor<1x16x56x56xf32>) outs(%e : tensor<1x56x56x16xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<1x56x56x16xf32>
}

// -----

// A broadcast input does not vary along the innermost loop: not a transpose,
// one strip of four vectors as for any elementwise op.

// CHECK-LABEL: func.func @row_broadcast
// CHECK:         scf.for %{{.+}} = %c0 to %c64 step %c32
// CHECK-NOT:     vector.transpose
func.func @row_broadcast(%x: tensor<8xf32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %b = linalg.broadcast ins(%x : tensor<8xf32>) outs(%e : tensor<8x64xf32>) dimensions = [1]
  return %b : tensor<8x64xf32>
}
