// RUN: not tcl-run %s --entry=dynamic 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not tcl-run %s --entry=scalar 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not tcl-run %s --entry=half 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not tcl-run %s --entry=dynamic_result 2>&1 | FileCheck %s --check-prefix=RESULT

// tcl-run feeds random statically shaped tensors: an entry point with any
// other argument or result type is rejected at the function, with the
// argument's position and type, before anything is compiled.

// DYN: tcl-run-signature.mlir:[[@LINE+3]]:1: error: argument #0 has type 'tensor<?x32xf32>'; tcl runs functions on statically shaped tensors
// DYN-NOT: see current operation
// DYN-NOT: latency
func.func @dynamic(%a: tensor<?x32xf32>, %b: tensor<32x16xf32>, %c: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// SCALAR: tcl-run-signature.mlir:[[@LINE+1]]:1: error: argument #1 has type 'f32'; tcl runs functions on statically shaped tensors
func.func @scalar(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// HALF: tcl-run-signature.mlir:[[@LINE+1]]:1: error: argument #0: unsupported element type 'f16' (expected f32, f64, i8, i32 or i64)
func.func @half(%a: tensor<4x4xf16>) -> tensor<4x4xf16> {
  return %a : tensor<4x4xf16>
}

// RESULT: tcl-run-signature.mlir:[[@LINE+1]]:1: error: result #0 has type 'tensor<?xf32>'
func.func @dynamic_result(%a: tensor<4xf32>) -> tensor<?xf32> {
  %r = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}
