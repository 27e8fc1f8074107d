// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v2" | FileCheck %s --check-prefix=SSE
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3" | FileCheck %s --check-prefix=AVX2
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v4" | FileCheck %s --check-prefix=AVX512
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v4 features=-avx512f" | FileCheck %s --check-prefix=NO512
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3 features=-avx2,-fma" | FileCheck %s --check-prefix=NOFMA

// The default schedule sizes its register tile for the target's vector
// registers (two fp32 vectors per row: 4, 8 or 16 lanes), and the target
// CPU and feature overrides are recorded on every function.

// SSE:     llvm.func @matmul({{.*}}target_cpu = "x86-64-v2", target_features = #llvm.target_features<[]>
// SSE:     llvm.intr.fmuladd({{.*}}) : (vector<8xf32>,
// AVX2:    llvm.func @matmul({{.*}}target_cpu = "x86-64-v3"
// AVX2:    llvm.intr.fmuladd({{.*}}) : (vector<16xf32>,
// AVX512:  llvm.func @matmul({{.*}}target_cpu = "x86-64-v4"
// AVX512:  llvm.intr.fmuladd({{.*}}) : (vector<32xf32>,
// NO512:   llvm.func @matmul({{.*}}target_cpu = "x86-64-v4", target_features = #llvm.target_features<["-avx512f"]>
// NO512:   llvm.intr.fmuladd({{.*}}) : (vector<16xf32>,
// NOFMA-DAG: llvm.func @matmul({{.*}}target_cpu = "x86-64-v3", target_features = #llvm.target_features<["-avx2", "-fma"]>
// NOFMA-DAG: llvm.func @_mlir_ciface_matmul({{.*}}target_features = #llvm.target_features<["-avx2", "-fma"]>
func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
