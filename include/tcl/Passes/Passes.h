//===- Passes.h - tcl passes and pipelines ----------------------*- C++ -*-===//

#ifndef TCL_PASSES_PASSES_H
#define TCL_PASSES_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace tcl {

#define GEN_PASS_DECL
#include "tcl/Passes/Passes.h.inc"

/// Options of the `tcl-lower-cpu` pipeline.
struct CpuLoweringOptions : public mlir::PassPipelineOptions<CpuLoweringOptions> {
  Option<std::string> cpu{*this, "cpu",
                          llvm::cl::desc("LLVM CPU name, or 'host'"),
                          llvm::cl::init("host")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Comma-separated LLVM feature overrides, e.g. '-avx512f'"),
      llvm::cl::init("")};
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads for the outermost parallel loops (1: serial)"),
      llvm::cl::init(1)};
  Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("'default' (tiled and vectorized heuristic), 'loops' "
                     "(naive loop nests: the numerical reference), or a "
                     "schedule file (.mlir) from tcl-concretize"),
      llvm::cl::init("default")};
};

/// Builds the pipeline from linalg on tensors to the LLVM dialect. Fails
/// with a diagnostic on an unknown CPU, feature or schedule name.
llvm::LogicalResult buildCpuLoweringPipeline(mlir::OpPassManager &pm,
                                             const CpuLoweringOptions &options);

/// Registers the tcl pipelines (`tcl-lower-cpu`) with the global registry;
/// the generated registerTclPasses() registers the individual passes.
void registerTclPipelines();

#define GEN_PASS_REGISTRATION
#include "tcl/Passes/Passes.h.inc"

} // namespace tcl

#endif // TCL_PASSES_PASSES_H
