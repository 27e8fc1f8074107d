// Two matmul tasks; the second one's fused consumer takes the square root of
// a value tcl's random inputs always make negative, so its naive-loops
// reference is NaN and no candidate of it can be judged correct.
func.func @forward(%a: tensor<64x96xf32>, %b: tensor<96x80xf32>,
                   %c: tensor<64x48xf32>, %d: tensor<48x80xf32>)
    -> (tensor<64x80xf32>, tensor<64x80xf32>) {
  %zero = arith.constant 0.0 : f32
  %big = arith.constant 1000.0 : f32
  %init = tensor.empty() : tensor<64x80xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<64x80xf32>) -> tensor<64x80xf32>
  %good = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x80xf32>)
                        outs(%fill : tensor<64x80xf32>) -> tensor<64x80xf32>
  %prod = linalg.matmul ins(%c, %d : tensor<64x48xf32>, tensor<48x80xf32>)
                        outs(%fill : tensor<64x80xf32>) -> tensor<64x80xf32>
  %bad = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%prod : tensor<64x80xf32>) outs(%init : tensor<64x80xf32>) {
  ^bb0(%x: f32, %out: f32):
    %shifted = arith.subf %x, %big : f32
    %root = math.sqrt %shifted : f32
    linalg.yield %root : f32
  } -> tensor<64x80xf32>
  return %good, %bad : tensor<64x80xf32>, tensor<64x80xf32>
}
