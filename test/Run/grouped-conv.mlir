// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s

// Channels-first grouped convolution: tiled but not vectorized by the
// default schedule.

// CHECK: check:      output #0 (1x2x6x6x6xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%i: tensor<1x2x4x8x8xf32>, %f: tensor<6x2x4x3x3xf32>) -> tensor<1x2x6x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x6x6x6xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x6x6x6xf32>) -> tensor<1x2x6x6x6xf32>
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x2x4x8x8xf32>, tensor<6x2x4x3x3xf32>) outs(%o : tensor<1x2x6x6x6xf32>) -> tensor<1x2x6x6x6xf32>
  return %r : tensor<1x2x6x6x6xf32>
}
