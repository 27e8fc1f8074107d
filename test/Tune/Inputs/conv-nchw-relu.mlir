func.func @forward(%x: tensor<1x16x18x18xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<1x32x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%x, %w : tensor<1x16x18x18xf32>, tensor<32x16x3x3xf32>) outs(%z : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
     ins(%c : tensor<1x32x16x16xf32>) outs(%e : tensor<1x32x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x16x16xf32>
  return %r : tensor<1x32x16x16xf32>
}
