func.func @forward(%a0: tensor<1x9x9x24xf32>, %a1: tensor<3x3x24xf32>) -> tensor<1x4x4x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a0, %a1 : tensor<1x9x9x24xf32>, tensor<3x3x24xf32>) outs(%init : tensor<1x4x4x24xf32>) -> tensor<1x4x4x24xf32>
  return %r : tensor<1x4x4x24xf32>
}
