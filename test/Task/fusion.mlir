// RUN: tcl-opt %s --split-input-file --tcl-extract-tasks | FileCheck %s

// matmul -> bias add -> ReLU: both elementwise consumers are fused into the
// matmul's task. Its FLOPs include theirs (2*64*16*32 + 1024 + 1024), its
// bytes add only the bias (the intermediates stay in registers), and its
// canonical form (hence its key) includes the chain.

// CHECK-LABEL: "summary"
// CHECK-NEXT:    "num_occurrences": 1,
// CHECK-NEXT:    "num_tasks": 1,
// CHECK-NEXT:    "num_unsupported": 0,
// CHECK-NEXT:    "occurrences_by_kind": {
// CHECK-NEXT:      "matmul": 1
// CHECK-NEXT:    },
// CHECK-NEXT:    "total_flops": 67584
// CHECK:         "bytes": 18496,
// CHECK-NEXT:    "canonical_form": "iterators=[parallel, parallel, reduction] {{.*}} then iterators=[parallel, parallel] maps=[(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)] {{.*}} then iterators=[parallel, parallel] {{.*}}arith.maximumf
// CHECK-NEXT:    "dtype": "f32",
// CHECK-NEXT:    "flops": 67584,
// CHECK-NEXT:    "fusable_consumers": [
// CHECK-NEXT:      {
// CHECK-NEXT:        "canonical_form": "iterators=[parallel, parallel] maps=[(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)] operands=[tensor<64x16xf32>, tensor<16xf32>, tensor<64x16xf32>] payload={arith.addf(%a0, %a1){{.*}}}",
// CHECK-NEXT:        "op": "linalg.generic"
// CHECK-NEXT:      },
// CHECK-NEXT:      {
// CHECK-NEXT:        "canonical_form": "{{.*}}payload={arith.maximumf(%a0, const(0.000000e+00 : f32)){{.*}}}",
// CHECK-NEXT:        "op": "linalg.generic"
// CHECK-NEXT:      }
// CHECK-NEXT:    ],
// CHECK:         "kind": "matmul",
// CHECK-NEXT:    "locations": [
// CHECK-NEXT:      "{{.*}}fusion.mlir:[[@LINE+10]]:9"
// CHECK-NEXT:    ],
// CHECK:         "op": "linalg.matmul",
// CHECK:       "unsupported": []
#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %bias: tensor<16xf32>) -> tensor<64x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  %biased = linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x16xf32>, tensor<16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %cst : f32
    linalg.yield %m : f32
  } -> tensor<64x16xf32>
  return %relu : tensor<64x16xf32>
}

// -----

// A fused chain is a different task from the bare matmul: the key differs.

// CHECK-LABEL: "summary"
// CHECK:       "num_tasks": 2,
// CHECK:       "fusable_consumers": [
// CHECK-NEXT:    {
// CHECK:       "key": "[[FUSED:([0-9a-f]{16})]]",
// CHECK:       "fusable_consumers": [],
// CHECK:       "key": "[[BARE:([0-9a-f]{16})]]",
// CHECK-NOT:   "key": "[[FUSED]]"
// CHECK:       "unsupported": []
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @fused_and_bare(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x16xf32>) outs(%e : tensor<64x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %cst : f32
    linalg.yield %m : f32
  } -> tensor<64x16xf32>
  %bare = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %relu, %bare : tensor<64x16xf32>, tensor<64x16xf32>
}

// -----

// Convolution + folded batch-norm + ReLU6 (clamp), as in MobileNet.

// CHECK-LABEL: "summary"
// CHECK:       "occurrences_by_kind": {
// CHECK-NEXT:    "conv2d": 1
// CHECK-NEXT:  },
// CHECK:       "fusable_consumers": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "canonical_form": "{{.*}}arith.minimumf
// CHECK-NEXT:      "op": "linalg.generic"
// CHECK-NEXT:    }
// CHECK-NEXT:  ],
// CHECK:       "kind": "conv2d",
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @conv_bn_relu6(%i: tensor<1x10x10x8xf32>, %f: tensor<3x3x8x16xf32>, %scale: tensor<16xf32>, %shift: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%i, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id4, #ch, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %scale, %shift : tensor<1x8x8x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%x: f32, %s: f32, %t: f32, %o: f32):
    %0 = arith.mulf %x, %s : f32
    %1 = arith.addf %0, %t : f32
    %2 = arith.maximumf %1, %zero : f32
    %3 = arith.minimumf %2, %six : f32
    linalg.yield %3 : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
