// RUN: not tcl-run %s --cpu=not-a-cpu 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not tcl-run %s --features=avx2 2>&1 | FileCheck %s --check-prefix=SIGN
// RUN: not tcl-run %s --features=-no-such-feature 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not tcl-run %s --features=-avx512f,bogus 2>&1 | FileCheck %s --check-prefix=SIGN2
// RUN: not tcl-run %s --schedule=fastest 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// RUN: not tcl-run %s --num-threads=0 2>&1 | FileCheck %s --check-prefix=THREADS

// Target options are validated before compiling: a clear error and a
// failing exit code, never a silently ignored CPU or feature.

// CPU: unknown CPU 'not-a-cpu' for target {{.*}}
// CPU-NOT: latency
// SIGN: feature 'avx2' must be written as +name or -name (e.g. -avx512f)
// FEATURE: unknown CPU feature 'no-such-feature'
// SIGN2: feature 'bogus' must be written as +name or -name
// SCHEDULE: unknown schedule 'fastest' (expected 'default', 'loops' or a schedule file ending in .mlir)
// THREADS: threads must be at least 1
func.func @forward(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
