func.func @forward(%a0: tensor<1x13x13x5xf32>, %a1: tensor<3x3x5x7xf32>) -> tensor<1x6x6x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x7xf32>) -> tensor<1x6x6x7xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a0, %a1 : tensor<1x13x13x5xf32>, tensor<3x3x5x7xf32>) outs(%init : tensor<1x6x6x7xf32>) -> tensor<1x6x6x7xf32>
  return %r : tensor<1x6x6x7xf32>
}
