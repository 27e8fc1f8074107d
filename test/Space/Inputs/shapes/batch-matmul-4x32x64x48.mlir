func.func @forward(%a0: tensor<4x32x64xf32>, %a1: tensor<4x64x48xf32>) -> tensor<4x32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32x48xf32>) -> tensor<4x32x48xf32>
  %r = linalg.batch_matmul ins(%a0, %a1 : tensor<4x32x64xf32>, tensor<4x64x48xf32>) outs(%init : tensor<4x32x48xf32>) -> tensor<4x32x48xf32>
  return %r : tensor<4x32x48xf32>
}
