func.func @forward(%a0: tensor<64x128xf32>, %a1: tensor<128x96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.matmul ins(%a0, %a1 : tensor<64x128xf32>, tensor<128x96xf32>) outs(%init : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
