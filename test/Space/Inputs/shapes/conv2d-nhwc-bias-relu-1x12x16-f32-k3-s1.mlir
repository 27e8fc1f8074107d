func.func @forward(%a0: tensor<1x12x12x16xf32>, %a1: tensor<3x3x16x32xf32>, %bias: tensor<32xf32>) -> tensor<1x10x10x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x10x10x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a0, %a1 : tensor<1x12x12x16xf32>, tensor<3x3x16x32xf32>) outs(%init : tensor<1x10x10x32xf32>) -> tensor<1x10x10x32xf32>
  %e2 = tensor.empty() : tensor<1x10x10x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<1x10x10x32xf32>, tensor<32xf32>) outs(%e2 : tensor<1x10x10x32xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x10x10x32xf32>
  return %r : tensor<1x10x10x32xf32>
}
