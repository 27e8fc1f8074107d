// A matmul and a generic whose payload reads a tensor of the enclosing
// function (as torch-mlir's adaptive average pooling does): that task cannot
// be outlined into a module of its own, so it is not tuned.
func.func @forward(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
     ins(%b : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %a[%j, %i] : tensor<64x64xf32>
    %s = arith.addf %v, %in : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %m, %t : tensor<64x64xf32>, tensor<64x64xf32>
}
