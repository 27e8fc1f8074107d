//===- GpuBatch.cpp - The tcl-gpu-batch pass ------------------------------===//
//
// Builds the inputs of tcl-runner: random legal GPU schedules of every task,
// each compiled in-process (one module clone and pass manager per schedule)
// to PTX with its launch config.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Space/GpuSpace.h"
#include "tcl/Space/Space.h"
#include "tcl/Target/GpuTarget.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <map>

namespace tcl {
#define GEN_PASS_DEF_TCLGPUBATCH
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// A module whose `@forward` computes `anchor` alone, every operand an
/// argument (the output's init last), returning the result; constants its
/// body reads are cloned in. On the GPU each op is a kernel of its own, so
/// fused consumers are not included. None when the body reads a scalar that
/// is not a constant (tcl-runner passes only buffers).
static std::optional<OwningOpRef<ModuleOp>> outlineOp(Operation *anchor) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(anchor->getRegions(), captured);
  for (Value value : captured) {
    Operation *definition = value.getDefiningOp();
    if (!definition || !definition->hasTrait<OpTrait::ConstantLike>())
      return std::nullopt;
  }
  OpBuilder builder(anchor->getContext());
  Location loc = anchor->getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto type = builder.getFunctionType(anchor->getOperandTypes(),
                                      anchor->getResultTypes());
  auto func = func::FuncOp::create(builder, loc, "forward", type);
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  IRMapping mapping;
  mapping.map(anchor->getOperands(), body->getArguments());
  for (Value value : captured)
    builder.clone(*value.getDefiningOp(), mapping);
  Operation *clone = builder.clone(*anchor, mapping);
  func::ReturnOp::create(builder, loc, clone->getResults());
  return module;
}

/// How tcl-runner checks a candidate of `op`: against cuBLAS when it is a
/// plain row-major matmul or batch_matmul, else against the reference.
static llvm::json::Value checkOf(linalg::LinalgOp op, llvm::StringRef key) {
  bool plain = isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
               !op->hasAttr("indexing_maps") &&
               cast<ShapedType>(op.getDpsInits()[0].getType())
                   .getElementType()
                   .isF32();
  if (plain) {
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    bool batched = bounds.size() == 4;
    return llvm::json::Object{
        {"gemm", llvm::json::Object{{"batch", batched ? bounds[0] : 1},
                                    {"m", bounds[batched ? 1 : 0]},
                                    {"n", bounds[batched ? 2 : 1]},
                                    {"k", bounds[batched ? 3 : 2]}}}};
  }
  return llvm::json::Object{{"reference", ("ref-" + key + ".json").str()}};
}

/// The shape cuDNN needs to run `op` as a 2-D f32 convolution (NHWC input
/// without padding, as the model's pad op already made it), for
/// tcl-runner's vendor baseline; none for other ops.
static std::optional<llvm::json::Value> cudnnShapeOf(linalg::LinalgOp op) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->outputImage.size() != 2 ||
      dims->filterLoop.size() != 2 || op.getNumDpsInits() != 1 ||
      !cast<ShapedType>(op.getDpsInits()[0].getType()).getElementType().isF32())
    return std::nullopt;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  auto product = [&](ArrayRef<unsigned> loops) {
    int64_t size = 1;
    for (unsigned loop : loops)
      size *= bounds[loop];
    return size;
  };
  int64_t groups = product(dims->depth);
  int64_t inputChannels = product(dims->inputChannel) * groups;
  int64_t outputChannels = product(dims->outputChannel) * groups;
  llvm::json::Array input, stride, dilation;
  for (unsigned i = 0; i < 2; ++i) {
    int64_t out = bounds[dims->outputImage[i]];
    int64_t filter = bounds[dims->filterLoop[i]];
    input.push_back((out - 1) * dims->strides[i] +
                    (filter - 1) * dims->dilations[i] + 1);
    stride.push_back(dims->strides[i]);
    dilation.push_back(dims->dilations[i]);
  }
  return llvm::json::Object{
      {"n", product(dims->batch)},
      {"c", inputChannels},
      {"k", outputChannels},
      {"input", std::move(input)},
      {"filter", llvm::json::Array{bounds[dims->filterLoop[0]],
                                   bounds[dims->filterLoop[1]]}},
      {"stride", std::move(stride)},
      {"dilation", std::move(dilation)},
      {"groups", groups}};
}

namespace {
struct GpuBatchPass : public tcl::impl::TclGpuBatchBase<GpuBatchPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp model = getOperation();
    llvm::Expected<tcl::GpuTarget> parsed = tcl::GpuTarget::parse(target);
    if (!parsed) {
      model.emitError() << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    gpuTarget = *parsed;
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir)) {
      model.emitError() << "cannot create '" << outputDir
                        << "': " << error.message();
      return signalPassFailure();
    }
    std::error_code error;
    llvm::SmallString<256> logPath(outputDir);
    llvm::sys::path::append(logPath, "build.jsonl");
    llvm::raw_fd_ostream logStream(logPath, error);
    log = &logStream;
    if (error) {
      model.emitError() << "cannot write '" << logPath << "': " << error.message();
      return signalPassFailure();
    }

    llvm::SmallString<256> tasksPath(outputDir);
    llvm::sys::path::append(tasksPath, "tasks.jsonl");
    llvm::raw_fd_ostream tasksLog(tasksPath, error);
    if (error) {
      model.emitError() << "cannot write '" << tasksPath
                        << "': " << error.message();
      return signalPassFailure();
    }

    std::vector<std::pair<Operation *, tcl::Task>> tasks;
    std::map<std::string, int64_t> occurrences;
    tcl::extractTasks(model, {}, [&](const tcl::TaskOccurrence &occurrence,
                                     const tcl::Task &task) {
      if (task.flops >= minFlops && occurrences[task.key]++ == 0)
        tasks.push_back({occurrence.anchor, task});
    });
    unsigned built = 0, failed = 0;
    for (auto &[anchor, task] : tasks) {
      if (task.kind == tcl::TaskKind::Softmax)
        continue;
      std::optional<OwningOpRef<ModuleOp>> outlined = outlineOp(anchor);
      if (!outlined) {
        *log << llvm::json::Value(llvm::json::Object{
                    {"task", task.key},
                    {"kind", tcl::stringifyTaskKind(task.kind).str()},
                    {"status", "skipped"},
                    {"message", "the op reads a scalar that is not a constant"}})
             << "\n";
        continue;
      }
      OwningOpRef<ModuleOp> payload = std::move(*outlined);
      std::string payloadText;
      llvm::raw_string_ostream payloadStream(payloadText);
      payload->print(payloadStream);
      llvm::json::Object networks;
      if (!network.empty())
        networks[network] = occurrences[task.key];
      tasksLog << llvm::json::Value(llvm::json::Object{
                      {"type", "task"},
                      {"key", task.key},
                      {"kind", tcl::stringifyTaskKind(task.kind).str()},
                      {"flops", task.flops},
                      {"networks", std::move(networks)},
                      {"payload", payloadText}})
               << "\n";
      auto space = tcl::buildGpuSpace(*payload, gpuTarget);
      if (::failed(space))
        return signalPassFailure();
      auto sequences = (*space)->getOps<transform::NamedSequenceOp>();
      if (sequences.empty())
        continue;
      FailureOr<tcl::Space> knobs = tcl::Space::fromScript(space->get());
      if (::failed(knobs))
        return signalPassFailure();
      auto op = cast<linalg::LinalgOp>(payload->getBody()
                                           ->front()
                                           .getRegion(0)
                                           .front()
                                           .front());
      // What tcl-runner needs beyond the launch: how to check a candidate
      // and, for convolutions, the shape of the cuDNN baseline.
      llvm::json::Object runnerFields{{"check", checkOf(op, task.key)}};
      bool convolution = task.kind == tcl::TaskKind::Conv2D ||
                         task.kind == tcl::TaskKind::GroupedConv2D ||
                         task.kind == tcl::TaskKind::DepthwiseConv2D;
      if (convolution)
        if (std::optional<llvm::json::Value> shape = cudnnShapeOf(op))
          runnerFields["cudnn"] = std::move(*shape);
      if (runnerFields.getObject("check")->get("reference")) {
        if (std::optional<tcl::Assignment> smallest = smallestTiles(*knobs))
          buildOne(*payload, **space, *knobs, *smallest, task,
                   "ref-" + task.key, nullptr);
      }
      std::set<tcl::Assignment> drawn;
      for (uint64_t draw = 0; drawn.size() < count && draw < 20ull * count;
           ++draw) {
        std::optional<tcl::Assignment> assignment =
            knobs->sample(seed * 1000003ull + draw);
        if (!assignment)
          break;
        if (!drawn.insert(*assignment).second)
          continue;
        std::string name = task.key + "-" + std::to_string(drawn.size() - 1);
        if (buildOne(*payload, **space, *knobs, *assignment, task, name,
                     &runnerFields))
          ++built;
        else
          ++failed;
      }
    }
    llvm::errs() << "tcl-gpu-batch: " << built << " kernels built, " << failed
                 << " failed, " << tasks.size() << " tasks, in " << outputDir
                 << "\n";
  }

  /// The legal schedule with the smallest option of every knob that allows
  /// it, in knob order: small tiles, few threads, no staging. It is the
  /// reference that other schedules of the task are checked against.
  std::optional<tcl::Assignment> smallestTiles(const tcl::Space &space) {
    tcl::Assignment assignment(space.knobs().size(), 0);
    std::function<bool(size_t)> search = [&](size_t knob) {
      if (knob == assignment.size())
        return space.isLegal(assignment);
      for (unsigned option = 0; option < space.knobs()[knob].options.size();
           ++option) {
        assignment[knob] = option;
        if (search(knob + 1))
          return true;
      }
      return false;
    };
    if (!search(0))
      return std::nullopt;
    return assignment;
  }

  /// Compiles `payload` under `assignment` of `space` and writes the kernel
  /// as `name`; logs the outcome. Returns whether it built.
  bool buildOne(ModuleOp payload, ModuleOp spaceModule, const tcl::Space &space,
                const tcl::Assignment &assignment, const tcl::Task &task,
                const std::string &name, const llvm::json::Object *runnerFields) {
    auto start = std::chrono::steady_clock::now();
    OwningOpRef<ModuleOp> schedule = cast<ModuleOp>(spaceModule->clone());
    space.concretize(*schedule, assignment);
    // The database's name for the schedule: a hash of its concrete script,
    // as tcl::makeRecord computes it for CPU records.
    std::string script;
    llvm::raw_string_ostream scriptOs(script);
    schedule->print(scriptOs);
    OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(payload->clone());
    std::string diagnostics;
    LogicalResult result = success();
    {
      ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          diagnostics += diag.str() + "\n";
        return success();
      });
      result = tcl::applySchedule(*candidate, *schedule);
      if (::succeeded(result)) {
        PassManager pm(&getContext());
        tcl::addGpuCodegenPasses(pm, gpuTarget, format);
        tcl::TclGpuExportKernelsOptions exportOptions;
        exportOptions.outputDir = outputDir;
        exportOptions.name = name;
        pm.addPass(tcl::createTclGpuExportKernels(exportOptions));
        result = pm.run(*candidate);
      }
    }
    std::string knobs = space.format(assignment);
    llvm::json::Object entry{{"name", name},
                             {"task", task.key},
                             {"kind", tcl::stringifyTaskKind(task.kind).str()},
                             {"schedule", knobs},
                             {"script_hash", llvm::utohexstr(llvm::xxh3_64bits(script),
                                                             true, 16)},
                             {"compile_s", std::chrono::duration<double>(
                                               std::chrono::steady_clock::now() - start)
                                               .count()},
                             {"status", ::succeeded(result) ? "built" : "build_error"}};
    if (::failed(result))
      entry["message"] = diagnostics;
    *log << llvm::json::Value(std::move(entry)) << "\n";
    log->flush();
    if (::failed(result))
      return false;
    // Add what the runner needs beyond the launch: the task, the schedule,
    // the check and the baseline's shape.
    llvm::SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name + ".json");
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return false;
    llvm::Expected<llvm::json::Value> config =
        llvm::json::parse((*buffer)->getBuffer());
    if (!config) {
      llvm::consumeError(config.takeError());
      return false;
    }
    llvm::json::Object &object = *config->getAsObject();
    object["task"] = task.key;
    object["kind"] = tcl::stringifyTaskKind(task.kind).str();
    object["schedule"] = knobs;
    object["flops"] = task.flops;
    if (runnerFields)
      for (const auto &[key, value] : *runnerFields)
        object[key] = value;
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    if (error)
      return false;
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(object))) << "\n";
    return true;
  }

  tcl::GpuTarget gpuTarget;
  /// build.jsonl, while the pass runs.
  llvm::raw_ostream *log = nullptr;
};
} // namespace
