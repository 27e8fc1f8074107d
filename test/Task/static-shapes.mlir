// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s --check-prefix=EXTRACT
// RUN: tcl-opt %s --split-input-file --tcl-print-space | FileCheck %s --check-prefix=SPACE
// RUN: tcl-opt %s --split-input-file --tcl-cpu-space=output=/dev/null | FileCheck %s --check-prefix=ANNOTATED

// Static shapes in dynamic disguise (a tensor.empty of a constant size, a
// cast to `?`), as frontends write them, are made static before tasks are
// looked for: every pass finds the same task.

// EXTRACT: "num_tasks": 1,
// EXTRACT-NEXT: "num_unsupported": 0,
// SPACE: @tcl_{{[0-9a-f]+}} (matmul
// ANNOTATED-LABEL: func.func @disguised
// ANNOTATED: linalg.matmul {tcl.task = "{{[0-9a-f]+}}"} ins({{.*}} : tensor<64x32xf32>, tensor<32x16xf32>)
func.func @disguised(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<?x16xf32> {
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %cast = tensor.cast %a : tensor<64x32xf32> to tensor<?x32xf32>
  %e = tensor.empty(%c64) : tensor<?x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = linalg.matmul ins(%cast, %b : tensor<?x32xf32>, tensor<32x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %m : tensor<?x16xf32>
}
