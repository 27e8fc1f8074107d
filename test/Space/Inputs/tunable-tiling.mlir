// A user's tunable script: tile a matmul by two knobs. Shared by the tests
// in this directory.
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
    return %r : tensor<64x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tm = transform.tune.knob<"tile_m"> options = [8, 16, 32] -> !transform.param<i64>
    %tn = transform.tune.knob<"tile_n"> = 8 from options = [4, 8, 16] -> !transform.param<i64>
    %tiled, %l0, %l1 = transform.structured.tile_using_for %mm tile_sizes [%tm, %tn] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
