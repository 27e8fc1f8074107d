func.func @forward(%a0: tensor<1x11x11x13xf32>) -> tensor<1x5x5x13xf32> {
  %ninf = arith.constant -3.4e38 : f32
  %e = tensor.empty() : tensor<1x5x5x13xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x5x5x13xf32>) -> tensor<1x5x5x13xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a0, %w : tensor<1x11x11x13xf32>, tensor<3x3xf32>) outs(%init : tensor<1x5x5x13xf32>) -> tensor<1x5x5x13xf32>
  return %r : tensor<1x5x5x13xf32>
}
