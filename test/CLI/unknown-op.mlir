// RUN: not tcl-opt %s --tcl-extract-tasks 2>&1 | FileCheck %s

// An op that a registered dialect does not define.

// CHECK: unknown-op.mlir:[[@LINE+2]]:8: error: custom op 'linalg.matmul_frobnicate' is unknown
func.func @forward(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul_frobnicate ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
