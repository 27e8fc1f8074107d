// RUN: tcl-opt %s --split-input-file --tcl-profile-ops | FileCheck %s
// RUN: not tcl-opt %s --split-input-file --tcl-profile-ops --tcl-profile-ops 2>&1 | FileCheck %s --check-prefix=TWICE

// TWICE: error: tcl-profile-ops: the module is already instrumented (it has tcl_profile_mark)

// Every op with side effects is followed by a mark whose id indexes the
// module's tcl.profile_ops; the entry mark (-1) starts the clock; pure ops
// (constants, views) get none.

// CHECK-LABEL: module attributes {tcl.profile_ops = [
// CHECK-SAME:    {category = "alloc", location = "{{.*}}profile-ops.mlir:{{[0-9]+}}:{{[0-9]+}}", op = "memref.alloc"},
// CHECK-SAME:    {category = "fill", location = "{{.*}}", op = "linalg.fill"},
// CHECK-SAME:    {category = "copy", location = "{{.*}}", op = "memref.copy"},
// CHECK-SAME:    {category = "compute", location = "{{.*}}", op = "scf.for"},
// CHECK-SAME:    {category = "alloc", location = "{{.*}}", op = "memref.dealloc"}]}
// CHECK:       llvm.func @tcl_profile_mark(i64)
// CHECK-LABEL: func.func @forward
// CHECK-NEXT:    %[[ENTRY:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK-NEXT:    llvm.call @tcl_profile_mark(%[[ENTRY]])
// CHECK:         memref.alloc
// CHECK-NEXT:    %[[M0:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    llvm.call @tcl_profile_mark(%[[M0]])
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    %[[M1:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    llvm.call @tcl_profile_mark(%[[M1]])
// CHECK-NEXT:    memref.subview
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    %[[M2:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    llvm.call @tcl_profile_mark(%[[M2]])
// CHECK:         scf.for
// CHECK:         }
// CHECK-NEXT:    %[[M3:.+]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:    llvm.call @tcl_profile_mark(%[[M3]])
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    %[[M4:.+]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:    llvm.call @tcl_profile_mark(%[[M4]])
// CHECK-NEXT:    return
func.func @forward(%input: memref<4x6xf32>, %output: memref<4x8xf32>) {
  %buffer = memref.alloc() : memref<4x8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buffer : memref<4x8xf32>)
  %interior = memref.subview %buffer[0, 1] [4, 6] [1, 1]
      : memref<4x8xf32> to memref<4x6xf32, strided<[8, 1], offset: 1>>
  memref.copy %input, %interior
      : memref<4x6xf32> to memref<4x6xf32, strided<[8, 1], offset: 1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %row = memref.subview %buffer[%i, 0] [1, 8] [1, 1]
        : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    %out = memref.subview %output[%i, 0] [1, 8] [1, 1]
        : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.copy %row, %out : memref<8xf32, strided<[1], offset: ?>>
        to memref<8xf32, strided<[1], offset: ?>>
  }
  memref.dealloc %buffer : memref<4x8xf32>
  return
}

// -----

// Declarations get no marks; a module without defined functions gets an
// empty list.

// CHECK-LABEL: module attributes {tcl.profile_ops = []}
// CHECK:         func.func private @external(memref<4xf32>)
// CHECK-NOT:     llvm.call
func.func private @external(memref<4xf32>)
