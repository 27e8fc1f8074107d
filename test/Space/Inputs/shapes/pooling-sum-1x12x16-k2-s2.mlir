func.func @forward(%a0: tensor<1x12x12x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a0, %w : tensor<1x12x12x16xf32>, tensor<2x2xf32>) outs(%init : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  return %r : tensor<1x6x6x16xf32>
}
