func.func @forward(%a0: tensor<48x64xf32>, %a1: tensor<64x80xf32>, %bias: tensor<80xf32>) -> tensor<48x80xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x80xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<48x80xf32>) -> tensor<48x80xf32>
  %c = linalg.matmul ins(%a0, %a1 : tensor<48x64xf32>, tensor<64x80xf32>) outs(%init : tensor<48x80xf32>) -> tensor<48x80xf32>
  %e2 = tensor.empty() : tensor<48x80xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : tensor<48x80xf32>, tensor<80xf32>) outs(%e2 : tensor<48x80xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<48x80xf32>
  return %r : tensor<48x80xf32>
}
