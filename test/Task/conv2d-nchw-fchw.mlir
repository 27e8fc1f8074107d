// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// torch-mlir's layout. Loops are (n, f, oh, ow, c, kh, kw).

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 451584
// CHECK:       "bytes": 37888,
// CHECK:       "canonical_form": "{{.*}}maps=[(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6), (d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6), (d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)]
// CHECK:         "filter": [
// CHECK-NEXT:      3,
// CHECK-NEXT:      3
// CHECK-NEXT:    ],
// CHECK-NEXT:    "groups": 1,
// CHECK-NEXT:    "layout": "nchw_fchw",
// CHECK:       "kind": "conv2d",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    1,
// CHECK-NEXT:    16,
// CHECK-NEXT:    14,
// CHECK-NEXT:    14,
// CHECK-NEXT:    8,
// CHECK-NEXT:    3,
// CHECK-NEXT:    3
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.conv_2d_nchw_fchw",
func.func @conv_nchw(%i: tensor<1x8x16x16xf32>, %f: tensor<16x8x3x3xf32>, %o: tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  return %r : tensor<1x16x14x14xf32>
}

// -----

// Strided 1x1 downsampling projection, batch 2.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 3211264
// CHECK:         "filter": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK:         "strides": [
// CHECK-NEXT:      2,
// CHECK-NEXT:      2
// CHECK-NEXT:    ]
// CHECK:       "kind": "conv2d",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    2,
// CHECK-NEXT:    128,
// CHECK-NEXT:    14,
// CHECK-NEXT:    14,
// CHECK-NEXT:    32,
// CHECK-NEXT:    1,
// CHECK-NEXT:    1
// CHECK-NEXT:  ],
func.func @conv_nchw_1x1_s2(%i: tensor<2x32x28x28xf32>, %f: tensor<128x32x1x1xf32>, %o: tensor<2x128x14x14xf32>) -> tensor<2x128x14x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<2x32x28x28xf32>, tensor<128x32x1x1xf32>) outs(%o : tensor<2x128x14x14xf32>) -> tensor<2x128x14x14xf32>
  return %r : tensor<2x128x14x14xf32>
}

// -----

// A convolution written as linalg.generic (as some frontends emit it) is a
// conv2d too, and the same task as the named op with the same maps. A
// generic has no layout name.

// CHECK-LABEL: "summary"
// CHECK:       "num_occurrences": 2,
// CHECK-NEXT:  "num_tasks": 1,
// CHECK:         "layout": "",
// CHECK:       "kind": "conv2d",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}conv2d-nchw-fchw.mlir:[[@LINE+6]]:8",
// CHECK-NEXT:    "{{.*}}conv2d-nchw-fchw.mlir:[[@LINE+19]]:8"
// CHECK-NEXT:  ],
// CHECK:       "op": "linalg.generic",
// CHECK:       "weight": 2
func.func @conv_generic(%i: tensor<1x8x16x16xf32>, %f: tensor<16x8x3x3xf32>, %o: tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, f, h, w, c, kh, kw) -> (n, c, h + kh, w + kw)>,
                       affine_map<(n, f, h, w, c, kh, kw) -> (f, c, kh, kw)>,
                       affine_map<(n, f, h, w, c, kh, kw) -> (n, f, h, w)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%i, %f : tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x14x14xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x16x14x14xf32>
  return %r : tensor<1x16x14x14xf32>
}
func.func @conv_named(%i: tensor<1x8x16x16xf32>, %f: tensor<16x8x3x3xf32>, %o: tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x8x16x16xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  return %r : tensor<1x16x14x14xf32>
}
