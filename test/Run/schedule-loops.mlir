// RUN: tcl-run %s --check --repeats=1 --warmup=0 --schedule=loops | FileCheck %s

// The naive schedule against itself: bit-identical.

// CHECK: tcl-run: {{.*}}schedule-loops.mlir @forward, schedule loops, 1 thread(s)
// CHECK: check:      output #0 (1x6x6x8xf32) matches the naive-loops reference: max abs err 0.00E+00, max rel err 0.00E+00
func.func @forward(%i: tensor<1x8x8x4xf32>, %f: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %r : tensor<1x6x6x8xf32>
}
