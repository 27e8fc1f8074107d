// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s --check-prefix=I8
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=matmul_f64 | FileCheck %s --check-prefix=F64
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=add_i64 | FileCheck %s --check-prefix=I64

// Inputs of every supported element type: an i8 x i8 -> i32 matmul (exact),
// f64, and i64.

// I8: check:      output #0 (16x24xi32) matches the naive-loops reference: max abs err 0.00E+00
// F64: check:      output #0 (16x24xf64) matches the naive-loops reference
// I64: check:      output #0 (64xi64) matches the naive-loops reference: max abs err 0.00E+00
func.func @forward(%a: tensor<16x32xi8>, %b: tensor<32x24xi8>) -> tensor<16x24xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x24xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x24xi32>) -> tensor<16x24xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x32xi8>, tensor<32x24xi8>) outs(%f : tensor<16x24xi32>) -> tensor<16x24xi32>
  return %r : tensor<16x24xi32>
}
func.func @matmul_f64(%a: tensor<16x32xf64>, %b: tensor<32x24xf64>) -> tensor<16x24xf64> {
  %c0 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<16x24xf64>
  %f = linalg.fill ins(%c0 : f64) outs(%e : tensor<16x24xf64>) -> tensor<16x24xf64>
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf64>, tensor<32x24xf64>) outs(%f : tensor<16x24xf64>) -> tensor<16x24xf64>
  return %r : tensor<16x24xf64>
}
func.func @add_i64(%a: tensor<64xi64>, %b: tensor<64xi64>) -> tensor<64xi64> {
  %e = tensor.empty() : tensor<64xi64>
  %r = linalg.add ins(%a, %b : tensor<64xi64>, tensor<64xi64>) outs(%e : tensor<64xi64>) -> tensor<64xi64>
  return %r : tensor<64xi64>
}
