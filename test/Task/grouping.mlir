// RUN: tcl-opt %s --tcl-extract-tasks | FileCheck %s

// Identical ops form one task: weight counts the occurrences, locations
// lists each of them in program order, and total_flops weighs each task.
// Three 32x32x32 matmuls in two functions and a different-shape matmul.

// CHECK-LABEL: "summary"
// CHECK-NEXT:    "num_occurrences": 4,
// CHECK-NEXT:    "num_tasks": 2,
// CHECK-NEXT:    "num_unsupported": 0,
// CHECK-NEXT:    "occurrences_by_kind": {
// CHECK-NEXT:      "matmul": 4
// CHECK-NEXT:    },
// CHECK-NEXT:    "total_flops": 229376
// CHECK:         "flops": 65536,
// CHECK:         "key": "[[K1:([0-9a-f]{16})]]",
// CHECK-NEXT:    "kind": "matmul",
// CHECK-NEXT:    "locations": [
// CHECK-NEXT:      "{{.*}}grouping.mlir:[[@LINE+18]]:8",
// CHECK-NEXT:      "{{.*}}grouping.mlir:[[@LINE+18]]:8",
// CHECK-NEXT:      "{{.*}}grouping.mlir:[[@LINE+22]]:8"
// CHECK-NEXT:    ],
// CHECK:         "weight": 3
// CHECK-NEXT:  },
// CHECK-NEXT:  {
// CHECK:         "flops": 32768,
// CHECK-NOT:     "key": "[[K1]]",
// CHECK:         "kind": "matmul",
// CHECK-NEXT:    "locations": [
// CHECK-NEXT:      "{{.*}}grouping.mlir:[[@LINE+14]]:8"
// CHECK-NEXT:    ],
// CHECK:         "weight": 1
// CHECK-NEXT:  }
// CHECK-NEXT: ],

func.func @first(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.matmul ins(%0, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}

func.func @second(%x: tensor<32x32xf32>, %y: tensor<32x32xf32>, %z: tensor<32x32xf32>, %w: tensor<32x16xf32>, %v: tensor<32x16xf32>) -> (tensor<32x32xf32>, tensor<32x16xf32>) {
  %0 = linalg.matmul ins(%x, %y : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x16xf32>) outs(%v : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0, %1 : tensor<32x32xf32>, tensor<32x16xf32>
}
