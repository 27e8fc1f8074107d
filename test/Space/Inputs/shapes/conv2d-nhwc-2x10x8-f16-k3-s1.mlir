func.func @forward(%a0: tensor<2x10x10x8xf32>, %a1: tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a0, %a1 : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%init : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  return %r : tensor<2x8x8x16xf32>
}
