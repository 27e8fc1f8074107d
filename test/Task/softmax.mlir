// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// linalg.softmax is one task: five operations per element (max, subtract,
// exp, sum, divide), one read and one write. It has no loops of its own
// before decomposition, so iterator_types and loop_bounds are empty.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "softmax": 1
// CHECK-NEXT:  },
// CHECK-NEXT:  "total_flops": 5120
// CHECK:       "arithmetic_intensity": 0.625,
// CHECK-NEXT:  "bytes": 8192,
// CHECK-NEXT:  "canonical_form": "softmax{dim=2}(tensor<2x16x32xf32>)",
// CHECK-NEXT:  "dtype": "f32",
// CHECK-NEXT:  "flops": 5120,
// CHECK-NEXT:  "fusable_consumers": [],
// CHECK-NEXT:  "iterator_types": [],
// CHECK-NEXT:  "key": "{{([0-9a-f]{16})}}",
// CHECK-NEXT:  "kind": "softmax",
// CHECK-NEXT:  "locations": [
// CHECK-NEXT:    "{{.*}}softmax.mlir:[[@LINE+11]]:8"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "loop_bounds": [],
// CHECK-NEXT:  "op": "linalg.softmax",
// CHECK-NEXT:  "operand_types": [
// CHECK-NEXT:    "tensor<2x16x32xf32>",
// CHECK-NEXT:    "tensor<2x16x32xf32>"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "weight": 1
func.func @softmax(%x: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %e = tensor.empty() : tensor<2x16x32xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %r : tensor<2x16x32xf32>
}

// -----

// The softmax dimension is part of the task: same shape, other dimension,
// other task.

// CHECK-LABEL: "summary"
// CHECK:       "num_occurrences": 3,
// CHECK-NEXT:  "num_tasks": 2,
// CHECK:       "canonical_form": "softmax{dim=2}(tensor<1x12x128x128xf32>)",
// CHECK:       "weight": 2
// CHECK:       "canonical_form": "softmax{dim=3}(tensor<1x12x128x128xf32>)",
// CHECK:       "weight": 1
func.func @attention_probs(%x: tensor<1x12x128x128xf32>, %y: tensor<1x12x128x128xf32>) -> (tensor<1x12x128x128xf32>, tensor<1x12x128x128xf32>, tensor<1x12x128x128xf32>) {
  %e = tensor.empty() : tensor<1x12x128x128xf32>
  %a = linalg.softmax dimension(2) ins(%x : tensor<1x12x128x128xf32>) outs(%e : tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  %b = linalg.softmax dimension(3) ins(%x : tensor<1x12x128x128xf32>) outs(%e : tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  %c = linalg.softmax dimension(2) ins(%y : tensor<1x12x128x128xf32>) outs(%e : tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  return %a, %b, %c : tensor<1x12x128x128xf32>, tensor<1x12x128x128xf32>, tensor<1x12x128x128xf32>
}
