// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=fhwc | FileCheck %s --check-prefix=FHWC

// Channels-first convolution with different strides and dilations per
// spatial dimension, batch 2; and the NHWC/FHWC layout.

// CHECK: check:      output #0 (2x16x7x8xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
// FHWC: check:      output #0 (1x8x8x16xf32) matches the naive-loops reference
// FHWC-NOT: DIFFERS
func.func @forward(%i: tensor<2x8x16x16xf32>, %f: tensor<16x8x3x5xf32>) -> tensor<2x16x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x7x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x7x8xf32>) -> tensor<2x16x7x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
     ins(%i, %f : tensor<2x8x16x16xf32>, tensor<16x8x3x5xf32>) outs(%o : tensor<2x16x7x8xf32>) -> tensor<2x16x7x8xf32>
  return %r : tensor<2x16x7x8xf32>
}
func.func @fhwc(%i: tensor<1x10x10x8xf32>, %f: tensor<16x3x3x8xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x10x10x8xf32>, tensor<16x3x3x8xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
