//===- CpuSpace.cpp - CPU schedule spaces of a model's tasks --------------===//

#include "tcl/Space/CpuSpace.h"
#include "TemplateWriter.h"

#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tcl;

std::string tcl::writeCpuTemplate(linalg::LinalgOp anchor, TaskKind kind,
                                  llvm::StringRef key, unsigned fusedConsumers,
                                  const CpuTarget &target) {
  TemplateWriter writer(key, stringifyTaskKind(kind), target, fusedConsumers);
  switch (kind) {
  case TaskKind::Matmul:
  case TaskKind::BatchMatmul:
    writeContractionTemplate(writer, anchor,
                             /*isMatmul=*/isa<linalg::MatmulOp>(anchor));
    break;
  case TaskKind::Conv2D:
  case TaskKind::DepthwiseConv2D:
  case TaskKind::Pooling:
    if (!writeConvolutionTemplate(writer, anchor))
      writeGenericTemplate(writer, anchor);
    break;
  default:
    writeGenericTemplate(writer, anchor);
    break;
  }
  return writer.str();
}

FailureOr<OwningOpRef<ModuleOp>> tcl::buildCpuSpace(ModuleOp payload,
                                                    const CpuTarget &target) {
  llvm::StringMap<Operation *> anchorByKey;
  TaskSet tasks = annotateTasks(payload);
  payload.walk([&](Operation *op) {
    if (auto key = op->getAttrOfType<StringAttr>(kTaskAttrName))
      anchorByKey.try_emplace(key.getValue(), op);
  });
  std::string text =
      "module attributes {transform.with_named_sequence} {\n";
  std::string main = "  transform.named_sequence @__transform_main(%root: "
                     "!transform.any_op {transform.readonly}) {\n";
  for (const Task &task : tasks.tasks) {
    // Softmax has no loops of its own until it is decomposed, and is left
    // to the default schedule after decomposition.
    if (task.kind == TaskKind::Softmax)
      continue;
    auto anchor = cast<linalg::LinalgOp>(anchorByKey[task.key]);
    std::string sequence = writeCpuTemplate(
        anchor, task.kind, task.key, task.fusableConsumers.size(), target);
    // The task's work, for tools that weigh spaces (tcl-print-space).
    size_t attributes = sequence.find("attributes {");
    sequence.insert(attributes + 12,
                    llvm::formatv("tcl.flops = {0} : i64, ",
                                  static_cast<int64_t>(task.flops))
                        .str());
    text += sequence;
    main += "    transform.include @tcl_" + task.key +
            " failures(propagate) (%root) : (!transform.any_op) -> ()\n";
  }
  text += main + "    transform.yield\n  }\n}\n";
  ParserConfig config(payload.getContext());
  OwningOpRef<ModuleOp> space = parseSourceString<ModuleOp>(text, config, "tcl-cpu-space");
  if (!space) {
    payload.emitError("tcl bug: a generated schedule template does not parse");
    llvm::errs() << text;
    return failure();
  }
  return std::move(space);
}

FailureOr<OwningOpRef<ModuleOp>> tcl::buildCpuSpace(ModuleOp payload,
                                                    StringRef cpu,
                                                    StringRef features,
                                                    unsigned threads) {
  llvm::Expected<CpuTarget> target = CpuTarget::resolve(cpu, features, threads);
  if (!target) {
    payload.emitError() << llvm::toString(target.takeError());
    return failure();
  }
  return buildCpuSpace(payload, *target);
}

LogicalResult tcl::applySchedule(ModuleOp payload, ModuleOp schedule) {
  annotateTasks(payload);
  Operation *entry = transform::detail::findTransformEntryPoint(
      payload, schedule, transform::TransformDialect::kTransformEntryPointSymbolName);
  if (!entry)
    return schedule.emitError("the schedule has no @__transform_main");
  return transform::applyTransformNamedSequence(payload, entry, schedule,
                                                transform::TransformOptions());
}
