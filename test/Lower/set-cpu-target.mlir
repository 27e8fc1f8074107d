// RUN: tcl-opt %s --tcl-set-cpu-target="cpu=x86-64-v2 features=-avx2,+sse4.2" | FileCheck %s
// RUN: tcl-opt %s --tcl-set-cpu-target="cpu=skylake-avx512" | FileCheck %s --check-prefix=NAMED
// RUN: tcl-opt %s --tcl-set-cpu-target | FileCheck %s --check-prefix=HOST

// Every llvm.func (definitions and declarations) gets the CPU and the
// feature overrides, in the order given. 'host' (the default) resolves to
// this machine's CPU name and its full feature list.

// CHECK: llvm.func @malloc(i64) -> !llvm.ptr attributes {target_cpu = "x86-64-v2", target_features = #llvm.target_features<["-avx2", "+sse4.2"]>}
// CHECK: llvm.func @f(%{{.+}}: f32) -> f32 attributes {target_cpu = "x86-64-v2", target_features = #llvm.target_features<["-avx2", "+sse4.2"]>}

// NAMED: llvm.func @f({{.*}}target_cpu = "skylake-avx512", target_features = #llvm.target_features<[]>}

// HOST: llvm.func @f({{.*}}target_cpu = "{{[a-z0-9-]+}}", target_features = #llvm.target_features<["{{[+-]}}
// HOST-NOT: target_cpu = "host"
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @f(%x: f32) -> f32 {
  llvm.return %x : f32
}
