// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// Pooling: a window reduction without weights. One operation (max) per
// window element; the window operand only carries the window shape.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "pooling": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 256
// CHECK:       "bytes": 1552,
// CHECK:       "canonical_form": "{{.*}}payload={arith.maximumf(%a2, %a0){{.*}};linalg.yield(%v0):;}",
// CHECK-NEXT:  "conv": {
// CHECK-NEXT:    "dilations": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    "filter": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      2
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 1,
// CHECK-NEXT:    "layout": "nhwc_max",
// CHECK-NEXT:    "strides": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      2
// CHECK-NEXT:    ]
// CHECK-NEXT:  },
// CHECK:       "kind": "pooling",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}pooling.mlir:[[@LINE+13]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    4,
// CHECK-NEXT:    4,
// CHECK-NEXT:    4,
// CHECK-NEXT:    2,
// CHECK-NEXT:    2
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.pooling_nhwc_max",
func.func @max_pool_nhwc(%i: tensor<1x8x8x4xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %w : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// Sum pooling has an add, not a multiply: still pooling, not depthwise.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "pooling": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 256
// CHECK:       "canonical_form": "{{.*}}payload={arith.addf(%a2, %a0)
// CHECK:         "layout": "nhwc_sum",
// CHECK:       "kind": "pooling",
func.func @sum_pool_nhwc(%i: tensor<1x8x8x4xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %w : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// Channels-first 3x3 max pooling with stride 1.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 1296
// CHECK:       "bytes": 2212,
// CHECK:         "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      3
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 1,
// CHECK-NEXT:    "layout": "nchw_max",
// CHECK:       "kind": "pooling",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    4,
// CHECK-NEXT:    6,
// CHECK-NEXT:    6,
// CHECK-NEXT:    3,
// CHECK-NEXT:    3
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.pooling_nchw_max",
func.func @max_pool_nchw(%i: tensor<1x4x8x8xf32>, %o: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %w : tensor<1x4x8x8xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// -----

// Global average pooling as torch-mlir writes it (a sum pool over the whole
// 7x7 image); integer max pooling keeps its unsigned-max payload.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "pooling": 2
// CHECK-NEXT:  },
// CHECK:         "filter": [
// CHECK-NEXT:      7,
// CHECK-NEXT:      7
// CHECK-NEXT:    ],
// CHECK:         "layout": "nchw_sum",
// CHECK:       "dtype": "f32",
// CHECK-NEXT:  "flops": 100352,
// CHECK:       "canonical_form": "{{.*}}payload={arith.maxui(%a2, %a0):i8;
// CHECK:         "layout": "nhwc_max_unsigned",
// CHECK:       "dtype": "i8",
func.func @global_avg_pool(%i: tensor<1x2048x7x7xf32>, %o: tensor<1x2048x1x1xf32>) -> tensor<1x2048x1x1xf32> {
  %w = tensor.empty() : tensor<7x7xf32>
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %w : tensor<1x2048x7x7xf32>, tensor<7x7xf32>) outs(%o : tensor<1x2048x1x1xf32>) -> tensor<1x2048x1x1xf32>
  return %r : tensor<1x2048x1x1xf32>
}
func.func @max_pool_u8(%i: tensor<1x8x8x4xi8>, %o: tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8> {
  %w = tensor.empty() : tensor<2x2xi8>
  %r = linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %w : tensor<1x8x8x4xi8>, tensor<2x2xi8>) outs(%o : tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %r : tensor<1x4x4x4xi8>
}
