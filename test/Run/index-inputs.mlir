// RUN: tcl-run %s --check --repeats=2 --warmup=1 | FileCheck %s
// RUN: not tcl-run %s --entry=always_fails --check --repeats=1 --warmup=0 2>&1 | FileCheck %s --check-prefix=ABORT

// An embedding lookup as torch-mlir writes it: token ids are cast to
// indices, asserted in bounds, and extracted from the table. Random ids are
// drawn within the smallest dimension they index, so the model's own
// assertions hold.

// CHECK-LABEL: tcl-run: {{.*}}index-inputs.mlir @forward
// CHECK: check: output #0 (8x4xf32) matches the naive-loops reference
func.func @forward(%ids: tensor<8xi64>) -> tensor<8x4xf32> {
  %table = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %below = arith.cmpi slt, %row, %c3 : index
    cf.assert %below, "index must be smaller than dim size"
    %above = arith.cmpi sge, %id, %zero : i64
    cf.assert %above, "index must be larger or equal to 0"
    %x = tensor.extract %table[%row, %col] : tensor<3x4xf32>
    linalg.yield %x : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// An assertion that fails on every input aborts the reference, which runs in
// a child process: the tool reports it and exits non-zero, it does not crash.

// ABORT: tcl: the naive-loops reference did not run: crashed (signal 6
// ABORT-SAME: an assertion of the model's own
func.func @always_fails(%x: tensor<8xf32>) -> tensor<8xf32> {
  %false = arith.constant false
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    cf.assert %false, "never holds"
    linalg.yield %in : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
