// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks=allow-unsupported=true --verify-diagnostics
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks=allow-unsupported=true 2>/dev/null | FileCheck %s
// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks=allow-unsupported=true 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN

// Dynamic shapes cannot be tuned: the op is listed under "unsupported" with
// its location and the reason. With allow-unsupported=true a warning points
// at the op, the rest of the module is still extracted and the tool succeeds.

// CHECK-LABEL: "summary"
// CHECK-NEXT:    "num_occurrences": 1,
// CHECK-NEXT:    "num_tasks": 1,
// CHECK-NEXT:    "num_unsupported": 1,
// CHECK:         "op": "linalg.matmul",
// CHECK:       "unsupported": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "location": "{{.*}}unsupported-dynamic.mlir:[[@LINE+12]]:8",
// CHECK-NEXT:      "op": "linalg.matmul",
// CHECK-NEXT:      "reason": "dynamic shapes; tcl tunes static shapes only"
// CHECK-NEXT:    }
// CHECK-NEXT:  ]

// WARN: unsupported-dynamic.mlir:[[@LINE+6]]:8: warning: cannot tune 'linalg.matmul': dynamic shapes; tcl tunes static shapes only
// WARN-NEXT: %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>
// WARN-NEXT: ^
func.func @dynamic_rows(%a: tensor<?x32xf32>, %b: tensor<32x16xf32>, %c: tensor<?x16xf32>,
                        %x: tensor<8x32xf32>, %y: tensor<8x16xf32>) -> (tensor<?x16xf32>, tensor<8x16xf32>) {
  // expected-warning @below {{cannot tune 'linalg.matmul': dynamic shapes; tcl tunes static shapes only}}
  %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x16xf32>) outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = linalg.matmul ins(%x, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%y : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r, %s : tensor<?x16xf32>, tensor<8x16xf32>
}

// -----

// A dynamic softmax reports its rank.

// CHECK-LABEL: "summary"
// CHECK:       "num_tasks": 0,
// CHECK-NEXT:  "num_unsupported": 1,
// CHECK:       "op": "linalg.softmax",
// CHECK-NEXT:  "reason": "dynamic shape 2-d softmax; tcl tunes static shapes only"
func.func @dynamic_softmax(%x: tensor<?x32xf32>, %e: tensor<?x32xf32>) -> tensor<?x32xf32> {
  // expected-warning @below {{cannot tune 'linalg.softmax': dynamic shape 2-d softmax}}
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x32xf32>) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

// A dynamic elementwise generic.

// CHECK-LABEL: "summary"
// CHECK:       "num_unsupported": 1,
// CHECK:       "op": "linalg.generic",
// CHECK-NEXT:  "reason": "dynamic shapes; tcl tunes static shapes only"
func.func @dynamic_generic(%x: tensor<?xf32>, %e: tensor<?xf32>) -> tensor<?xf32> {
  // expected-warning @below {{cannot tune 'linalg.generic': dynamic shapes}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
