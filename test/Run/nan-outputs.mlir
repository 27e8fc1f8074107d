// Outputs that are NaN in the reference too (rsqrt of the negative half of
// the random inputs) match, and travel through the isolated child's report.
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --cores=0 | FileCheck %s

// CHECK: tcl-run: {{.*}}nan-outputs.mlir @forward, schedule default, 1 thread(s)
// CHECK: output #0:  64x32xf32, min nan, max nan, mean nan
// CHECK: check: output #0 (64x32xf32) matches the naive-loops reference
func.func @forward(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %init = tensor.empty() : tensor<64x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x32xf32>) outs(%init : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.rsqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
