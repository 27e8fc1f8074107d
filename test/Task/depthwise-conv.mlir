// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// Depthwise convolution: one filter per channel; groups = channels.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "depthwise_conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 2592
// CHECK:       "bytes": 2320,
// CHECK:       "conv": {
// CHECK-NEXT:    "dilations": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      3
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 4,
// CHECK-NEXT:    "layout": "nhwc_hwc",
// CHECK:       "kind": "depthwise_conv2d",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}depthwise-conv.mlir:[[@LINE+12]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    6,
// CHECK-NEXT:    6,
// CHECK-NEXT:    4,
// CHECK-NEXT:    3,
// CHECK-NEXT:    3
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.depthwise_conv_2d_nhwc_hwc",
func.func @depthwise_nhwc(%i: tensor<1x8x8x4xf32>, %f: tensor<3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

// -----

// MobileNet's strided depthwise layer.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 5419008
// CHECK:         "groups": 96,
// CHECK-NEXT:    "layout": "nhwc_hwc",
// CHECK-NEXT:    "strides": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      2
// CHECK-NEXT:    ]
// CHECK:       "kind": "depthwise_conv2d",
func.func @depthwise_nhwc_s2(%i: tensor<1x113x113x96xf32>, %f: tensor<3x3x96xf32>, %o: tensor<1x56x56x96xf32>) -> tensor<1x56x56x96xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x113x113x96xf32>, tensor<3x3x96xf32>) outs(%o : tensor<1x56x56x96xf32>) -> tensor<1x56x56x96xf32>
  return %r : tensor<1x56x56x96xf32>
}

// -----

// torch-mlir's channels-first depthwise convolution.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 2592
// CHECK:       "canonical_form": "{{.*}}maps=[(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4, d2 + d5), (d0, d1, d2, d3, d4, d5) -> (d3, d4, d5), (d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d2)]
// CHECK:         "groups": 4,
// CHECK-NEXT:    "layout": "nchw_chw",
// CHECK:       "kind": "depthwise_conv2d",
// CHECK:       "op": "linalg.depthwise_conv_2d_nchw_chw",
func.func @depthwise_nchw(%i: tensor<1x4x8x8xf32>, %f: tensor<4x3x3xf32>, %o: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// -----

// A channel multiplier (2 outputs per input channel) keeps it depthwise.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "depthwise_conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 9216
// CHECK:         "groups": 4,
// CHECK-NEXT:    "layout": "nhwc_hwcm",
func.func @depthwise_multiplier(%i: tensor<1x10x10x4xf32>, %f: tensor<3x3x4x2xf32>, %o: tensor<1x8x8x4x2xf32>) -> tensor<1x8x8x4x2xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x10x10x4xf32>, tensor<3x3x4x2xf32>) outs(%o : tensor<1x8x8x4x2xf32>) -> tensor<1x8x8x4x2xf32>
  return %r : tensor<1x8x8x4x2xf32>
}
