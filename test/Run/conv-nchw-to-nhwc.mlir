// RUN: tcl-run %s --channels-last=false --repeats=1 --warmup=0 > %t.nchw
// RUN: tcl-run %s --check --repeats=1 --warmup=0 > %t.nhwc
// RUN: cat %t.nchw %t.nhwc | FileCheck %s
// RUN: tcl-opt %s --tcl-convert-conv-to-nhwc | FileCheck %s --check-prefix=IR

// A torch-mlir-style residual block, channels-first: convolution, batch
// norm (per-channel constants), ReLU reading its input through a broadcast
// of the unit batch dim, padding, a second convolution, a residual add and
// a max pooling. Rewritten channels-last (the default schedule's rewrite),
// the same seeded inputs give the same outputs as the channels-first
// module, and each output matches the naive loops of the original.

// CHECK: output #0:  [[OUT:.*]]
// CHECK: vector ops: {{[1-9]}}
// CHECK: output #0:  [[OUT]]
// CHECK: check:      output #0 (1x16x5x5xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS

// Of the activations, only the input image and the result are transposed:
// batch norm, ReLU, the padding and the residual add run channels-last.
// IR-LABEL: func.func @forward
// IR:         linalg.transpose ins(%{{.+}} : tensor<1x8x12x12xf32>)
// IR:         linalg.transpose ins(%{{.+}} : tensor<16x8x3x3xf32>)
// IR-NOT:     linalg.transpose ins(%{{.+}} : tensor<1x
// IR:         tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// IR:         linalg.transpose ins(%{{.+}} : tensor<16x16x3x3xf32>)
// IR-NOT:     linalg.transpose ins(%{{.+}} : tensor<1x
// IR:         linalg.pooling_nhwc_max
// IR:         linalg.transpose ins(%{{.+}} : tensor<1x5x5x16xf32>)
// IR-NOT:     linalg.transpose
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
#unitbatch = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
func.func @forward(%x: tensor<1x8x12x12xf32>, %w1: tensor<16x8x3x3xf32>, %w2: tensor<16x16x3x3xf32>) -> tensor<1x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant dense<[0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0, 0.5, 1.0, 1.5, 2.0]> : tensor<16xf32>
  %shift = arith.constant dense<[0.1, -0.1, 0.2, -0.2, 0.3, -0.3, 0.4, -0.4, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3, 0.4, -0.4]> : tensor<16xf32>
  %e1 = tensor.empty() : tensor<1x16x10x10xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w1 : tensor<1x8x12x12xf32>, tensor<16x8x3x3xf32>) outs(%z1 : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %bn = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%c1, %scale, %shift : tensor<1x16x10x10xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<1x16x10x10xf32>) {
  ^bb0(%in: f32, %s: f32, %t: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    %a = arith.addf %m, %t : f32
    linalg.yield %a : f32
  } -> tensor<1x16x10x10xf32>
  %relu = linalg.generic {indexing_maps = [#unitbatch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%bn : tensor<1x16x10x10xf32>) outs(%e1 : tensor<1x16x10x10xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x10x10xf32>
  %padded = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x10x10xf32> to tensor<1x16x12x12xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%padded, %w2 : tensor<1x16x12x12xf32>, tensor<16x16x3x3xf32>) outs(%z1 : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%c2, %relu : tensor<1x16x10x10xf32>, tensor<1x16x10x10xf32>) outs(%e1 : tensor<1x16x10x10xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x16x10x10xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x16x5x5xf32>
  %low = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%sum, %window : tensor<1x16x10x10xf32>, tensor<2x2xf32>) outs(%low : tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xf32>
  return %pool : tensor<1x16x5x5xf32>
}
