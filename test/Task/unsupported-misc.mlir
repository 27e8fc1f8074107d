// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks=allow-unsupported=true --verify-diagnostics
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks=allow-unsupported=true 2>/dev/null | FileCheck %s

// Bufferized IR is too late: tcl tunes linalg on tensors.

// CHECK-LABEL: "summary"
// CHECK:       "op": "linalg.matmul",
// CHECK-NEXT:  "reason": "op works on buffers; tcl tunes linalg on tensors (run it before bufferization)"
func.func @on_buffers(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  // expected-warning @below {{cannot tune 'linalg.matmul': op works on buffers}}
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}

// -----

// Complex numbers are not a numeric element type tcl schedules.

// CHECK-LABEL: "summary"
// CHECK:       "op": "linalg.generic",
// CHECK-NEXT:  "reason": "non-numeric element type"
func.func @complex(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-warning @below {{cannot tune 'linalg.generic': non-numeric element type}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xcomplex<f32>>) outs(%b : tensor<4xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %o: complex<f32>):
    linalg.yield %x : complex<f32>
  } -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}

// -----

// Convolution spaces are 2-d: 1-d and 3-d convolutions are reported.

// CHECK-LABEL: "summary"
// CHECK:       "num_unsupported": 2,
// CHECK:       "op": "linalg.conv_1d_nwc_wcf",
// CHECK-NEXT:  "reason": "1-d convolution; tcl's convolution spaces are 2-d"
// CHECK:       "op": "linalg.conv_3d_ndhwc_dhwcf",
// CHECK-NEXT:  "reason": "3-d convolution; tcl's convolution spaces are 2-d"
func.func @conv_1d(%i: tensor<1x16x8xf32>, %f: tensor<3x8x16xf32>, %o: tensor<1x14x16xf32>) -> tensor<1x14x16xf32> {
  // expected-warning @below {{cannot tune 'linalg.conv_1d_nwc_wcf': 1-d convolution}}
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
     ins(%i, %f : tensor<1x16x8xf32>, tensor<3x8x16xf32>) outs(%o : tensor<1x14x16xf32>) -> tensor<1x14x16xf32>
  return %r : tensor<1x14x16xf32>
}
func.func @conv_3d(%i: tensor<1x6x6x6x2xf32>, %f: tensor<3x3x3x2x4xf32>, %o: tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32> {
  // expected-warning @below {{cannot tune 'linalg.conv_3d_ndhwc_dhwcf': 3-d convolution}}
  %r = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
     ins(%i, %f : tensor<1x6x6x6x2xf32>, tensor<3x3x3x2x4xf32>) outs(%o : tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32>
  return %r : tensor<1x4x4x4x4xf32>
}
