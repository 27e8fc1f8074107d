// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --num-threads=2 | FileCheck %s

// A strided channels-last grouped convolution (ResNeXt's first block of a
// stage: 3x3, stride 2, 8 groups of 4 channels) with its bias-and-ReLU
// epilogue, which the default schedule runs as per-group vector
// contractions on strided slices: it must match the naive loops.

// CHECK: check:      output #0 (1x7x7x8x4xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%x: tensor<1x15x15x8x4xf32>, %w: tensor<8x4x3x3x4xf32>, %bias: tensor<8x4xf32>) -> tensor<1x7x7x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x8x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x8x4xf32>) -> tensor<1x7x7x8x4xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%x, %w : tensor<1x15x15x8x4xf32>, tensor<8x4x3x3x4xf32>) outs(%acc : tensor<1x7x7x8x4xf32>) -> tensor<1x7x7x8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>,
                                        affine_map<(n, h, w, g, f) -> (g, f)>,
                                        affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x7x7x8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<1x7x7x8x4xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x8x4xf32>
  return %r : tensor<1x7x7x8x4xf32>
}
