// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// A plain f32 matmul: every field of the report.

// CHECK-LABEL: "summary"
// CHECK-NEXT:    "num_occurrences": 1,
// CHECK-NEXT:    "num_tasks": 1,
// CHECK-NEXT:    "num_unsupported": 0,
// CHECK-NEXT:    "occurrences_by_kind": {
// CHECK-NEXT:      "matmul": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "total_flops": 65536
// CHECK:       "tasks": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "arithmetic_intensity": 3.555
// CHECK-NEXT:      "bytes": 18432,
// CHECK-NEXT:      "canonical_form": "iterators=[parallel, parallel, reduction] maps=[(d0, d1, d2) -> (d0, d2), (d0, d1, d2) -> (d2, d1), (d0, d1, d2) -> (d0, d1)] operands=[tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>] payload={arith.mulf(%a0, %a1){{.*}};arith.addf(%a2, %v0){{.*}};linalg.yield(%v1):;}",
// CHECK-NEXT:      "dtype": "f32",
// CHECK-NEXT:      "flops": 65536,
// CHECK-NEXT:      "fusable_consumers": [],
// CHECK-NEXT:      "iterator_types": [
// CHECK-NEXT:        "parallel",
// CHECK-NEXT:        "parallel",
// CHECK-NEXT:        "reduction"
// CHECK-NEXT:      ],
// CHECK-NEXT:      "key": "{{([0-9a-f]{16})}}",
// CHECK-NEXT:      "kind": "matmul",
// CHECK-NEXT:      "locations": [
// CHECK-NEXT:        "{{.*}}matmul.mlir:[[@LINE+22]]:8"
// CHECK-NEXT:      ],
// CHECK-NEXT:      "loop_bounds": [
// CHECK-NEXT:        64,
// CHECK-NEXT:        16,
// CHECK-NEXT:        32
// CHECK-NEXT:      ],
// CHECK-NEXT:      "op": "linalg.matmul",
// CHECK-NEXT:      "operand_types": [
// CHECK-NEXT:        "tensor<64x32xf32>",
// CHECK-NEXT:        "tensor<32x16xf32>",
// CHECK-NEXT:        "tensor<64x16xf32>"
// CHECK-NEXT:      ],
// CHECK-NEXT:      "transpose": "nn",
// CHECK-NEXT:      "weight": 1
// CHECK-NEXT:    }
// CHECK-NEXT:  ],
// CHECK-NEXT:  "unsupported": []
func.func @matmul_f32(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// Quantized matmul: i8 operands widened into an i32 accumulator. The
// extensions are free, so it is still 2*M*N*K operations; dtype is the
// result's element type and bytes count 1 byte per i8.

// CHECK-LABEL: "summary"
// CHECK:       "total_flops": 24576
// CHECK:       "bytes": 4352,
// CHECK:       "canonical_form": "{{.*}}payload={arith.extsi(%a0):i32;arith.extsi(%a1):i32;arith.muli
// CHECK:       "dtype": "i32",
// CHECK-NEXT:  "flops": 24576,
// CHECK:       "kind": "matmul",
// CHECK:       "op": "linalg.matmul",
// CHECK-NEXT:  "operand_types": [
// CHECK-NEXT:    "tensor<16x32xi8>",
// CHECK-NEXT:    "tensor<32x24xi8>",
// CHECK-NEXT:    "tensor<16x24xi32>"
// CHECK-NEXT:  ],
// CHECK-NEXT:  "transpose": "nn",
func.func @matmul_i8_i32(%a: tensor<16x32xi8>, %b: tensor<32x24xi8>, %c: tensor<16x24xi32>) -> tensor<16x24xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xi8>, tensor<32x24xi8>) outs(%c : tensor<16x24xi32>) -> tensor<16x24xi32>
  return %r : tensor<16x24xi32>
}

// -----

// Mixed precision: f16 inputs (2 bytes each), f32 accumulation.

// CHECK-LABEL: "summary"
// CHECK:       "bytes": 7168,
// CHECK:       "dtype": "f32",
// CHECK-NEXT:  "flops": 32768,
// CHECK:       "kind": "matmul",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    32,
// CHECK-NEXT:    16,
// CHECK-NEXT:    32
// CHECK-NEXT:  ],
func.func @matmul_f16_f32(%a: tensor<32x32xf16>, %b: tensor<32x16xf16>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf16>, tensor<32x16xf16>) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// A matrix-vector product is a contraction without an n dimension: it is
// tuned in the matmul family.

// CHECK-LABEL: "summary"
// CHECK:       "flops": 4096,
// CHECK:       "kind": "matmul",
// CHECK:       "loop_bounds": [
// CHECK-NEXT:    32,
// CHECK-NEXT:    64
// CHECK-NEXT:  ],
// CHECK-NEXT:  "op": "linalg.matvec",
func.func @matvec(%a: tensor<32x64xf32>, %b: tensor<64xf32>, %c: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.matvec ins(%a, %b : tensor<32x64xf32>, tensor<64xf32>) outs(%c : tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}
