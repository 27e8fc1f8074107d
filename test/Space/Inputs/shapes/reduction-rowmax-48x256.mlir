func.func @forward(%a0: tensor<48x256xf32>) -> tensor<48xf32> {
  %ninf = arith.constant -3.4e38 : f32
  %e = tensor.empty() : tensor<48xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
  %r = linalg.reduce ins(%a0 : tensor<48x256xf32>) outs(%init : tensor<48xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<48xf32>
}
