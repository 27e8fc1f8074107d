//===- Passes.h - tcl passes and pipelines ----------------------*- C++ -*-===//

#ifndef TCL_PASSES_PASSES_H
#define TCL_PASSES_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace tcl {

struct GpuTarget;

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
  Option<bool> channelsLast{
      *this, "channels-last",
      llvm::cl::desc("With the default schedule, rewrite channels-first "
                     "convolutions and poolings into channels-last ones "
                     "first (tcl-convert-conv-to-nhwc)"),
      llvm::cl::init(true)};
  Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Time every top-level op (tcl-profile-ops): the module "
                     "calls tcl_profile_mark, which the caller provides"),
      llvm::cl::init(false)};
};

/// The runtime function tcl-profile-ops calls: `void tcl_profile_mark(i64)`.
inline constexpr llvm::StringLiteral kProfileMarkSymbol = "tcl_profile_mark";
/// The mark id at a function's entry: it starts the clock.
inline constexpr int64_t kProfileEntryMark = -1;
/// The module attribute that describes each mark id's op.
inline constexpr llvm::StringLiteral kProfileOpsAttr = "tcl.profile_ops";

/// Rewrites the channels-first convolutions and poolings under `root` into
/// channels-last ones and sinks the transposes back to NCHW through the
/// elementwise ops that follow (the tcl-convert-conv-to-nhwc pass). Fails
/// only if the rewrite does not converge.
llvm::LogicalResult rewriteChannelsLast(mlir::Operation *root);

/// Builds the pipeline from linalg on tensors to the LLVM dialect. Fails
/// with a diagnostic on an unknown CPU, feature or schedule name.
llvm::LogicalResult buildCpuLoweringPipeline(mlir::OpPassManager &pm,
                                             const CpuLoweringOptions &options);

/// Options of the `tcl-lower-gpu` pipeline.
struct GpuLoweringOptions : public mlir::PassPipelineOptions<GpuLoweringOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("GPU target, nvvm:<chip>"),
                             llvm::cl::init("nvvm:sm_90")};
  Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("Schedule file (.mlir) from tcl-concretize of a "
                     "tcl-gpu-space"),
      llvm::cl::init("")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel object: 'isa' (PTX, needs no CUDA toolkit), "
                     "'bin' (cubin, through ptxas) or 'fatbin'"),
      llvm::cl::init("isa")};
  Option<std::string> exportDir{
      *this, "export-dir",
      llvm::cl::desc("Write each kernel's PTX and launch config (JSON) here "
                     "(empty: keep them in the module only)"),
      llvm::cl::init("")};
};

/// Adds the code generation half of `tcl-lower-gpu` for a module whose
/// schedule has been applied: bufferization, the gpu.launch mapping, kernel
/// outlining, NVVM lowering and `gpu-module-to-binary` in `format`.
void addGpuCodegenPasses(mlir::OpPassManager &pm, const GpuTarget &target,
                         llvm::StringRef format);

/// Builds the pipeline from a GPU-scheduled module (linalg on tensors) to
/// host LLVM IR plus a gpu.binary per kernel. Fails with a diagnostic on a
/// bad target or format, or a missing schedule.
llvm::LogicalResult buildGpuLoweringPipeline(mlir::OpPassManager &pm,
                                             const GpuLoweringOptions &options);

/// Registers the tcl pipelines (`tcl-lower-cpu`, `tcl-lower-gpu`) with the global registry;
/// the generated registerTclPasses() registers the individual passes.
void registerTclPipelines();

#define GEN_PASS_REGISTRATION
#include "tcl/Passes/Passes.h.inc"

} // namespace tcl

#endif // TCL_PASSES_PASSES_H
