func.func @forward(%a0: tensor<1x97xf32>, %a1: tensor<97x200xf32>) -> tensor<1x200xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x200xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x200xf32>) -> tensor<1x200xf32>
  %r = linalg.matmul ins(%a0, %a1 : tensor<1x97xf32>, tensor<97x200xf32>) outs(%init : tensor<1x200xf32>) -> tensor<1x200xf32>
  return %r : tensor<1x200xf32>
}
