// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=nchw | FileCheck %s --check-prefix=NCHW

// MobileNet's strided depthwise layer (NHWC) and the channels-first form.

// CHECK: check:      output #0 (1x7x7x24xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
// NCHW: check:      output #0 (1x24x8x8xf32) matches the naive-loops reference
// NCHW-NOT: DIFFERS
func.func @forward(%i: tensor<1x15x15x24xf32>, %f: tensor<3x3x24xf32>) -> tensor<1x7x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x24xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %f : tensor<1x15x15x24xf32>, tensor<3x3x24xf32>) outs(%o : tensor<1x7x7x24xf32>) -> tensor<1x7x7x24xf32>
  return %r : tensor<1x7x7x24xf32>
}
func.func @nchw(%i: tensor<1x24x10x10xf32>, %f: tensor<24x3x3xf32>) -> tensor<1x24x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x24x10x10xf32>, tensor<24x3x3xf32>) outs(%o : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  return %r : tensor<1x24x8x8xf32>
}
