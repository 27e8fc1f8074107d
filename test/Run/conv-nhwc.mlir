// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=stem | FileCheck %s --check-prefix=STEM

// A padded 3x3 convolution with folded batch norm and ReLU (channels-last,
// filter HWCF), and ResNet's 7x7 stride-2 stem on a small image.

// CHECK: check:      output #0 (1x8x8x16xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
// STEM: check:      output #0 (1x16x16x16xf32) matches the naive-loops reference
// STEM-NOT: DIFFERS
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @forward(%x: tensor<1x8x8x8xf32>, %f: tensor<3x3x8x16xf32>, %scale: tensor<16xf32>, %shift: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x10x10x8xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%p, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %scale, %shift : tensor<1x8x8x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %0 = arith.mulf %v, %s : f32
    %1 = arith.addf %0, %t : f32
    %2 = arith.maximumf %1, %zero : f32
    linalg.yield %2 : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
func.func @stem(%x: tensor<1x38x38x3xf32>, %f: tensor<7x7x3x16xf32>) -> tensor<1x16x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%x, %f : tensor<1x38x38x3xf32>, tensor<7x7x3x16xf32>) outs(%acc : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %r : tensor<1x16x16x16xf32>
}
