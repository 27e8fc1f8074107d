// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3 schedule=loops" | FileCheck %s
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3 schedule=default" | FileCheck %s --check-prefix=DEFAULT

// schedule=loops is the naive reference: scalar loops, no vector code.

// CHECK-LABEL: llvm.func @forward(
// CHECK-NOT:   vector<
// CHECK:       llvm.fmul {{.*}} : f32
// CHECK-NOT:   vector<
// CHECK-LABEL: llvm.func @_mlir_ciface_forward(

// DEFAULT-LABEL: llvm.func @forward(
// DEFAULT:       vector<
func.func @forward(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
