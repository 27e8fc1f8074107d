func.func @forward(%a0: tensor<53x37xf32>) -> tensor<37xf32> {
  %ninf = arith.constant -3.4e38 : f32
  %e = tensor.empty() : tensor<37xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%a0 : tensor<53x37xf32>) outs(%init : tensor<37xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.maximumf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<37xf32>
}
