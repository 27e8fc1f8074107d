// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks --verify-diagnostics
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks 2>/dev/null | FileCheck %s

// A zero-dimensional generic has no loops to schedule.

// CHECK-LABEL: "summary"
// CHECK:       "num_tasks": 0,
// CHECK-NEXT:  "num_unsupported": 1,
// CHECK:       "unsupported": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "location": "{{.*}}unsupported-misc.mlir:[[@LINE+6]]:8",
// CHECK-NEXT:      "op": "linalg.generic",
// CHECK-NEXT:      "reason": "zero-dimensional op has no loops to schedule"
// CHECK-NEXT:    }
func.func @zero_dim(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // expected-warning @below {{cannot tune 'linalg.generic': zero-dimensional op has no loops to schedule}}
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a : tensor<f32>) outs(%b : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

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
