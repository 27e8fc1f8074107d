// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 451584
// CHECK:       "bytes": 37888,
// CHECK:       "canonical_form": "{{.*}}maps=[(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6), (d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6), (d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)]
// CHECK:         "groups": 1,
// CHECK-NEXT:    "layout": "nhwc_fhwc",
// CHECK:       "kind": "conv2d",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}conv2d-nhwc-fhwc.mlir:[[@LINE+13]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    14,
// CHECK-NEXT:    14,
// CHECK-NEXT:    16,
// CHECK-NEXT:    3,
// CHECK-NEXT:    3,
// CHECK-NEXT:    8
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.conv_2d_nhwc_fhwc",
func.func @conv_fhwc(%i: tensor<1x16x16x8xf32>, %f: tensor<16x3x3x8xf32>, %o: tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x16x16x8xf32>, tensor<16x3x3x8xf32>) outs(%o : tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32>
  return %r : tensor<1x14x14x16xf32>
}

// -----

// The same convolution in HWCF layout has other maps: another task.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 451584
// CHECK:       "layout": "nhwc_hwcf",
// CHECK:       "kind": "conv2d",
func.func @conv_hwcf(%i: tensor<1x16x16x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32>
  return %r : tensor<1x14x14x16xf32>
}
