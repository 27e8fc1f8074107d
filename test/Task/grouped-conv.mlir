// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// Grouped convolution: 2 groups of 4 input and 6 output channels each.
// groups is the product of the group dimensions.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "grouped_conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 31104
// CHECK:       "bytes": 7232,
// CHECK:       "conv": {
// CHECK-NEXT:    "dilations": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      3
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 2,
// CHECK-NEXT:    "layout": "ngchw_fgchw",
// CHECK:       "kind": "grouped_conv2d",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}grouped-conv.mlir:[[@LINE+14]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    2,
// CHECK-NEXT:    6,
// CHECK-NEXT:    6,
// CHECK-NEXT:    6,
// CHECK-NEXT:    4,
// CHECK-NEXT:    3,
// CHECK-NEXT:    3
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.conv_2d_ngchw_fgchw",
func.func @grouped_ngchw(%i: tensor<1x2x4x8x8xf32>, %f: tensor<6x2x4x3x3xf32>, %o: tensor<1x2x6x6x6xf32>) -> tensor<1x2x6x6x6xf32> {
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x2x4x8x8xf32>, tensor<6x2x4x3x3xf32>) outs(%o : tensor<1x2x6x6x6xf32>) -> tensor<1x2x6x6x6xf32>
  return %r : tensor<1x2x6x6x6xf32>
}

// -----

// ResNeXt-style grouped convolution in channels-last layout, 32 groups.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "grouped_conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 1806336
// CHECK:         "groups": 32,
// CHECK-NEXT:    "layout": "nhwgc_gfhwc",
// CHECK:       "kind": "grouped_conv2d",
func.func @grouped_nhwgc(%i: tensor<1x16x16x32x4xf32>, %f: tensor<32x4x3x3x4xf32>, %o: tensor<1x14x14x32x4xf32>) -> tensor<1x14x14x32x4xf32> {
  %r = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x16x16x32x4xf32>, tensor<32x4x3x3x4xf32>) outs(%o : tensor<1x14x14x32x4xf32>) -> tensor<1x14x14x32x4xf32>
  return %r : tensor<1x14x14x32x4xf32>
}
