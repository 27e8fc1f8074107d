// RUN: tcl-opt %s --tcl-decompose-aggregates | FileCheck %s
// RUN: tcl-opt %s --tcl-decompose-aggregates --tcl-extract-tasks | FileCheck %s --check-prefix=TASKS

// linalg.softmax becomes the four generics it stands for: a max reduction,
// exp(x - max), a sum reduction and a division, each along the softmax
// dimension.

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.+]]: tensor<2x16x32xf32>)
// CHECK:         %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x16x32xf32>) outs(%{{.+}} : tensor<2x16xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<2x16x32xf32>, tensor<2x16xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[EXP]] : tensor<2x16x32xf32>)
// CHECK:           arith.addf
// CHECK:         %[[DIV:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[EXP]], %[[SUM]] : tensor<2x16x32xf32>, tensor<2x16xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[DIV]]
// CHECK-NOT:     linalg.softmax

// After decomposition the tasks are two reductions and two elementwise ops.
// TASKS:      "occurrences_by_kind": {
// TASKS-NEXT:   "elementwise": 2,
// TASKS-NEXT:   "reduction": 2
// TASKS-NEXT: },
func.func @softmax(%x: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %e = tensor.empty() : tensor<2x16x32xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %r : tensor<2x16x32xf32>
}
