// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// 3x3, stride 2: FLOPs are 2 * N*OH*OW*F * KH*KW*C = 2 * 784 * 72.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 112896
// CHECK:       "bytes": 19072,
// CHECK:       "canonical_form": "iterators=[parallel, parallel, parallel, parallel, reduction, reduction, reduction] maps=[(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6), (d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3), (d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)]
// CHECK-NEXT:  "conv": {
// CHECK-NEXT:    "dilations": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      3
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 1,
// CHECK-NEXT:    "layout": "nhwc_hwcf",
// CHECK-NEXT:    "strides": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      2
// CHECK-NEXT:    ]
// CHECK-NEXT:  },
// CHECK-NEXT:  "dtype": "f32",
// CHECK-NEXT:  "flops": 112896,
// CHECK:       "kind": "conv2d",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}conv2d-nhwc-hwcf.mlir:[[@LINE+19]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    7,
// CHECK-NEXT:    7,
// CHECK-NEXT:    16,
// CHECK-NEXT:    3,
// CHECK-NEXT:    3,
// CHECK-NEXT:    8
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.conv_2d_nhwc_hwcf",
// CHECK-NEXT:  "operand_types": [
// CHECK-NEXT:    "tensor<1x16x16x8xf32>",
// CHECK-NEXT:    "tensor<3x3x8x16xf32>",
// CHECK-NEXT:    "tensor<1x7x7x16xf32>"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "weight": 1
func.func @conv_3x3_stride2(%i: tensor<1x16x16x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %r : tensor<1x7x7x16xf32>
}

// -----

// Dilation 2: the receptive field is 5x5, the filter stays 3x3.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 331776
// CHECK:       "canonical_form": "{{.*}}(d0, d1 + d4 * 2, d2 + d5 * 2, d6)
// CHECK-NEXT:  "conv": {
// CHECK-NEXT:    "dilations": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      2
// CHECK-NEXT:    ],
// CHECK-NEXT:    "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      3
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 1,
// CHECK-NEXT:    "layout": "nhwc_hwcf",
// CHECK-NEXT:    "strides": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ]
// CHECK:       "kind": "conv2d",
func.func @conv_3x3_dilated(%i: tensor<1x16x16x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x12x12x16xf32>) -> tensor<1x12x12x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x12x12x16xf32>) -> tensor<1x12x12x16xf32>
  return %r : tensor<1x12x12x16xf32>
}

// -----

// 1x1 projection (ResNet's bottleneck conv): still a convolution, not a
// matmul, with a 1x1 filter.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "conv2d": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 6422528
// CHECK:       "filter": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    1
// CHECK-NEXT:  ],
// CHECK:       "kind": "conv2d",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    28,
// CHECK-NEXT:    28,
// CHECK-NEXT:    64,
// CHECK-NEXT:    1,
// CHECK-NEXT:    1,
// CHECK-NEXT:    64
// CHECK-NEXT:  ],
func.func @conv_1x1(%i: tensor<1x28x28x64xf32>, %f: tensor<1x1x64x64xf32>, %o: tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x28x28x64xf32>, tensor<1x1x64x64xf32>) outs(%o : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  return %r : tensor<1x28x28x64xf32>
}

// -----

// The ResNet stem: 7x7, stride 2, 3 input channels (on a padded input).

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 236027904
// CHECK:       "filter": [
// CHECK-NEXT:    7,
// CHECK-NEXT:    7
// CHECK-NEXT:  ],
// CHECK-NEXT:  "groups": 1,
// CHECK-NEXT:  "layout": "nhwc_hwcf",
// CHECK-NEXT:  "strides": [
// CHECK-NEXT:    2,
// CHECK-NEXT:    2
// CHECK-NEXT:  ]
// CHECK:       "kind": "conv2d",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    112,
// CHECK-NEXT:    112,
// CHECK-NEXT:    64,
// CHECK-NEXT:    7,
// CHECK-NEXT:    7,
// CHECK-NEXT:    3
// CHECK-NEXT:  ],
func.func @conv_7x7_stem(%i: tensor<1x230x230x3xf32>, %f: tensor<7x7x3x64xf32>, %o: tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x230x230x3xf32>, tensor<7x7x3x64xf32>) outs(%o : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  return %r : tensor<1x112x112x64xf32>
}

// -----

// Strides and dilations are reported per spatial dimension (H, then W).

// CHECK-LABEL: "summary"
// CHECK:       "conv": {
// CHECK-NEXT:    "dilations": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      2
// CHECK-NEXT:    ],
// CHECK-NEXT:    "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      5
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 1,
// CHECK-NEXT:    "layout": "nhwc_hwcf",
// CHECK-NEXT:    "strides": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      1
// CHECK-NEXT:    ]
func.func @conv_asymmetric(%i: tensor<1x16x16x8xf32>, %f: tensor<3x5x8x16xf32>, %o: tensor<1x7x8x16xf32>) -> tensor<1x7x8x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
     ins(%i, %f : tensor<1x16x16x8xf32>, tensor<3x5x8x16xf32>) outs(%o : tensor<1x7x8x16xf32>) -> tensor<1x7x8x16xf32>
  return %r : tensor<1x7x8x16xf32>
}
