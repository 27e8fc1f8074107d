// RUN: tcl-opt %s --split-input-file --tcl-cpu-default-schedule="vector-width=8 row-tile=8" | FileCheck %s

// A 2-d convolution is tiled to one output row and one filter row, which
// decomposes into a 1-d convolution that the vectorizer turns into one
// vector.contract per filter column, one input channel per step, accumulated
// into a (row-tile / 2 x 2 vector widths) block of the output row.

// CHECK-LABEL: func.func @conv_nhwc
// CHECK:         scf.for %[[OH:.+]] = %c0 to %c8 step %c1
// CHECK:           scf.for %[[OW:.+]] = %c0 to %c8 step %c4
// CHECK:             scf.for %[[KH:.+]] = %c0 to %c3 step %c1
// CHECK:               scf.for %[[IC:.+]] = %c0 to %c8 step %c1
// CHECK:                 %[[IH:.+]] = affine.apply #{{.+}}(%[[OH]], %[[KH]])
// CHECK:                 vector.transfer_read %{{.+}}[%c0, %[[IH]], %[[OW]], %[[IC]]]{{.*}} : tensor<1x10x10x8xf32>, vector<1x6x1xf32>
// CHECK:                 vector.transfer_read %{{.+}}[%[[KH]], %c0, %[[IC]], %c0]{{.*}} : tensor<3x3x8x16xf32>, vector<3x1x16xf32>
// CHECK-COUNT-3:         vector.contract {{.*}} : vector<1x4x1xf32>, vector<1x16xf32> into vector<1x4x16xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<1x4x16xf32>, tensor<1x{{(1x)?}}4x16xf32>
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @conv_nhwc(%i: tensor<1x10x10x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// A depthwise convolution becomes broadcast + FMA along the channels, one
// vector width of channels per tile.

// CHECK-LABEL: func.func @depthwise_nhwc
// CHECK:         scf.for {{.*}} = %c0 to %c8 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK:             scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK-COUNT-3:       vector.fma {{.*}} : vector<1x8x8xf32>
// CHECK:               vector.transfer_write {{.*}} : vector<1x8x8xf32>, tensor<1x{{(1x)?}}8x8xf32>
// CHECK-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
func.func @depthwise_nhwc(%i: tensor<1x10x10x16xf32>, %f: tensor<3x3x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x10x10x16xf32>, tensor<3x3x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// Strided convolution: the tile reads a strided window of the input row.

// CHECK-LABEL: func.func @conv_stride2
// CHECK:         scf.for {{.*}} = %c0 to %c4 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK:             vector.contract
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @conv_stride2(%i: tensor<1x9x9x8xf32>, %f: tensor<3x3x8x16xf32>, %o: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x9x9x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %r : tensor<1x4x4x16xf32>
}

// -----

// Layouts neither the 1-d decomposition nor the grouped contraction cover
// (here a channels-first grouped convolution) keep their tiled loops, one
// filter tap each, around the named op.

// CHECK-LABEL: func.func @grouped
// CHECK:         scf.for
// CHECK:           linalg.conv_2d_ngchw_fgchw {{.*}} -> tensor<1x1x6x1x6xf32>
func.func @grouped(%i: tensor<1x2x4x8x8xf32>, %f: tensor<6x2x4x3x3xf32>, %o: tensor<1x2x6x6x6xf32>) -> tensor<1x2x6x6x6xf32> {
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x2x4x8x8xf32>, tensor<6x2x4x3x3xf32>) outs(%o : tensor<1x2x6x6x6xf32>) -> tensor<1x2x6x6x6xf32>
  return %r : tensor<1x2x6x6x6xf32>
}

// -----

// A channels-last grouped convolution's tile (one output row, one filter
// tap, groups whose output channels fill a vector: 2 x 4 here) is a batch
// of per-group matmuls on strided, rank-reduced slices: one vector.contract
// over (columns, groups, output channels) reducing the group's input
// channels.

// CHECK-LABEL: func.func @grouped_channels_last
// CHECK:         scf.for
// CHECK:             tensor.extract_slice %{{.+}}[0, 0, 0, 0, 0] [1, 1, 4, 2, 3] [1, 1, 2, 1, 1] : tensor<1x1x7x2x3xf32> to tensor<4x2x3xf32>
// CHECK:             vector.contract {{.*}} : vector<4x2x3xf32>, vector<4x2x4x3xf32> into vector<4x2x4xf32>
// CHECK-NOT:     linalg.conv_2d_nhwgc_gfhwc
func.func @grouped_channels_last(%i: tensor<1x9x9x4x3xf32>, %f: tensor<4x4x3x3x3xf32>, %o: tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32> {
  %r = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x9x9x4x3xf32>, tensor<4x4x3x3x3xf32>) outs(%o : tensor<1x4x4x4x4xf32>) -> tensor<1x4x4x4x4xf32>
  return %r : tensor<1x4x4x4x4xf32>
}

// -----

// A filter larger than the input (a deep layer) is visited output-channel
// tile by tile, outermost, so that a tile's filter slice stays in cache
// across every output row.

// CHECK-LABEL: func.func @conv_weight_stationary
// CHECK:         scf.for {{.*}} = %c0 to %c64 step %c16
// CHECK:           scf.for {{.*}} = %c0 to %c2 step %c1
// CHECK:             scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK:               scf.for {{.*}} = %c0 to %c64 step %c1
// CHECK:                 vector.contract
func.func @conv_weight_stationary(%i: tensor<1x4x4x64xf32>, %f: tensor<3x3x64x64xf32>, %o: tensor<1x2x2x64xf32>) -> tensor<1x2x2x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x4x4x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x2x2x64xf32>) -> tensor<1x2x2x64xf32>
  return %r : tensor<1x2x2x64xf32>
}

// -----

// An output-channel tile that is not whole vectors (12 channels of 8-wide
// vectors) takes a vector of input channels per step instead of one.

// CHECK-LABEL: func.func @conv_partial_vector_channels
// CHECK:         scf.for {{.*}} = %c0 to %c24 step %c12
// CHECK:           scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK:             vector.contract
func.func @conv_partial_vector_channels(%i: tensor<1x4x4x16xf32>, %f: tensor<1x1x16x24xf32>, %o: tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x4x4x16xf32>, tensor<1x1x16x24xf32>) outs(%o : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  return %r : tensor<1x4x4x24xf32>
}
