func.func @forward(%a0: tensor<1x3x11x11xf32>, %a1: tensor<5x3x3x3xf32>) -> tensor<1x5x9x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x9x9xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x9x9xf32>) -> tensor<1x5x9x9xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a0, %a1 : tensor<1x3x11x11xf32>, tensor<5x3x3x3xf32>) outs(%init : tensor<1x5x9x9xf32>) -> tensor<1x5x9x9xf32>
  return %r : tensor<1x5x9x9xf32>
}
