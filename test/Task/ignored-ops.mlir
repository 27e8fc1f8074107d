// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks 2>&1 | FileCheck %s

// linalg.fill and the tensor/arith glue around linalg ops (empty, pad,
// reshapes, constants) are not tasks, and are not reported as unsupported.

// CHECK-NOT:   warning
// CHECK-LABEL: "summary"
// CHECK-NEXT:    "num_occurrences": 0,
// CHECK-NEXT:    "num_tasks": 0,
// CHECK-NEXT:    "num_unsupported": 0,
// CHECK-NEXT:    "occurrences_by_kind": {},
// CHECK-NEXT:    "total_flops": 0
// CHECK-NEXT:  },
// CHECK-NEXT:  "tasks": [],
// CHECK-NEXT:  "unsupported": []
func.func @glue(%x: tensor<1x4x4x8xf32>) -> tensor<1x36x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %cst : f32
  } : tensor<1x4x4x8xf32> to tensor<1x6x6x8xf32>
  %c = tensor.collapse_shape %p [[0], [1, 2], [3]] : tensor<1x6x6x8xf32> into tensor<1x36x8xf32>
  return %c : tensor<1x36x8xf32>
}

// -----

// A fill next to a matmul: only the matmul is a task.

// CHECK-LABEL: "summary"
// CHECK:       "num_occurrences": 1,
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "matmul": 1
// CHECK-NEXT:  },
// CHECK-NOT:   "op": "linalg.fill"
// CHECK:       "unsupported": []
func.func @fill_and_matmul(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// An empty module, and one with only a declaration, give an empty report.

// CHECK-LABEL: "summary"
// CHECK:       "num_tasks": 0,
// CHECK:       "tasks": [],
// CHECK-NEXT:  "unsupported": []
module {
}

// -----

// CHECK-LABEL: "summary"
// CHECK:       "num_tasks": 0,
// CHECK:       "tasks": [],
// CHECK-NEXT:  "unsupported": []
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
