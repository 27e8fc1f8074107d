// RUN: tcl-run %s --repeats=1 --warmup=0 > %t.nchw
// RUN: tcl-opt %s --tcl-convert-conv-to-nhwc -o %t.nhwc.mlir
// RUN: tcl-run %t.nhwc.mlir --check --repeats=1 --warmup=0 > %t.nhwc
// RUN: cat %t.nchw %t.nhwc | FileCheck %s

// The converted module computes what the channels-first one does: the same
// seeded inputs give the same outputs, and its vectorized NHWC schedule
// matches its own naive loops. The first run prints the reference.

// CHECK: output #0:  [[OUT:.*]]
// CHECK: vector ops: {{[1-9]}}
// CHECK: output #0:  [[OUT]]
// CHECK: check:      output #0 (2x16x7x8xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%i: tensor<2x8x16x16xf32>, %f: tensor<16x8x3x5xf32>) -> tensor<2x16x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x7x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x7x8xf32>) -> tensor<2x16x7x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
     ins(%i, %f : tensor<2x8x16x16xf32>, tensor<16x8x3x5xf32>) outs(%o : tensor<2x16x7x8xf32>) -> tensor<2x16x7x8xf32>
  return %r : tensor<2x16x7x8xf32>
}
