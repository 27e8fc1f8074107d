// RUN: tcl-run %s --check --repeats=2 --warmup=1 | FileCheck %s

// A matmul with prime sizes (no tile divides them) on random inputs, checked
// against the same module lowered to naive loops.

// CHECK:      tcl-run: {{.*}}matmul.mlir @forward, schedule default, 1 thread(s)
// CHECK-NEXT:   compile:    {{[0-9.]+}} {{(us|ms|s)}}
// CHECK-NEXT:   latency:    median {{[0-9.]+}} {{(us|ms|s)}}, min {{[0-9.]+}} {{(us|ms|s)}}, spread {{[0-9.]+}}% (2 runs)
// CHECK-NEXT:   throughput: {{[0-9.]+}} GFLOP/s ({{[0-9.]+}} GFLOP per call)
// CHECK:        check:      output #0 (37x53xf32) matches the naive-loops reference: max abs err {{.*}}, max rel err {{.*}}
// CHECK-NOT:  DIFFERS
func.func @forward(%a: tensor<37x19xf32>, %b: tensor<19x53xf32>) -> tensor<37x53xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x53xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<37x53xf32>) -> tensor<37x53xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x19xf32>, tensor<19x53xf32>) outs(%f : tensor<37x53xf32>) -> tensor<37x53xf32>
  return %r : tensor<37x53xf32>
}
