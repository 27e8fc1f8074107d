//===- GpuSpace.h - NVVM schedule spaces of a model's tasks -----*- C++ -*-===//
//
// The GPU counterpart of CpuSpace.h: every task gets a template
// `@tcl_<key>` that tiles it onto a grid of thread blocks (scf.forall
// mapped to #gpu.block and #gpu.thread), with shared-memory staging of
// contraction operands as a knob. The concretized script is tensor-level;
// `tcl-lower-gpu` bufferizes it, maps the foralls to a gpu.launch and
// compiles the kernel to PTX.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_SPACE_GPUSPACE_H
#define TCL_SPACE_GPUSPACE_H

#include "tcl/Target/GpuTarget.h"
#include "tcl/Task/Task.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>

namespace tcl {

/// The text of task `key`'s GPU template for `anchor` on `target`, or none
/// when the op has no static parallel loop to map to blocks.
std::optional<std::string> writeGpuTemplate(mlir::linalg::LinalgOp anchor,
                                            TaskKind kind, llvm::StringRef key,
                                            const GpuTarget &target);

/// Annotates `payload`'s tasks and returns the GPU space of the whole
/// module (see buildSpace in CpuSpace.h). Elementwise consumers that task
/// extraction fuses on CPU are tasks of their own here.
llvm::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
buildGpuSpace(mlir::ModuleOp payload, const GpuTarget &target);

} // namespace tcl

#endif // TCL_SPACE_GPUSPACE_H
