// RUN: not tcl-run %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not tcl-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tcl-run %s --entry=declared 2>&1 | FileCheck %s --check-prefix=DECL
// RUN: tcl-run %s --entry=add --repeats=1 --warmup=0 | FileCheck %s --check-prefix=OK

// The entry defaults to @forward; a missing entry, or one without a body,
// is an error that says how to pick another one.

// DEFAULT: error: no function '@forward' with a body to run (pick one with --entry: @add)
// DEFAULT-NOT: see current operation
// UNKNOWN: error: no function '@nope' with a body to run (pick one with --entry: @add)
// DECL: error: no function '@declared' with a body to run (pick one with --entry: @add)

// OK: tcl-run: {{.*}}tcl-run-entry.mlir @add, schedule default, 1 thread(s)
// OK-NEXT: compile:
// OK-NEXT: latency: median {{[0-9.]+}} {{(us|ms|s)}}, min {{[0-9.]+}} {{(us|ms|s)}}, spread {{[0-9.]+}}% (1 runs)
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
func.func @add(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
