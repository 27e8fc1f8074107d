// RUN: tcl-opt %s --split-input-file --tcl-cpu-default-schedule="vector-width=8 row-tile=6" | FileCheck %s

// An extent with no divisor that fills half a register tile (ViT's 197
// tokens) is tiled by the full tile and the last, partial tile is peeled
// into code of its own: both are static and vectorized. Divisors of one
// would re-read B once per row of A.

// CHECK-LABEL: func.func @prime_rows
// CHECK:         scf.for %[[N:.+]] = %c0 to %c40 step %c10
// CHECK:           scf.for %[[M:.+]] = %c0 to %c18 step %c6
// CHECK:             vector.transfer_read %{{.+}}[%[[M]], %[[N]]]{{.*}} : tensor<23x40xf32>, vector<6x10xf32>
// CHECK:             vector.contract {{.*}} : vector<6x1xf32>, vector<1x10xf32> into vector<6x10xf32>
// CHECK:           vector.transfer_read %{{.+}}[%c18, %[[N]]]{{.*}} : tensor<23x40xf32>, vector<5x10xf32>
// CHECK:           vector.contract {{.*}} : vector<5x1xf32>, vector<1x10xf32> into vector<5x10xf32>
// CHECK-NOT:     linalg.matmul
func.func @prime_rows(%a: tensor<23x32xf32>, %b: tensor<32x40xf32>) -> tensor<23x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<23x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<23x40xf32>) -> tensor<23x40xf32>
  %m = linalg.matmul ins(%a, %b : tensor<23x32xf32>, tensor<32x40xf32>) outs(%f : tensor<23x40xf32>) -> tensor<23x40xf32>
  return %m : tensor<23x40xf32>
}

// -----

// Prime columns too (attention scores against 23 keys): a 16-wide tile and
// a 7-wide remainder.

// CHECK-LABEL: func.func @prime_columns
// CHECK:         scf.for %{{.+}} = %c0 to %c12 step %c6
// CHECK:           vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// CHECK:         scf.for %{{.+}} = %c0 to %c12 step %c6
// CHECK:           vector.contract {{.*}} : vector<6x1xf32>, vector<1x7xf32> into vector<6x7xf32>
// CHECK-NOT:     linalg.matmul
func.func @prime_columns(%a: tensor<12x32xf32>, %b: tensor<32x23xf32>) -> tensor<12x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x23xf32>) -> tensor<12x23xf32>
  %m = linalg.matmul ins(%a, %b : tensor<12x32xf32>, tensor<32x23xf32>) outs(%f : tensor<12x23xf32>) -> tensor<12x23xf32>
  return %m : tensor<12x23xf32>
}

// -----

// 35 rows keep their divisor 5, at least half the row tile: no remainder.

// CHECK-LABEL: func.func @good_divisor
// CHECK:         scf.for %{{.+}} = %c0 to %c35 step %c5
// CHECK-NOT:     into vector<{{[0-46-9]}}x16xf32>
func.func @good_divisor(%a: tensor<35x32xf32>, %b: tensor<32x16xf32>) -> tensor<35x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<35x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<35x16xf32>) -> tensor<35x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<35x32xf32>, tensor<32x16xf32>) outs(%f : tensor<35x16xf32>) -> tensor<35x16xf32>
  return %m : tensor<35x16xf32>
}
