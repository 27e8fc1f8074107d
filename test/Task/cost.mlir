// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// FLOPs of a matmul are 2*M*N*K; bytes are A + B + twice C (the
// accumulator is read and written); arithmetic_intensity = flops / bytes.
// M=128, N=96, K=40 in f64: 2*128*96*40 = 983040 FLOPs,
// (128*40 + 40*96 + 2*128*96) * 8 = 268288 bytes.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 983040
// CHECK:       "arithmetic_intensity": 3.664
// CHECK-NEXT:  "bytes": 268288,
// CHECK:       "dtype": "f64",
// CHECK-NEXT:  "flops": 983040,
func.func @matmul_f64(%a: tensor<128x40xf64>, %b: tensor<40x96xf64>, %c: tensor<128x96xf64>) -> tensor<128x96xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<128x40xf64>, tensor<40x96xf64>) outs(%c : tensor<128x96xf64>) -> tensor<128x96xf64>
  return %r : tensor<128x96xf64>
}

// -----

// An output whose old value is not read costs one write. A comparison
// counts as an operation; its i1 result takes a byte per element.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 1000
// CHECK:       "bytes": 5000,
// CHECK:       "dtype": "i1",
// CHECK-NEXT:  "flops": 1000,
func.func @compare(%x: tensor<1000xf32>) -> tensor<1000xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xi1>) {
  ^bb0(%in: f32, %out: i1):
    %0 = arith.cmpf ogt, %in, %zero : f32
    linalg.yield %0 : i1
  } -> tensor<1000xi1>
  return %r : tensor<1000xi1>
}

// -----

// total_flops weighs each task by its occurrences: 3 * 512 + 2 * 1024.

// CHECK-LABEL: "summary"
// CHECK-NEXT:    "num_occurrences": 5,
// CHECK-NEXT:    "num_tasks": 2,
// CHECK:         "total_flops": 3584
// CHECK:         "flops": 512,
// CHECK:         "weight": 3
// CHECK:         "flops": 1024,
// CHECK:         "weight": 2
func.func @weighted(%x: tensor<512xf32>, %y: tensor<1024xf32>) -> (tensor<512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<1024xf32>, tensor<1024xf32>) {
  %e = tensor.empty() : tensor<512xf32>
  %f = tensor.empty() : tensor<1024xf32>
  %0 = linalg.exp ins(%x : tensor<512xf32>) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %1 = linalg.exp ins(%0 : tensor<512xf32>) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %2 = linalg.exp ins(%1 : tensor<512xf32>) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %3 = linalg.exp ins(%y : tensor<1024xf32>) outs(%f : tensor<1024xf32>) -> tensor<1024xf32>
  %4 = linalg.exp ins(%3 : tensor<1024xf32>) outs(%f : tensor<1024xf32>) -> tensor<1024xf32>
  return %0, %1, %2, %3, %4 : tensor<512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<1024xf32>, tensor<1024xf32>
}
