// Two small tasks (a matmul with a fused relu, and a 3x3 convolution) whose
// candidates compile and run in well under a second.
func.func @forward(%a: tensor<64x96xf32>, %b: tensor<96x80xf32>,
                   %image: tensor<1x10x10x16xf32>,
                   %filter: tensor<3x3x16x32xf32>)
    -> (tensor<64x80xf32>, tensor<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x80xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<64x80xf32>) -> tensor<64x80xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x80xf32>)
                     outs(%fill : tensor<64x80xf32>) -> tensor<64x80xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<64x80xf32>) outs(%init : tensor<64x80xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x80xf32>
  %convInit = tensor.empty() : tensor<1x8x8x32xf32>
  %convFill = linalg.fill ins(%zero : f32) outs(%convInit : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%image, %filter : tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>)
      outs(%convFill : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %relu, %conv : tensor<64x80xf32>, tensor<1x8x8x32xf32>
}
