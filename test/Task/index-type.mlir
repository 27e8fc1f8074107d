// RUN: tcl-opt %s --tcl-extract-tasks | FileCheck %s

// Ops over tensors of `index` are tasks; index counts as 64 bits.

// CHECK-LABEL: "summary"
// CHECK:       "op": "linalg.generic",
func.func @index_add(%a: tensor<16xindex>, %b: tensor<16xindex>) -> tensor<16xindex> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<16xindex>) outs(%b : tensor<16xindex>) {
  ^bb0(%x: index, %o: index):
    %s = arith.addi %x, %o : index
    linalg.yield %s : index
  } -> tensor<16xindex>
  return %r : tensor<16xindex>
}
