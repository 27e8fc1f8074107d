// RUN: tcl-run %s --check --repeats=1 --warmup=0 --cpu=x86-64-v2 --json=%t.json | FileCheck %s
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON

// An SSE4.2-only target (4 fp32 lanes) on any x86-64 host: the schedule
// and the JIT use the requested CPU.

// CHECK: check:      output #0 (32x48xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS
// JSON: "cpu": "x86-64-v2",
func.func @forward(%a: tensor<32x20xf32>, %b: tensor<20x48xf32>) -> tensor<32x48xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x20xf32>, tensor<20x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
