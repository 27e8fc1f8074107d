// RUN: tcl-opt %s --split-input-file --tcl-approximate-math | FileCheck %s
// RUN: tcl-opt %s --split-input-file --tcl-lower-cpu | FileCheck %s --check-prefix=LLVM

// Transcendental ops become polynomial arithmetic on the same vector type;
// sqrt keeps its hardware instruction.

// CHECK-LABEL: func.func @vector_exp
// CHECK-NOT: math.exp
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK: return {{.*}} : vector<8xf32>
// LLVM-LABEL: llvm.func @vector_exp
// LLVM-NOT: llvm.call @expf
// LLVM-NOT: llvm.intr.exp
func.func @vector_exp(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.exp %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @gelu_parts
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: math.sqrt
func.func @gelu_parts(%x: vector<16xf32>) -> vector<16xf32> {
  %t = math.tanh %x : vector<16xf32>
  %e = math.erf %t : vector<16xf32>
  %s = math.sqrt %e : vector<16xf32>
  return %s : vector<16xf32>
}
