// RUN: tcl-opt %s --tcl-extract-tasks | FileCheck %s

// Frontends attach fused, call-site and named locations. A task location is
// the first file:line:col inside the op's location (for a call site, the
// callee); a location without any file position is printed as it is.

// CHECK:      "locations": [
// CHECK-NEXT:   "model.py:10:5",
// CHECK-NEXT:   "inner.py:3:1",
// CHECK-NEXT:   "bert.py:42:7",
// CHECK-NEXT:   "loc(\"no_file\")",
// CHECK-NEXT:   "{{.*}}locations.mlir:[[@LINE+8]]:8"
// CHECK-NEXT: ],
// CHECK:      "weight": 5
func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc(fused["model.py":10:5, "layer1"])
  %1 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc(callsite("inner.py":3:1 at "outer.py":20:2))
  %2 = linalg.matmul ins(%1, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("encoder.layer.0"("bert.py":42:7))
  %3 = linalg.matmul ins(%2, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32> loc("no_file")
  %4 = linalg.matmul ins(%3, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2, %3, %4 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
