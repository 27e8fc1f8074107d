// RUN: tcl-run %s --repeats=3 --warmup=1 --profile=3 --json=%t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: tcl-run %s --repeats=3 --warmup=1 --profile=3 --num-threads=2 | FileCheck %s --check-prefix=THREADS

// The profile splits a call into the ops of the tasks (compute) and the glue
// the lowering adds around them: the pad's fill and copy, the buffers'
// allocations. Each op is named by the source line it came from.

// CHECK:       profile:    {{[0-9]+}} top-level ops, {{.*}} per call (medians of 3 calls)
// CHECK-DAG:     compute {{.*}} ops
// CHECK-DAG:     copy {{.*}} ops
// CHECK-DAG:     fill {{.*}} ops
// CHECK:       slowest ops:
// CHECK-DAG:     compute  scf.{{for|forall}} {{.*}}profile.mlir:[[@LINE+20]]:
// CHECK-DAG:     copy     memref.copy {{.*}}profile.mlir:[[@LINE+13]]:

// JSON:        "profile": [
// JSON:          "category": "{{compute|copy|fill|alloc}}",
// JSON-NEXT:     "location": "{{.*}}profile.mlir:{{[0-9]+}}:{{[0-9]+}}",
// JSON-NEXT:     "op": "{{.*}}",
// JSON-NEXT:     "seconds": {{[0-9.e-]+}}

// THREADS:     profile:
// THREADS:     compute  scf.forall {{.*}}profile.mlir:

func.func @forward(%a: tensor<64x30xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<64x30xf32> to tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%padded, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
