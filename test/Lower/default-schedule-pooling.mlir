// RUN: tcl-opt %s --tcl-cpu-default-schedule="vector-width=8 row-tile=8" | FileCheck %s

// Pooling's channel dimension (a "batch" dimension to inferConvolutionDims)
// is the one to vectorize along in NHWC.

// CHECK-LABEL: func.func @max_pool_nhwc
// CHECK:         arith.maximumf {{.*}} : vector<1x8x{{8|16}}xf32>
// CHECK-NOT:     vector<1x8x1xf32>
func.func @max_pool_nhwc(%i: tensor<1x10x10x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %w : tensor<1x10x10x16xf32>, tensor<3x3xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
