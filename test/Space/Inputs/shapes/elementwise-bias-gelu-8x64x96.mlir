func.func @forward(%a0: tensor<8x64x96xf32>, %a1: tensor<96xf32>) -> tensor<8x64x96xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a0, %a1 : tensor<8x64x96xf32>, tensor<96xf32>) outs(%e : tensor<8x64x96xf32>) {
  ^bb0(%x: f32, %bias: f32, %o: f32):
    %s = arith.addf %x, %bias : f32
    %t = math.tanh %s : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %s, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<8x64x96xf32>
  return %r : tensor<8x64x96xf32>
}
