//===- tcl-onednn.cpp - Time a task with oneDNN, the vendor baseline ------===//
//
// Reads a task module (one from `tcl-extract-tasks outline-dir=...`), maps
// its tunable op to the oneDNN primitive that computes it (matmul,
// batch_matmul, convolution in NHWC/HWCF or NCHW/FCHW, depthwise
// convolution, pooling, elementwise arithmetic as eltwise and binary
// primitives with post-ops, transposes as reorders) and times it the way
// FACTS measured oneDNN: primitives created and weights reordered into the
// layout oneDNN prefers outside the timed region, inputs touched before
// timing. Fused consumers are not timed: the baseline is the op itself.
//
//===----------------------------------------------------------------------===//

#include "Workload.h"

#include "tcl/Run/MeasurementOptions.h"
#include "tcl/Support/Version.h"
#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <dnnl.hpp>
#include <cstdlib>
#include <unistd.h>

using namespace mlir;
using namespace tcl;
namespace cl = llvm::cl;

static cl::OptionCategory category("tcl-onednn options");
static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<task.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<unsigned> threads("num-threads", cl::desc("oneDNN threads"),
                                 cl::init(1), cl::cat(category));
static MeasurementOptions measurement(category);
static cl::opt<std::string> jsonPath("json", cl::desc("Also write results as JSON"),
                                     cl::init(""), cl::cat(category));

namespace {
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

dnnl::memory::dims dimsOf(Value value) {
  auto shape = cast<ShapedType>(value.getType()).getShape();
  return dnnl::memory::dims(shape.begin(), shape.end());
}

/// Weights given in `userTag`, reordered once into `preferred`.
dnnl::memory reordered(const dnnl::memory::desc &user,
                       const dnnl::memory::desc &preferred,
                       const dnnl::engine &engine, dnnl::stream &stream) {
  dnnl::memory source = filledMemory(user, engine);
  if (user == preferred)
    return source;
  dnnl::memory target(preferred, engine);
  dnnl::reorder(source, target).execute(stream, source, target);
  stream.wait();
  return target;
}

llvm::Expected<Workload> makeWorkload(linalg::LinalgOp op, TaskKind kind,
                                      const dnnl::engine &engine,
                                      dnnl::stream &stream) {
  auto unsupported = [&](llvm::StringRef why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "oneDNN has no baseline for '" +
                                       op->getName().getStringRef().str() +
                                       "': " + why.str());
  };
  if (kind == TaskKind::Elementwise) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      return makeElementwiseWorkload(generic, engine);
    // A named elementwise op (linalg.add, linalg.transpose, ...) is read
    // through the generic form of a copy, so that `op` stays valid for
    // diagnostics.
    IRRewriter rewriter(op->getContext());
    rewriter.setInsertionPoint(op);
    auto copy = cast<linalg::LinalgOp>(rewriter.clone(*op));
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, copy);
    if (failed(generic)) {
      rewriter.eraseOp(copy);
      return unsupported("cannot be written as a linalg.generic");
    }
    llvm::Expected<Workload> work = makeElementwiseWorkload(*generic, engine);
    rewriter.eraseOp(*generic);
    return work;
  }
  if (op.getNumDpsInits() != 1 || op.getNumDpsInputs() == 0)
    return unsupported("one result and at least one operand expected");
  if (!getElementTypeOrSelf(op.getDpsInits()[0].getType()).isF32())
    return unsupported("only f32 is compared");
  Value lhs = op.getDpsInputs()[0];
  Value rhs = op.getDpsInputs().size() > 1 ? op.getDpsInputs()[1] : Value();
  Value out = op.getDpsInits()[0];
  Workload work;
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
      llvm::all_of(cast<linalg::LinalgOp>(op).getIndexingMapsArray(),
                   [&](AffineMap map) { return map.isProjectedPermutation(); }) &&
      op.getIndexingMapsArray() ==
          (isa<linalg::MatmulOp>(op)
               ? linalg::MatmulOp::getDefaultIndexingMaps(op->getContext())
               : linalg::BatchMatmulOp::getDefaultIndexingMaps(op->getContext()))) {
    tag plain = isa<linalg::MatmulOp>(op) ? tag::ab : tag::abc;
    dnnl::memory::desc a(dimsOf(lhs), dt::f32, plain), b(dimsOf(rhs), dt::f32, plain),
        c(dimsOf(out), dt::f32, plain);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), engine);
    work.add("matmul", dnnl::matmul(pd),
             {{DNNL_ARG_SRC, filledMemory(a, engine)},
              {DNNL_ARG_WEIGHTS, filledMemory(b, engine)},
              {DNNL_ARG_DST, dnnl::memory(c, engine)}});
    return work;
  }
  auto attr = [&](llvm::StringRef name) -> dnnl::memory::dims {
    auto dense = op->getAttrOfType<DenseIntElementsAttr>(name);
    dnnl::memory::dims values;
    if (dense)
      for (const APInt &value : dense.getValues<APInt>())
        values.push_back(value.getSExtValue());
    else
      values = {1, 1};
    return values;
  };
  dnnl::memory::dims strides = attr("strides"), dilations = attr("dilations");
  dnnl::memory::dims zeroPadding = {0, 0};
  dnnl::memory::dims oneDnnDilations = {dilations[0] - 1, dilations[1] - 1};
  auto convolution = [&](const dnnl::memory::dims &src, tag srcTag,
                         const dnnl::memory::dims &weights, tag weightsTag,
                         const dnnl::memory::dims &dst) -> llvm::Expected<Workload> {
    dnnl::memory::desc srcDesc(src, dt::f32, srcTag), dstDesc(dst, dt::f32, srcTag);
    dnnl::memory::desc anyWeights(weights, dt::f32, tag::any);
    dnnl::convolution_forward::primitive_desc pd(
        dnnl::convolution_forward::desc(
            dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
            srcDesc, anyWeights, dstDesc, strides, oneDnnDilations, zeroPadding,
            zeroPadding),
        engine);
    work.add("convolution", dnnl::convolution_forward(pd),
             {{DNNL_ARG_SRC, filledMemory(srcDesc, engine)},
              {DNNL_ARG_WEIGHTS,
               reordered(dnnl::memory::desc(weights, dt::f32, weightsTag),
                         pd.weights_desc(), engine, stream)},
              {DNNL_ARG_DST, dnnl::memory(dstDesc, engine)}});
    return work;
  };
  // oneDNN describes activations as NCHW dims whatever their layout.
  auto nchwFromNhwc = [](dnnl::memory::dims d) {
    return dnnl::memory::dims{d[0], d[3], d[1], d[2]};
  };
  if (isa<linalg::Conv2DNhwcHwcfOp>(op)) {
    dnnl::memory::dims f = dimsOf(rhs); // H W C F
    return convolution(nchwFromNhwc(dimsOf(lhs)), tag::nhwc,
                       {f[3], f[2], f[0], f[1]}, tag::hwio,
                       nchwFromNhwc(dimsOf(out)));
  }
  if (isa<linalg::Conv2DNchwFchwOp>(op))
    return convolution(dimsOf(lhs), tag::nchw, dimsOf(rhs), tag::oihw,
                       dimsOf(out));
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
    dnnl::memory::dims f = dimsOf(rhs); // H W C
    return convolution(nchwFromNhwc(dimsOf(lhs)), tag::nhwc,
                       {f[2], 1, 1, f[0], f[1]}, tag::hwigo,
                       nchwFromNhwc(dimsOf(out)));
  }
  bool isMax = isa<linalg::PoolingNhwcMaxOp>(op);
  if (isMax || isa<linalg::PoolingNhwcSumOp>(op)) {
    dnnl::memory::dims window = dimsOf(rhs);
    dnnl::memory::desc srcDesc(nchwFromNhwc(dimsOf(lhs)), dt::f32, tag::nhwc),
        dstDesc(nchwFromNhwc(dimsOf(out)), dt::f32, tag::nhwc);
    // A sum pool costs what an average pool costs (one scale per output).
    dnnl::pooling_v2_forward::primitive_desc pd(
        dnnl::pooling_v2_forward::desc(
            dnnl::prop_kind::forward_inference,
            isMax ? dnnl::algorithm::pooling_max
                  : dnnl::algorithm::pooling_avg_include_padding,
            srcDesc, dstDesc, strides, window, oneDnnDilations, zeroPadding,
            zeroPadding),
        engine);
    work.add("pooling", dnnl::pooling_v2_forward(pd),
             {{DNNL_ARG_SRC, filledMemory(srcDesc, engine)},
              {DNNL_ARG_DST, dnnl::memory(dstDesc, engine)}});
    return work;
  }
  return unsupported("no matching primitive (supported: matmul, "
                     "batch_matmul, conv_2d_nhwc_hwcf, conv_2d_nchw_fchw, "
                     "depthwise_conv_2d_nhwc_hwc, pooling_nhwc_max/sum, "
                     "elementwise arithmetic)");
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) { tcl::printVersion(os); });
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tcl-onednn: time a task's op with oneDNN, the "
                              "CPU vendor baseline\n");
  // oneDNN's OpenMP runtime reads OMP_NUM_THREADS when it loads, before
  // main: run again with it set.
  std::string wanted = std::to_string(threads);
  const char *current = std::getenv("OMP_NUM_THREADS");
  if (!current || wanted != current) {
    setenv("OMP_NUM_THREADS", wanted.c_str(), 1);
    execv("/proc/self/exe", argv);
    llvm::errs() << "tcl-onednn: cannot re-execute with OMP_NUM_THREADS set\n";
    return 1;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(inputPath, &error);
  if (!file) {
    llvm::errs() << "tcl-onednn: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  std::optional<TaskOccurrence> anchor;
  std::optional<Task> task;
  extractTasks(*module, {}, [&](const TaskOccurrence &occurrence, const Task &t) {
    if (!anchor) {
      anchor = TaskOccurrence{occurrence.anchor, {}};
      task = t;
    }
  });
  if (!anchor) {
    llvm::errs() << "tcl-onednn: " << inputPath << " has no tunable op\n";
    return 1;
  }
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    llvm::Expected<Workload> work = makeWorkload(
        cast<linalg::LinalgOp>(anchor->anchor), task->kind, engine, stream);
    if (!work) {
      anchor->anchor->emitError() << llvm::toString(work.takeError());
      return 1;
    }
    Timing timing = measure(
        [&] { work->execute(stream); },
        measurement.policy());
    double flops = countFlops(anchor->anchor);
    llvm::outs() << "tcl-onednn: " << inputPath << ", " << work->primitiveName
                 << ", " << threads << " thread(s)\n"
                 << llvm::formatv("  latency:    median {0:F3} ms, min {1:F3} ms, "
                                  "spread {2:P1} ({3} runs)\n",
                                  timing.median * 1e3, timing.min * 1e3,
                                  timing.relativeSpread, timing.samples.size())
                 << llvm::formatv("  throughput: {0:F2} GFLOP/s\n",
                                  flops / timing.median / 1e9);
    if (!jsonPath.empty()) {
      std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(jsonPath, &error);
      if (!out) {
        llvm::errs() << "tcl-onednn: " << error << "\n";
        return 1;
      }
      llvm::json::Array samples;
      for (double sample : timing.samples)
        samples.push_back(sample);
      out->os() << llvm::formatv(
                       "{0:2}",
                       llvm::json::Value(llvm::json::Object{
                           {"input", inputPath},
                           {"primitive", work->primitiveName},
                           {"threads", int64_t(threads)},
                           {"flops", flops},
                           {"median_s", timing.median},
                           {"min_s", timing.min},
                           {"samples_s", std::move(samples)}}))
                << "\n";
      out->keep();
    }
  } catch (const dnnl::error &e) {
    llvm::errs() << "tcl-onednn: oneDNN error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
