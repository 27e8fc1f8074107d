// RUN: tcl-run %s --check --repeats=1 --warmup=0 --features=-avx2,-fma --json=%t.json | FileCheck %s
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON

// The host CPU with features switched off (AVX2 and FMA): narrower vectors,
// no fused multiply-add, same results.

// CHECK: check:      output #0 (1x8x8x16xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
// JSON: "cpu": "host",
// JSON: "features": "-avx2,-fma",
func.func @forward(%i: tensor<1x10x10x8xf32>, %f: tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
