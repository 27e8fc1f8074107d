// RUN: tcl-run %s --check --repeats=1 --warmup=0 --cores=0 | FileCheck %s
// RUN: not tcl-run %s --entry=shifted --check --repeats=1 --warmup=0 2>&1 | FileCheck %s --check-prefix=SHIFTED
// RUN: tcl-run %s --entry=normalized --check --repeats=3 --warmup=1 | FileCheck %s --check-prefix=NORMALIZED
// RUN: tcl-run %s --entry=weights --check --repeats=1 --warmup=0 | FileCheck %s --check-prefix=WEIGHTS

// Random inputs that reach a square root or a logarithm are positive, so a
// model that is finite on real data is finite on tcl's inputs, and its
// check judges something. The result travels through the isolated child's
// report.

// CHECK: tcl-run: {{.*}}input-domains.mlir @forward, schedule default, 1 thread(s)
// CHECK: output #0:  64x32xf32, min {{[0-9]}}
// CHECK: check: output #0 (64x32xf32) matches the naive-loops reference
func.func @forward(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %init = tensor.empty() : tensor<64x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x32xf32>) outs(%init : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.rsqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// A difference stops the analysis: the root of x - 2 is NaN on every input
// tcl draws, and the check says that it cannot judge it, and fails.

// SHIFTED-DAG: output #0 (64x32xf32) CANNOT BE JUDGED: the naive-loops reference has 2048 NaN or infinite values
// SHIFTED-DAG: tcl-run: the reference outputs have NaN or infinite values: the check cannot judge them
func.func @shifted(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %init = tensor.empty() : tensor<64x32xf32>
  %two = arith.constant 2.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x32xf32>) outs(%init : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.subf %in, %two : f32
    %r = math.sqrt %d : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// Batch norm as torch-mlir unfolds it: the variance, broadcast and offset by
// epsilon, reaches the square root and is drawn positive; the input and the
// mean are not constrained.

// NORMALIZED: output #0:  8x16xf32, min -{{[0-9]}}
// NORMALIZED: check: output #0 (8x16xf32) matches the naive-loops reference
func.func @normalized(%x: tensor<8x16xf32>, %mean: tensor<16xf32>, %var: tensor<16xf32>) -> tensor<8x16xf32> {
  %init = tensor.empty() : tensor<8x16xf32>
  %eps = arith.constant 1.0e-5 : f32
  %b = linalg.broadcast ins(%var : tensor<16xf32>) outs(%init : tensor<8x16xf32>) dimensions = [0]
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %b : tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%in: f32, %m: f32, %v: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %ve = arith.addf %v, %eps : f32
    %s = math.sqrt %ve : f32
    %r = arith.divf %d, %s : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// An argument a matmul reads as its second operand is a weight: drawn at
// PyTorch's scale, [-1, 1) x sqrt(3 / 48) = 0.25 for a fan-in of 48, so that
// a deep network on random weights keeps its activations' scale. The first
// operand (an activation) keeps [-1, 1).

// WEIGHTS: output #1:  2x48xf32, min -{{[5-9]\.[0-9]+}}E-01, max {{[5-9]\.[0-9]+}}E-01
// WEIGHTS: output #2:  48x16xf32, min -{{[12]\.[0-9]+}}E-01, max {{[12]\.[0-9]+}}E-01
// WEIGHTS: check: output #0 (2x16xf32) matches the naive-loops reference
func.func @weights(%a: tensor<2x48xf32>, %w: tensor<48x16xf32>)
    -> (tensor<2x16xf32>, tensor<2x48xf32>, tensor<48x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2x16xf32>) -> tensor<2x16xf32>
  %y = linalg.matmul ins(%a, %w : tensor<2x48xf32>, tensor<48x16xf32>)
                     outs(%fill : tensor<2x16xf32>) -> tensor<2x16xf32>
  %a_init = tensor.empty() : tensor<2x48xf32>
  %a_copy = linalg.copy ins(%a : tensor<2x48xf32>) outs(%a_init : tensor<2x48xf32>) -> tensor<2x48xf32>
  %w_init = tensor.empty() : tensor<48x16xf32>
  %w_copy = linalg.copy ins(%w : tensor<48x16xf32>) outs(%w_init : tensor<48x16xf32>) -> tensor<48x16xf32>
  return %y, %a_copy, %w_copy : tensor<2x16xf32>, tensor<2x48xf32>, tensor<48x16xf32>
}
