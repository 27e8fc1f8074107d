//===- TunePass.cpp - The tcl-tune pass -----------------------------------===//

#include "tcl/Tune/Tuner.h"

#include "tcl/Passes/Passes.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Target/TargetSpec.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

namespace tcl {
#define GEN_PASS_DECL
#define GEN_PASS_DEF_TCLTUNE
#include "tcl/Tune/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {

/// tcl-onednn beside the running executable (tcl-opt and the tools are
/// built into one bin/), else on PATH; empty if neither.
std::string findOnednnTool() {
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!self.empty()) {
    llvm::SmallString<256> sibling(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(sibling, "tcl-onednn");
    if (llvm::sys::fs::can_execute(sibling))
      return sibling.str().str();
  }
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("tcl-onednn");
  return found ? *found : std::string();
}

struct TunePass : public tcl::impl::TclTuneBase<TunePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    // What applying the schedules and the CPU pipeline create.
    OpPassManager pm(ModuleOp::getOperationName());
    tcl::CpuLoweringOptions lowering;
    if (succeeded(tcl::buildCpuLoweringPipeline(pm, lowering)))
      pm.getDependentDialects(registry);
    registry.insert<transform::TransformDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tcl::TuneOptions options;
    options.target = target;
    options.trials = trials;
    options.batchSize = batchSize;
    options.firstBatchSize = firstBatchSize;
    options.database = database;
    options.model = model;
    options.sampler = sampler;
    options.poolFactor = poolFactor;
    options.stallRounds = stallRounds;
    options.confirmations = confirmations;
    options.rdu.representativeness = representativeness;
    options.rdu.diversity = diversity;
    options.rdu.uncertainty = uncertainty;
    options.rdu.performance = performance;
    if (updateSteps >= 0)
      options.updateSteps = static_cast<unsigned>(updateSteps);
    options.anchoredUpdate = updateAnchor;
    options.workers = workers;
    options.seed = seed;
    if (repeats > 0)
      options.evaluation.measurement =
          tcl::MeasurementPolicy::fixed(/*warmup=*/2, repeats);
    options.minTaskFlops = minFlops;
    options.onednnTool = onednn == "auto" ? findOnednnTool() : onednn.getValue();
    options.network = network;
    options.endToEnd = endToEnd;
    options.historyPath = history;
    if (fillElided >= 0)
      options.fillElidedSeed = static_cast<uint64_t>(fillElided);
    options.allowUnsupported = allowUnsupported;
    options.keepDefault = keepDefault;
    options.channelsLast = channelsLast;
    options.progress = !quiet;

    llvm::Expected<tcl::TuneResult> result =
        tcl::tuneModule(module, options, llvm::errs());
    if (!result) {
      emitError(module.getLoc()) << "tcl-tune: " << llvm::toString(result.takeError());
      return signalPassFailure();
    }

    unsigned untuned = result->untunedTasks();
    if (untuned)
      emitWarning(module.getLoc())
          << "tcl-tune: " << untuned << " of " << result->tasks.size()
          << " tasks have no valid schedule and keep the default one (the "
             "summary lists them, with why)";

    if (!exportSchedules.empty()) {
      std::string error;
      auto file = openOutputFile(exportSchedules, &error);
      if (!file) {
        emitError(module.getLoc()) << "tcl-tune: cannot write the schedules: " << error;
        return signalPassFailure();
      }
      result->schedule->print(file->os());
      file->os() << "\n";
      file->keep();
    }

    if (failed(tcl::applySchedule(module, *result->schedule)))
      return signalPassFailure();
    if (!lower)
      return;
    // The tuned ops are scheduled; the CPU pipeline gives every other op
    // the default schedule and lowers the module.
    llvm::Expected<tcl::TargetSpec> spec = tcl::TargetSpec::parse(target);
    if (!spec) {
      emitError(module.getLoc()) << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createCanonicalizerPass());
    tcl::CpuLoweringOptions lowering;
    lowering.cpu = spec->cpu;
    lowering.features = spec->features;
    lowering.threads = spec->threads;
    lowering.schedule = "default";
    if (failed(tcl::buildCpuLoweringPipeline(pm, lowering)) ||
        failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};

} // namespace

void tcl::registerTclTunePasses() { ::mlir::registerPass([] {
  return std::unique_ptr<Pass>(new TunePass());
}); }
