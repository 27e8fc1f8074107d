// RUN: tcl-opt %s --split-input-file --tcl-convert-conv-to-nhwc | FileCheck %s

// A channels-first convolution becomes the channels-last one between
// transposes of the image, the filter and the result; the fill of its
// initial value is made channels-last directly; strides and dilations
// carry over.

// CHECK-LABEL: func.func @conv_argument_filter
// CHECK-SAME:    (%[[I:.+]]: tensor<2x8x16x16xf32>, %[[F:.+]]: tensor<16x8x3x5xf32>)
// CHECK:         %[[IT:.+]] = linalg.transpose ins(%[[I]] : tensor<2x8x16x16xf32>) outs(%{{.+}} : tensor<2x16x16x8xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[FT:.+]] = linalg.transpose ins(%[[F]] : tensor<16x8x3x5xf32>) outs(%{{.+}} : tensor<3x5x8x16xf32>) permutation = [2, 3, 1, 0]
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2x7x8x16xf32>)
// CHECK:         %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%[[IT]], %[[FT]] : {{.*}}) outs(%[[INIT]] : tensor<2x7x8x16xf32>)
// CHECK:         %[[R:.+]] = linalg.transpose ins(%[[C]] : tensor<2x7x8x16xf32>) outs(%{{.+}} : tensor<2x16x7x8xf32>) permutation = [0, 3, 1, 2]
// CHECK:         return %[[R]]
// CHECK-NOT:     nchw
func.func @conv_argument_filter(%i: tensor<2x8x16x16xf32>, %f: tensor<16x8x3x5xf32>) -> tensor<2x16x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x7x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x7x8xf32>) -> tensor<2x16x7x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
     ins(%i, %f : tensor<2x8x16x16xf32>, tensor<16x8x3x5xf32>) outs(%o : tensor<2x16x7x8xf32>) -> tensor<2x16x7x8xf32>
  return %r : tensor<2x16x7x8xf32>
}

// -----

// A constant filter is transposed at compile time: HWCF[h][w][c][f] is
// FCHW[f][c][h][w].

// CHECK-LABEL: func.func @conv_constant_filter
// CHECK:         %[[F:.+]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00]], {{\[\[}}2.000000e+00, 4.000000e+00]]]]> : tensor<1x2x1x2xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %[[F]] :
// CHECK-NOT:     linalg.transpose ins(%{{.+}} : tensor<2x1x1x2xf32>)
func.func @conv_constant_filter(%i: tensor<1x1x4x4xf32>) -> tensor<1x2x4x3xf32> {
  %f = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x1x4x4xf32>, tensor<2x1x1x2xf32>) outs(%o : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  return %r : tensor<1x2x4x3xf32>
}

// -----

// A splat filter stays a splat of the new shape.

// CHECK-LABEL: func.func @conv_splat_filter
// CHECK:         %[[F:.+]] = arith.constant dense<5.000000e-01> : tensor<3x3x4x8xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %[[F]] :
func.func @conv_splat_filter(%i: tensor<1x4x6x6xf32>) -> tensor<1x8x4x4xf32> {
  %f = arith.constant dense<0.5> : tensor<8x4x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Back-to-back convolutions: the result's transpose to NCHW and the next
// convolution's transpose to NHWC undo each other and fold away.

// CHECK-LABEL: func.func @two_convs
// CHECK:         %[[A:.+]] = linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.transpose ins(%[[A]]
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[A]], %{{.+}} :
// CHECK:         %[[R:.+]] = linalg.transpose
// CHECK-SAME:      permutation = [0, 3, 1, 2]
// CHECK:         return %[[R]]
func.func @two_convs(%i: tensor<1x4x6x6xf32>, %f: tensor<4x4x1x1xf32>, %g: tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %e2 = tensor.empty() : tensor<1x8x6x6xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%a, %g : tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) outs(%o2 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %b : tensor<1x8x6x6xf32>
}

// -----

// Depthwise convolution: the CHW filter becomes HWC.

// CHECK-LABEL: func.func @depthwise
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<8x3x3xf32>) outs(%{{.+}} : tensor<3x3x8xf32>) permutation = [1, 2, 0]
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME:      outs(%{{.+}} : tensor<1x4x4x8xf32>)
func.func @depthwise(%i: tensor<1x8x9x9xf32>, %f: tensor<8x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x8x9x9xf32>, tensor<8x3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Max pooling: the window operand keeps its shape.

// CHECK-LABEL: func.func @max_pool
// CHECK:         linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x9x9x8xf32>, tensor<3x3xf32>) outs(%{{.+}} : tensor<1x4x4x8xf32>)
func.func @max_pool(%i: tensor<1x8x9x9xf32>) -> tensor<1x8x4x4xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %o = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %window : tensor<1x8x9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Channels-last, memref and dynamically shaped forms are left alone.

// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.transpose
func.func @left_alone(%i: tensor<1x6x6x4xf32>, %f: tensor<1x1x4x8xf32>, %o: tensor<1x6x6x8xf32>,
                      %mi: memref<1x4x6x6xf32>, %mf: memref<8x4x1x1xf32>, %mo: memref<1x8x6x6xf32>,
                      %di: tensor<?x4x6x6xf32>, %df: tensor<8x4x1x1xf32>, %do: tensor<?x8x6x6xf32>) -> (tensor<1x6x6x8xf32>, tensor<?x8x6x6xf32>) {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x6x6x4xf32>, tensor<1x1x4x8xf32>) outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%mi, %mf : memref<1x4x6x6xf32>, memref<8x4x1x1xf32>) outs(%mo : memref<1x8x6x6xf32>)
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%di, %df : tensor<?x4x6x6xf32>, tensor<8x4x1x1xf32>) outs(%do : tensor<?x8x6x6xf32>) -> tensor<?x8x6x6xf32>
  return %r, %d : tensor<1x6x6x8xf32>, tensor<?x8x6x6xf32>
}
