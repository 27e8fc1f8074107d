// RUN: not tcl-opt %s --tcl-lower-cpu="schedule=fastest" 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not tcl-opt %s --tcl-lower-cpu="cpu=not-a-cpu" 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not tcl-opt %s --tcl-lower-cpu="features=avx2" 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not tcl-opt %s --tcl-lower-cpu="threads=0" 2>&1 | FileCheck %s --check-prefix=THREADS

// --tcl-lower-cpu with an invalid option fails with a diagnostic and a
// non-zero exit.

// SCHEDULE: tcl-lower-cpu: unknown schedule 'fastest' (expected 'default', 'loops' or a schedule file ending in .mlir)
// SCHEDULE-NOT: func.func
// CPU: tcl-lower-cpu: unknown CPU 'not-a-cpu'
// CPU-NOT: func.func
// FEATURE: tcl-lower-cpu: feature 'avx2' must be written as +name or -name
// FEATURE-NOT: func.func
// THREADS: tcl-lower-cpu: threads must be at least 1
// THREADS-NOT: func.func
func.func @forward(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
