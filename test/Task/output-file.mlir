// RUN: rm -f %t.json
// RUN: tcl-opt %s --tcl-extract-tasks=output=%t.json | FileCheck %s --check-prefix=MODULE
// RUN: FileCheck %s --input-file=%t.json --check-prefix=JSON
// RUN: tcl-opt %s --tcl-extract-tasks=output=- | FileCheck %s --check-prefix=JSON
// RUN: not tcl-opt %s --tcl-extract-tasks=output=%t.missing-dir/tasks.json 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tcl-opt %s --tcl-extract-tasks -o %t.out.mlir | FileCheck %s --check-prefix=JSON
// RUN: FileCheck %s --input-file=%t.out.mlir --check-prefix=MODULE

// With output=FILE the report goes to FILE and standard output carries the
// (unchanged) module as usual. With -o FILE the module goes to FILE and the
// report to standard output.

// MODULE:      func.func @matmul
// MODULE-NEXT:   linalg.matmul
// MODULE-NOT:  "summary"

// JSON:       "summary": {
// JSON:       "kind": "matmul",
// JSON:       "unsupported": []
// JSON-NOT:   func.func

// ERR: error: cannot write tasks to '{{.*}}missing-dir/tasks.json'
func.func @matmul(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
