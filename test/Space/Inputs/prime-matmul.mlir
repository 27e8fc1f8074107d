// A matmul whose sizes are prime (no tile divides them but 1 and the whole
// dimension): register tiles leave remainders that templates must peel.
func.func @forward(%a: tensor<37x53xf32>, %b: tensor<53x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x53xf32>, tensor<53x29xf32>) outs(%c : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %r : tensor<37x29xf32>
}
