func.func @forward(%a0: tensor<37x53xf32>) -> tensor<37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%a0 : tensor<37x53xf32>) outs(%init : tensor<37xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<37xf32>
}
