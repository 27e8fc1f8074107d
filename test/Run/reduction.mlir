// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s

// Regression: plain reductions (no multiply to fold into vector.contract)
// become vector.multi_reduction, which the pipeline must lower.

// CHECK: check:      output #0 (16xf32) matches the naive-loops reference
// CHECK: check:      output #1 (1x64xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%x: tensor<16x64xf32>, %y: tensor<1x7x7x64xf32>) -> (tensor<16xf32>, tensor<1x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x64xf32>) outs(%o : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<1x64xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x64xf32>) -> tensor<1x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%y : tensor<1x7x7x64xf32>) outs(%o2 : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x64xf32>
  return %r, %s : tensor<16xf32>, tensor<1x64xf32>
}
