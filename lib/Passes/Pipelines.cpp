//===- Pipelines.cpp - tcl-lower-cpu and pass registration ----------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Target/CpuTarget.h"
#include "tcl/Target/GpuTarget.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace tcl;

/// Tensors to buffers with identity layouts at function boundaries, results
/// turned into caller-allocated out-params (what a runtime or another
/// framework calls), and every temporary freed. The caller's tensors stay
/// its own: an op whose init is an argument writes into a copy. A pad is a
/// fill and a copy, and each layer fills the buffer it writes rather than
/// copying a shared zero fill.
static void addBufferization(OpPassManager &pm) {
  pm.addPass(createTclReadOnlyArguments());
  pm.addNestedPass<func::FuncOp>(createTclDecomposePads());
  pm.addNestedPass<func::FuncOp>(createTclUnshareFills());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

static void addLoweringToLLVM(OpPassManager &pm, const CpuTarget &target) {
  // Pads and inserted slices bufferize to strided copies; as vector loops
  // they run at memory speed instead of one memcpy call per element.
  TclVectorizeCopiesOptions copies;
  copies.vectorWidth = target.fp32Lanes();
  pm.addNestedPass<func::FuncOp>(createTclVectorizeCopies(copies));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Before vector lowering: exp, tanh, erf as vector arithmetic, not as one
  // libm call per lane.
  pm.addNestedPass<func::FuncOp>(createTclApproximateMath());
  // convert-vector-to-llvm has no pattern for vector.multi_reduction (row
  // sums and maxima: softmax, layernorm, pooling).
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  // Fully unrolled: the default goes through a memref.alloca per transfer,
  // which inside a loop grows the stack until it overflows.
  VectorTransferToSCFOptions transferOptions;
  transferOptions.enableFullUnroll();
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(transferOptions));
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createLowerAffinePass());
  if (target.threads > 1) {
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = target.threads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
    // Inlines the memref.alloca_scope that the conversion wraps around each
    // loop body (a single-block region that SCF-to-CF would otherwise split).
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(createSCFToControlFlowPass());
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  vectorOptions.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle1D;
  vectorOptions.x86Vector = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorOptions));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (target.threads > 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  TclSetCpuTargetOptions cpuOptions;
  cpuOptions.cpu = target.cpu;
  cpuOptions.features = target.features;
  pm.addPass(createTclSetCpuTarget(cpuOptions));
}

LogicalResult tcl::buildCpuLoweringPipeline(OpPassManager &pm,
                                            const CpuLoweringOptions &options) {
  llvm::Expected<CpuTarget> target =
      CpuTarget::resolve(options.cpu, options.features, options.threads);
  if (!target) {
    llvm::errs() << "tcl-lower-cpu: " << llvm::toString(target.takeError())
                 << "\n";
    return failure();
  }
  bool scheduleFile = StringRef(options.schedule).ends_with(".mlir");
  if (scheduleFile) {
    // A tuned schedule covers the tasks it names; everything else (fills,
    // the transposes of packing, tasks it leaves out) gets the default.
    TclApplyScheduleOptions apply;
    apply.schedulePath = options.schedule;
    pm.addPass(createTclApplySchedule(apply));
    pm.addPass(createCanonicalizerPass());
  }
  // Without a schedule file nothing is scheduled yet, so channels-first
  // convolutions can still become channels-last ones, which the default
  // schedule vectorizes (a schedule file's tiles would be rewritten too).
  if (options.schedule == "default" && options.channelsLast)
    pm.addNestedPass<func::FuncOp>(createTclConvertConvToNhwc());
  pm.addNestedPass<func::FuncOp>(createTclDecomposeAggregates());
  if (options.schedule == "default" || scheduleFile) {
    TclCpuDefaultScheduleOptions schedule;
    schedule.vectorWidth = target->fp32Lanes();
    // Accumulator rows of two vectors each, leaving four registers for the
    // broadcast A element and the B vectors: 6 rows with AVX2, 14 with
    // AVX-512 (the divisor of M actually used may be smaller).
    schedule.rowTile = (target->vectorRegisters() - 4) / 2;
    schedule.threads = target->threads;
    pm.addNestedPass<func::FuncOp>(createTclCpuDefaultSchedule(schedule));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  } else if (options.schedule != "loops") {
    llvm::errs() << "tcl-lower-cpu: unknown schedule '" << options.schedule
                 << "' (expected 'default', 'loops' or a schedule file "
                    "ending in .mlir)\n";
    return failure();
  }
  addBufferization(pm);
  if (options.profile)
    pm.addPass(createTclProfileOps());
  addLoweringToLLVM(pm, *target);
  return success();
}

void tcl::addGpuCodegenPasses(OpPassManager &pm, const GpuTarget &target,
                               StringRef format) {
  pm.addPass(createCanonicalizerPass());
  // Identity layouts at the boundary: tcl-runner passes plain pointers.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTclGpuMapToLaunch());
  // Per-thread temporaries (a copy's staging vector) live in registers.
  bufferization::PromoteBuffersToStackPassOptions stack;
  stack.maxAllocSizeInBytes = 4096;
  pm.addNestedPass<func::FuncOp>(
      bufferization::createPromoteBuffersToStackPass(stack));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createTclGpuRecordLaunches());
  pm.addNestedPass<gpu::GPUModuleOp>(createTclGpuAlignWorkgroupMemory());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertLinalgToLoopsPass());
  VectorTransferToSCFOptions transferOptions;
  transferOptions.enableFullUnroll();
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertVectorToSCFPass(transferOptions));
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // 128-bit global and shared loads, and loop-carried vector accumulators
  // lowered before the GPU-to-NVVM conversion (FACTS.md).
  ConvertVectorToLLVMPassOptions vectorOptions;
  vectorOptions.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  vectorOptions.useVectorAlignment = true;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertVectorToLLVMPass(vectorOptions));
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = target.chip;
  nvvm.cubinFeatures = target.ptxFeatures;
  nvvm.cubinFormat = format.str();
  nvvm.kernelUseBarePtrCallConv = true;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

LogicalResult tcl::buildGpuLoweringPipeline(OpPassManager &pm,
                                            const GpuLoweringOptions &options) {
  llvm::Expected<GpuTarget> target = GpuTarget::parse(options.target);
  if (!target) {
    llvm::errs() << "tcl-lower-gpu: " << llvm::toString(target.takeError())
                 << "\n";
    return failure();
  }
  if (!llvm::is_contained({"isa", "bin", "fatbin"}, options.format)) {
    llvm::errs() << "tcl-lower-gpu: unknown format '" << options.format
                 << "' (expected isa, bin or fatbin)\n";
    return failure();
  }
  if (!StringRef(options.schedule).ends_with(".mlir")) {
    llvm::errs() << "tcl-lower-gpu: schedule= needs a schedule file (.mlir) "
                    "from tcl-concretize of a tcl-gpu-space (GPU code has no "
                    "default schedule yet)\n";
    return failure();
  }
  TclApplyScheduleOptions apply;
  apply.schedulePath = options.schedule;
  pm.addPass(createTclApplySchedule(apply));
  addGpuCodegenPasses(pm, *target, options.format);
  if (!options.exportDir.empty()) {
    TclGpuExportKernelsOptions exportOptions;
    exportOptions.outputDir = options.exportDir;
    pm.addPass(createTclGpuExportKernels(exportOptions));
  }
  return success();
}

/// Registers pipeline `name`, whose options parse into `Options` and which
/// `build` fills. Not PassPipelineRegistration: its builder returns void,
/// which would drop the failure of a bad option and let tcl-opt exit 0 with
/// the module unchanged.
template <typename Options>
static void registerFailablePipeline(
    StringRef name, StringRef description,
    LogicalResult (*build)(OpPassManager &, const Options &)) {
  registerPassPipeline(
      name, description,
      [build](OpPassManager &pm, StringRef optionsText,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        return build(pm, options);
      },
      [](function_ref<void(const detail::PassOptions &)> optionsHandler) {
        optionsHandler(Options());
      });
}

void tcl::registerTclPipelines() {
  registerFailablePipeline<CpuLoweringOptions>(
      "tcl-lower-cpu",
      "Lower linalg on tensors to the LLVM dialect for a CPU target, with the "
      "default schedule",
      buildCpuLoweringPipeline);
  registerFailablePipeline<GpuLoweringOptions>(
      "tcl-lower-gpu",
      "Apply a GPU schedule and compile the module for an NVVM target: "
      "gpu.launch, kernel outlining, NVVM, and PTX or cubin objects",
      buildGpuLoweringPipeline);
}
