func.func @forward(%a0: tensor<3x17x31xf32>) -> tensor<31x3x17xf32> {
  %e = tensor.empty() : tensor<31x3x17xf32>
  %r = linalg.transpose ins(%a0 : tensor<3x17x31xf32>) outs(%e : tensor<31x3x17xf32>) permutation = [2, 0, 1]
  return %r : tensor<31x3x17xf32>
}
