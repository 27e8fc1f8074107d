// RUN: tcl-opt %s --split-input-file --tcl-cpu-default-schedule="vector-width=8 row-tile=8" | FileCheck %s
// RUN: tcl-opt %s --split-input-file --tcl-cpu-default-schedule="vector-width=4 row-tile=4" | FileCheck %s --check-prefix=SMALL

// The default matmul schedule: an (row-tile) x (2 vector widths) register
// tile of C, loaded once, accumulated with vector.contract over k one step at
// a time (the accumulator is carried by the k loop), then stored once.

// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         scf.for %[[I:.+]] = %[[C0]] to %[[C64]] step %[[C8]]
// CHECK:           %[[ACC:.+]] = vector.transfer_read {{.*}} : tensor<{{64x16|8x16}}xf32>, vector<8x16xf32>
// CHECK:           scf.for %[[K:.+]] = %[[C0]] to %[[C32]] step %[[C1]] iter_args({{.*}}%[[VACC:[^ ]+]] = %[[ACC]]
// CHECK:             %[[A:.+]] = vector.transfer_read %{{.+}}[%[[I]], %[[K]]]{{.*}} : tensor<64x32xf32>, vector<8x1xf32>
// CHECK:             %[[B:.+]] = vector.transfer_read %{{.+}}[%[[K]], %[[C0]]]{{.*}} : tensor<32x16xf32>, vector<1x16xf32>
// CHECK:             vector.contract {{.*}}kind = #vector.kind<add>} %[[A]], %[[B]], %[[VACC]] : vector<8x1xf32>, vector<1x16xf32> into vector<8x16xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<8x16xf32>, tensor<{{64x16|8x16}}xf32>
// CHECK-NOT:     linalg.matmul

// SMALL-LABEL: func.func @matmul
// SMALL:         scf.for
// SMALL:           scf.for
// SMALL:             vector.transfer_read {{.*}} : tensor<{{64x16|4x8}}xf32>, vector<4x8xf32>
// SMALL:             vector.contract {{.*}} : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
// SMALL-NOT:     linalg.matmul
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// Tile sizes always divide the loop bounds (no partial tiles, no dynamic
// shapes): 12 rows take 6-row tiles, 20 columns 10-column tiles. Column
// tiles go outside row tiles, so one panel of B stays in cache.

// CHECK-LABEL: func.func @not_divisible
// CHECK:         scf.for {{.*}} step %c10
// CHECK:           scf.for {{.*}} step %c6
// CHECK:             vector.transfer_read {{.*}} vector<6x10xf32>
// CHECK:             scf.for {{.*}} step %c1
// CHECK:               vector.contract {{.*}} : vector<6x1xf32>, vector<1x10xf32> into vector<6x10xf32>
// CHECK-NOT:     tensor<?x
func.func @not_divisible(%a: tensor<12x7xf32>, %b: tensor<7x20xf32>, %c: tensor<12x20xf32>) -> tensor<12x20xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<12x7xf32>, tensor<7x20xf32>) outs(%c : tensor<12x20xf32>) -> tensor<12x20xf32>
  return %r : tensor<12x20xf32>
}

// -----

// batch_matmul: one batch at a time, same register tile.

// CHECK-LABEL: func.func @batch_matmul
// CHECK:         scf.for {{.*}} = %c0 to %c4 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c32 step %c16
// CHECK:             %[[BACC:.+]] = vector.transfer_read {{.*}} : tensor<{{4x8x32|1x8x16}}xf32>, vector<1x8x16xf32>
// CHECK:             scf.for {{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}%{{[^ ]+}} = %[[BACC]]
// CHECK:               vector.contract {{.*}} : vector<1x8x1xf32>, vector<1x1x16xf32> into vector<1x8x16xf32>
// CHECK-NOT:     linalg.batch_matmul
func.func @batch_matmul(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>, %c: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}
