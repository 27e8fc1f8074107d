// RUN: tcl-run %s --check --repeats=1 --warmup=0 | FileCheck %s
// RUN: tcl-run %s --check --repeats=1 --warmup=0 --entry=avg_nchw | FileCheck %s --check-prefix=AVG

// 3x3 stride-2 max pooling (NHWC, -inf init) and a channels-first 2x2
// average pooling (sum pool then scale).

// CHECK: check:      output #0 (1x4x4x12xf32) matches the naive-loops reference: max abs err 0.00E+00
// CHECK-NOT: DIFFERS
// AVG: check:      output #0 (1x4x3x3xf32) matches the naive-loops reference
// AVG-NOT: DIFFERS
func.func @forward(%i: tensor<1x9x9x12xf32>) -> tensor<1x4x4x12xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x4x12xf32>
  %o = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x12xf32>) -> tensor<1x4x4x12xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %w : tensor<1x9x9x12xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x12xf32>) -> tensor<1x4x4x12xf32>
  return %r : tensor<1x4x4x12xf32>
}
func.func @avg_nchw(%i: tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%i, %w : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x3x3xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%x: f32, %y: f32):
    %0 = arith.mulf %x, %quarter : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x3x3xf32>
  return %r : tensor<1x4x3x3xf32>
}
