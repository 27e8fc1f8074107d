// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3 features= threads=1 schedule=default" | FileCheck %s
// RUN: tcl-opt %s --tcl-lower-cpu="cpu=x86-64-v3" | FileCheck %s --check-prefix=NOHIGH

// tcl-lower-cpu takes linalg on tensors to the LLVM dialect: the entry gets
// a C interface wrapper (results become caller-allocated out-params) and
// every function is tagged with the target CPU.

// CHECK-LABEL: llvm.func @matmul(
// CHECK-SAME:    target_cpu = "x86-64-v3"
// CHECK:         llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-LABEL: llvm.func @_mlir_ciface_matmul(
// CHECK-SAME:    %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK-SAME:    attributes {llvm.emit_c_interface, target_cpu = "x86-64-v3", target_features = #llvm.target_features<[]>}
// CHECK:         llvm.call @matmul(

// Nothing of the input dialects is left.
// NOHIGH-NOT: linalg.
// NOHIGH-NOT: tensor<
// NOHIGH-NOT: memref<
// NOHIGH-NOT: scf.
// NOHIGH-NOT: func.func
// NOHIGH-NOT: vector.
// NOHIGH-NOT: unrealized_conversion_cast
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
