// A convolution whose input is padded in the model and whose output gets a
// bias: the padding is not part of the task, the bias is (a fused consumer).
func.func @forward(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x32xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %empty = tensor.empty() : tensor<1x8x8x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv, %b : tensor<1x8x8x32xf32>, tensor<32xf32>) outs(%empty : tensor<1x8x8x32xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x32xf32>
  return %biased : tensor<1x8x8x32xf32>
}
