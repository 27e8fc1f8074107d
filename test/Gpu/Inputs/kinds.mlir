// One task of each kind the GPU templates cover, at ResNet-50 and BERT-base
// sizes, for the tests of test/Gpu.
func.func @matmul(%a: tensor<256x384xf32>, %b: tensor<384x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x384xf32>, tensor<384x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
func.func @batch_matmul(%a: tensor<12x128x64xf32>, %b: tensor<12x64x128xf32>, %c: tensor<12x128x128xf32>) -> tensor<12x128x128xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%c : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  return %r : tensor<12x128x128xf32>
}
func.func @conv2d(%x: tensor<1x30x30x64xf32>, %w: tensor<3x3x64x64xf32>, %o: tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x30x30x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  return %r : tensor<1x28x28x64xf32>
}
func.func @depthwise(%x: tensor<1x58x58x32xf32>, %w: tensor<3x3x32xf32>, %o: tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x58x58x32xf32>, tensor<3x3x32xf32>) outs(%o : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
  return %r : tensor<1x56x56x32xf32>
}
func.func @pooling(%x: tensor<1x113x113x64xf32>, %o: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %window = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<1x113x113x64xf32>, tensor<3x3xf32>) outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}
func.func @elementwise(%x: tensor<128x768xf32>, %bias: tensor<768xf32>, %o: tensor<128x768xf32>) -> tensor<128x768xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %bias : tensor<128x768xf32>, tensor<768xf32>) outs(%o : tensor<128x768xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %zero = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<128x768xf32>
  return %r : tensor<128x768xf32>
}
func.func @reduction(%x: tensor<512x768xf32>, %o: tensor<512xf32>) -> tensor<512xf32> {
  %r = linalg.reduce ins(%x : tensor<512x768xf32>) outs(%o : tensor<512xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<512xf32>
}
