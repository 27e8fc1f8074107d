// RUN: tcl-run %s --check --repeats=3 --warmup=1 --seed=7 --json=%t.json > %t.out
// RUN: FileCheck %s --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); assert len(d['samples_s']) == 3 and d['median_s'] > 0 and d['min_s'] <= d['median_s'], d" %t.json

// --json writes the run's results: input, target, schedule, timings (one
// sample per repeat; --repeats never waits on contention), the vector ops of the compiled code, the model's FLOPs (2*32*48*20 + 32*48 for the fused
// ReLU) and one record per checked output.

// CHECK:      "checks": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "max_abs_error": {{.*}},
// CHECK-NEXT:     "max_rel_error": {{.*}},
// CHECK-NEXT:     "mismatches": 0,
// CHECK-NEXT:     "non_finite": 0,
// CHECK-NEXT:     "non_finite_reference": 0,
// CHECK-NEXT:     "ok": true,
// CHECK-NEXT:     "output": 0
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK-NEXT: "compile_s": {{[0-9.e-]+}},
// CHECK-NEXT: "contended": false,
// CHECK-NEXT: "contended_s": 0,
// CHECK-NEXT: "contended_samples": 0,
// CHECK-NEXT: "cpu": "host",
// CHECK-NEXT: "entry": "forward",
// CHECK-NEXT: "failure": "",
// CHECK-NEXT: "features": "",
// CHECK-NEXT: "flops": 62976,
// CHECK-NEXT: "input": "{{.*}}json.mlir",
// CHECK:      "samples_s": [
// CHECK-NEXT:   {{[0-9.e-]+}},
// CHECK-NEXT:   {{[0-9.e-]+}},
// CHECK-NEXT:   {{[0-9.e-]+}}
// CHECK-NEXT: ],
// CHECK-NEXT: "scalar_fallback": false,
// CHECK-NEXT: "schedule": "default",
// CHECK:      "threads": 1,
// CHECK-NEXT: "vector_ops": {{[1-9][0-9]*}}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @forward(%a: tensor<32x20xf32>, %b: tensor<20x48xf32>) -> tensor<32x48xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x20xf32>, tensor<20x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.maximumf %x, %cst : f32
    linalg.yield %0 : f32
  } -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
