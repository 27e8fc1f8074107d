// RUN: tcl-opt %s --split-input-file --tcl-unshare-fills | FileCheck %s

// Two matmuls initialised by one (CSE'd) zero fill: the second gets a fill
// of its own, on an empty of its own, right before it.

// CHECK-LABEL: func.func @two_writers
// CHECK:         %[[E1:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[F1:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E1]] : tensor<4x8xf32>)
// CHECK:         linalg.matmul {{.*}}outs(%[[F1]] : tensor<4x8xf32>)
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[F2:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E2]] : tensor<4x8xf32>)
// CHECK:         linalg.matmul {{.*}}outs(%[[F2]] : tensor<4x8xf32>)
func.func @two_writers(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m2 = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m1, %m2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A tiled op writes its fill through a loop's iter_args; a reader of the
// same fill keeps the original, so the loop gets a clone.

// CHECK-LABEL: func.func @loop_writer_and_reader
// CHECK:         %[[F:.+]] = linalg.fill
// CHECK:         %[[R:.+]] = linalg.add ins(%[[F]], %[[F]]
// CHECK:         %[[G:.+]] = linalg.fill
// CHECK:         scf.for {{.*}} iter_args(%{{.+}} = %[[G]])
func.func @loop_writer_and_reader(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.add ins(%f, %f : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %f) -> tensor<8xf32> {
    %v = tensor.extract %x[%i] : tensor<8xf32>
    %w = tensor.insert %v into %acc[%i] : tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  }
  return %sum, %r : tensor<8xf32>, tensor<8xf32>
}

// -----

// One writer: nothing to do.

// CHECK-LABEL: func.func @one_writer
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT:     linalg.fill
func.func @one_writer(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
