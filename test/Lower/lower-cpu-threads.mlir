// RUN: tcl-opt %s --tcl-cpu-default-schedule="vector-width=8 row-tile=8 threads=4" | FileCheck %s --check-prefix=SCHED
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3 threads=4" | FileCheck %s
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3 threads=1" | FileCheck %s --check-prefix=ONE

// threads > 1 splits the outermost evenly divisible parallel loop into that
// many scf.forall iterations (256 rows: 4 chunks of 64), which tcl-lower-cpu
// turns into an OpenMP parallel loop.

// SCHED-LABEL: func.func @forward
// SCHED:         scf.forall (%{{.+}}) = (0) to (256) step (64) shared_outs(
// SCHED:           scf.for {{.*}} = %c0 to %c64 step %c8
// SCHED:             vector.contract
// SCHED:           scf.forall.in_parallel {
// SCHED-NEXT:        tensor.parallel_insert_slice {{.*}} [64, 256] [1, 1] : tensor<64x256xf32> into tensor<256x256xf32>

// CHECK-LABEL: llvm.func @forward(
// CHECK:         omp.parallel num_threads(
// CHECK:           omp.wsloop
// CHECK-LABEL: llvm.func @_mlir_ciface_forward(

// ONE-NOT: omp.
func.func @forward(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
