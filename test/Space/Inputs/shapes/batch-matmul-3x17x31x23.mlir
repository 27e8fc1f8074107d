func.func @forward(%a0: tensor<3x17x31xf32>, %a1: tensor<3x31x23xf32>) -> tensor<3x17x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x23xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  %r = linalg.batch_matmul ins(%a0, %a1 : tensor<3x17x31xf32>, tensor<3x31x23xf32>) outs(%init : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  return %r : tensor<3x17x23xf32>
}
