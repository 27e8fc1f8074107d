// RUN: tcl-run %s --check --schedule=loops --repeats=5 --warmup=2 | FileCheck %s
// RUN: tcl-run %s --check --repeats=5 --warmup=2 | FileCheck %s
// RUN: tcl-run %s --check --random-schedules=20 --repeats=3 --warmup=1 | FileCheck %s --check-prefix=RANDOM
// RUN: tcl-opt %s --tcl-read-only-arguments | FileCheck %s --check-prefix=IR

// A matmul whose accumulator is the caller's tensor (torch-mlir's convolution
// initialised with the broadcast bias, an outlined task whose init is not a
// fill): the caller's %c is read, never written, so every timed call returns
// the same result and the check, which compares a timed call, passes.

// CHECK: check: output #0 (64x64xf32) matches the naive-loops reference
// CHECK-NOT: DIFFERS

// RANDOM: random schedules: 20 evaluated, 0 failed

// IR-LABEL: func.func @forward
// IR-SAME: %arg0: tensor<64x64xf32> {bufferization.writable = false}
// IR-SAME: %arg2: tensor<64x64xf32> {bufferization.writable = false}
func.func @forward(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A private function is the module's own: its callers' buffers are
// bufferization's to reason about.

// IR-LABEL: func.func private @helper
// IR-NOT: writable
func.func private @helper(%c: tensor<4xf32>) -> tensor<4xf32> {
  return %c : tensor<4xf32>
}
