// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s

// Global average pooling as the zoo writes it: scale and accumulate over H
// and W in one reduction (channels innermost). The multiply-accumulate tile
// becomes a vector.contract, so this reduction runs with the default
// schedule (plain sums do not: see reduction.mlir).

// CHECK: check:      output #0 (1x64xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
func.func @forward(%x: tensor<1x7x7x64xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.0204081628 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, c)>],
                       iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : tensor<1x7x7x64xf32>) outs(%o : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %inv : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x64xf32>
  return %r : tensor<1x64xf32>
}
