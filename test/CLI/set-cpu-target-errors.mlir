// RUN: not tcl-opt %s --tcl-set-cpu-target="cpu=x86-64 features=avx2" 2>&1 | FileCheck %s --check-prefix=SIGN
// RUN: not tcl-opt %s --tcl-set-cpu-target="cpu=x86-64 features=+no-such-feature" 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not tcl-opt %s --tcl-set-cpu-target="cpu=not-a-cpu" 2>&1 | FileCheck %s --check-prefix=CPU

// An invalid target is an error of the pass, and no module is printed.

// SIGN: error: invalid CPU target: feature 'avx2' must be written as +name or -name (e.g. -avx512f)
// SIGN-NOT: llvm.func @f
// FEATURE: error: invalid CPU target: unknown CPU feature 'no-such-feature'
// FEATURE-NOT: llvm.func @f
// CPU: error: invalid CPU target: unknown CPU 'not-a-cpu'
// CPU-NOT: llvm.func @f
llvm.func @f(%x: f32) -> f32 {
  llvm.return %x : f32
}
