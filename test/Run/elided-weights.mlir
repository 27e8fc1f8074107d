// RUN: not tcl-run %s 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: tcl-run %s --fill-elided=3 --check --repeats=2 --warmup=1 | FileCheck %s

// Published IR elides its weights. Running such a module is a diagnostic
// at the weight, with the way out; --fill-elided=SEED fills them with seeded
// random values, positive where a square root reads them (the variance), so
// that the model can be timed and checked.

// ERROR: elided-weights.mlir:[[@LINE+9]]:8: error: 'arith.constant' holds elided values (dense_resource<__elided__> of type 'tensor<8x16xf32>' has no data in the file); tcl-run --fill-elided=SEED, or --tcl-tune="fill-elided=SEED", fills elided weights with seeded random values
// ERROR: elided-weights.mlir:[[@LINE+9]]:10: error: 'arith.constant' holds elided values

// CHECK-LABEL: tcl-run: {{.*}}elided-weights.mlir @forward
// CHECK: output #0:  4x16xf32, min {{-?[0-9]}}
// CHECK: check: output #0 (4x16xf32) matches the naive-loops reference
func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %w = arith.constant dense_resource<__elided__> : tensor<8x16xf32>
  %var = arith.constant dense_resource<__elided__> : tensor<16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %var : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %ve = arith.addf %v, %eps : f32
    %s = math.sqrt %ve : f32
    %r = arith.divf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
