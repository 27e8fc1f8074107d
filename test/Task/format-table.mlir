// RUN: tcl-opt %s --tcl-extract-tasks="format=table allow-unsupported=true" 2>/dev/null | FileCheck %s
// RUN: not tcl-opt %s --tcl-extract-tasks=format=yaml 2>&1 | FileCheck %s --check-prefix=BAD

// format=table prints one row per task, heaviest share of the FLOPs first
// (2 * 64*128*128 = 2097152 FLOPs; two 32^3 matmuls with a fused negation,
// 2 * (65536 + 1024); a bare one, 65536), then the unsupported ops and a
// totals line.

// CHECK:      # key kind loop bounds weight GFLOP share fused
// CHECK-NEXT: 1 {{([0-9a-f]{16})}} matmul 64x128x128 1 0.002 91.3% 0
// CHECK-NEXT: 2 {{([0-9a-f]{16})}} matmul 32x32x32 2 0.000 5.8% 1
// CHECK-NEXT: 3 {{([0-9a-f]{16})}} matmul 32x32x32 1 0.000 2.9% 0
// CHECK-NEXT: unsupported: linalg.exp at {{.*}}format-table.mlir:[[@LINE+21]]:8: dynamic shapes; tcl tunes static shapes only
// CHECK-NEXT: 3 tasks, 4 tunable ops, 1 unsupported, 0.002 GFLOP per run

// BAD: error: unknown report format 'yaml' (expected 'json' or 'table')
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<32x32xf32>, %c: tensor<32x32xf32>, %x: tensor<64x128xf32>, %y: tensor<128x128xf32>, %z: tensor<64x128xf32>,
             %d: tensor<?xf32>) -> (tensor<32x32xf32>, tensor<64x128xf32>, tensor<?xf32>) {
  %0 = linalg.matmul ins(%a, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<32x32xf32>
  %2 = linalg.matmul ins(%1, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<32x32xf32>
  %4 = linalg.matmul ins(%3, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %5 = linalg.matmul ins(%x, %y : tensor<64x128xf32>, tensor<128x128xf32>) outs(%z : tensor<64x128xf32>) -> tensor<64x128xf32>
  %6 = linalg.exp ins(%d : tensor<?xf32>) outs(%d : tensor<?xf32>) -> tensor<?xf32>
  return %4, %5, %6 : tensor<32x32xf32>, tensor<64x128xf32>, tensor<?xf32>
}
