// RUN: tcl-opt %s --split-input-file --tcl-vectorize-copies="vector-width=8" | FileCheck %s
// RUN: not tcl-opt %s --tcl-vectorize-copies="vector-width=0" 2>&1 | FileCheck %s --check-prefix=ZERO

// ZERO: vectorize-copies.mlir:{{[0-9]+}}:1: error: tcl-vectorize-copies: vector-width must be at least 1

// A pad's interior: rows of 20 channels into a strided subview move as two
// 8-wide vectors and one 4-wide remainder; the unit outer dimension gets no
// loop.

// CHECK-LABEL: func.func @pad_interior
// CHECK-NOT:     memref.copy
// CHECK:         scf.for %[[H:.+]] = %c0 to %c6 step %c1
// CHECK:           scf.for %[[W:.+]] = %c0 to %c5 step %c1
// CHECK:             scf.for %[[C:.+]] = %c0 to %c16 step %c8
// CHECK:               %[[V:.+]] = vector.load %{{.+}}[%c0, %[[H]], %[[W]], %[[C]]] : memref<1x6x5x20xf32>, vector<8xf32>
// CHECK:               vector.store %[[V]], %{{.+}}[%c0, %[[H]], %[[W]], %[[C]]] : memref<1x6x5x20xf32, strided<[1120, 140, 20, 1], offset: 160>>, vector<8xf32>
// CHECK:             }
// CHECK:             %[[T:.+]] = vector.load %{{.+}}[%c0, %[[H]], %[[W]], %c16] : memref<1x6x5x20xf32>, vector<4xf32>
// CHECK:             vector.store %[[T]], %{{.+}}[%c0, %[[H]], %[[W]], %c16]
func.func @pad_interior(%src: memref<1x6x5x20xf32>, %padded: memref<1x8x7x20xf32>) {
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 6, 5, 20] [1, 1, 1, 1]
      : memref<1x8x7x20xf32> to memref<1x6x5x20xf32, strided<[1120, 140, 20, 1], offset: 160>>
  memref.copy %src, %interior : memref<1x6x5x20xf32> to memref<1x6x5x20xf32, strided<[1120, 140, 20, 1], offset: 160>>
  return
}

// -----

// Rows shorter than a vector: one narrow vector per row.

// CHECK-LABEL: func.func @short_rows
// CHECK:         scf.for %[[I:.+]] = %c0 to %c4 step %c1
// CHECK-NEXT:      %[[V:.+]] = vector.load %{{.+}}[%[[I]], %c0] : memref<4x3xf32, strided<[5, 1], offset: 1>>, vector<3xf32>
// CHECK-NEXT:      vector.store %[[V]], %{{.+}}[%[[I]], %c0] : memref<4x3xf32>, vector<3xf32>
func.func @short_rows(%src: memref<4x3xf32, strided<[5, 1], offset: 1>>, %dst: memref<4x3xf32>) {
  memref.copy %src, %dst : memref<4x3xf32, strided<[5, 1], offset: 1>> to memref<4x3xf32>
  return
}

// -----

// Contiguous to contiguous is one memcpy already: kept.

// CHECK-LABEL: func.func @contiguous
// CHECK:         memref.copy
func.func @contiguous(%src: memref<4x16xf32>, %dst: memref<4x16xf32>) {
  memref.copy %src, %dst : memref<4x16xf32> to memref<4x16xf32>
  return
}

// -----

// A column (non-unit innermost stride) and a dynamic shape are kept for the
// runtime.

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: memref.copy
func.func @kept(%col: memref<4x1xf32, strided<[8, 2]>>, %dst: memref<4x1xf32>,
                %dyn: memref<?x16xf32, strided<[32, 1]>>, %ddst: memref<?x16xf32>) {
  memref.copy %col, %dst : memref<4x1xf32, strided<[8, 2]>> to memref<4x1xf32>
  memref.copy %dyn, %ddst : memref<?x16xf32, strided<[32, 1]>> to memref<?x16xf32>
  return
}

// -----

// A fill of a contiguous buffer is one row: collapsed, then 8-wide splat
// stores and a 4-wide remainder (4x5 = 20 elements).

// CHECK-LABEL: func.func @fill_contiguous
// CHECK-NOT:     linalg.fill
// CHECK:         %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0, 1]] : memref<4x5xf32> into memref<20xf32>
// CHECK-DAG:     %[[WIDE:.+]] = vector.broadcast %[[VALUE:.+]] : f32 to vector<8xf32>
// CHECK-DAG:     %[[NARROW:.+]] = vector.broadcast %[[VALUE]] : f32 to vector<4xf32>
// CHECK:         scf.for %[[C:.+]] = %c0 to %c16 step %c8
// CHECK-NEXT:      vector.store %[[WIDE]], %[[FLAT]][%[[C]]] : memref<20xf32>, vector<8xf32>
// CHECK:         vector.store %[[NARROW]], %[[FLAT]][%c16] : memref<20xf32>, vector<4xf32>
func.func @fill_contiguous(%value: f32, %dst: memref<4x5xf32>) {
  linalg.fill ins(%value : f32) outs(%dst : memref<4x5xf32>)
  return
}

// -----

// A strided buffer (a pad's border region) is filled row by row.

// CHECK-LABEL: func.func @fill_strided
// CHECK-NOT:     linalg.fill
// CHECK:         %[[SPLAT:.+]] = vector.broadcast %{{.+}} : f32 to vector<8xf32>
// CHECK:         scf.for %[[I:.+]] = %c0 to %c3 step %c1
// CHECK:           scf.for %[[C:.+]] = %c0 to %c16 step %c8
// CHECK-NEXT:        vector.store %[[SPLAT]], %{{.+}}[%[[I]], %[[C]]] : memref<3x16xf32, strided<[32, 1]>>, vector<8xf32>
func.func @fill_strided(%value: f32, %dst: memref<3x16xf32, strided<[32, 1]>>) {
  linalg.fill ins(%value : f32) outs(%dst : memref<3x16xf32, strided<[32, 1]>>)
  return
}

// -----

// Fills on tensors are the schedule's business: kept.

// CHECK-LABEL: func.func @fill_tensor
// CHECK:         linalg.fill
func.func @fill_tensor(%value: f32) -> tensor<4x16xf32> {
  %empty = tensor.empty() : tensor<4x16xf32>
  %filled = linalg.fill ins(%value : f32) outs(%empty : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %filled : tensor<4x16xf32>
}
