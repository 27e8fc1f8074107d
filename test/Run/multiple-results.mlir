// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s

// Several results (returned as out-params): each is checked on its own,
// including a result that is an input returned unchanged and a constant.

// CHECK: check:      output #0 (24x48xf32) matches the naive-loops reference
// CHECK: check:      output #1 (24x48xf32) matches the naive-loops reference
// CHECK: check:      output #2 (24x40xf32) matches the naive-loops reference: max abs err 0.00E+00
// CHECK: check:      output #3 (4xf32) matches the naive-loops reference: max abs err 0.00E+00
// CHECK-NOT: check:      output #4
// CHECK-NOT: DIFFERS
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @forward(%a: tensor<24x40xf32>, %b: tensor<40x48xf32>, %c: tensor<24x48xf32>) -> (tensor<24x48xf32>, tensor<24x48xf32>, tensor<24x40xf32>, tensor<4xf32>) {
  %cst = arith.constant 0.0 : f32
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<24x48xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<24x48xf32>) -> tensor<24x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<24x40xf32>, tensor<40x48xf32>) outs(%f : tensor<24x48xf32>) -> tensor<24x48xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %c : tensor<24x48xf32>, tensor<24x48xf32>) outs(%e : tensor<24x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = math.tanh %0 : f32
    linalg.yield %1 : f32
  } -> tensor<24x48xf32>
  return %mm, %s, %a, %k : tensor<24x48xf32>, tensor<24x48xf32>, tensor<24x40xf32>, tensor<4xf32>
}
