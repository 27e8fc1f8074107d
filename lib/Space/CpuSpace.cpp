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

/// The sequence of occurrence `index` of `count` of task `key`: one that
/// matches that occurrence's tag (annotateTasks). The first keeps the name
/// @tcl_<key> and the attributes (kind, constraints, FLOPs) that describe
/// the task's space; the others are @tcl_<key>_<index>, share its knobs by
/// name, and carry no attributes, so the space is read once.
static std::string sequenceForOccurrence(llvm::StringRef sequence,
                                         llvm::StringRef key, size_t index,
                                         size_t count) {
  if (count == 1)
    return sequence.str();
  std::string quotedKey = ("\"" + key + "\"").str();
  std::string quotedTag = "\"" + occurrenceTag(key, index, count) + "\"";
  std::string copy;
  for (size_t at = 0;;) {
    size_t found = sequence.find(quotedKey, at);
    copy += sequence.slice(at, found).str();
    if (found == llvm::StringRef::npos)
      break;
    copy += quotedTag;
    at = found + quotedKey.size();
  }
  if (index == 0)
    return copy;
  std::string name = ("@tcl_" + key + "(").str();
  size_t nameAt = copy.find(name);
  copy.replace(nameAt, name.size(),
               ("@tcl_" + key + "_" + llvm::Twine(index) + "(").str());
  // Drop the header's attribute dictionary, skipping quoted strings.
  size_t header = copy.find('\n');
  size_t begin = copy.rfind(" attributes {", header);
  if (begin != std::string::npos && begin > nameAt) {
    size_t end = begin + 13;
    for (int depth = 1; end < header && depth > 0; ++end) {
      if (copy[end] == '"')
        end = copy.find('"', end + 1);
      else if (copy[end] == '{')
        ++depth;
      else if (copy[end] == '}')
        --depth;
    }
    copy.erase(begin, end - begin);
  }
  return copy;
}

FailureOr<OwningOpRef<ModuleOp>>
tcl::buildSpace(ModuleOp payload, TemplateFn writeTemplate) {
  llvm::StringMap<Operation *> anchorByKey;
  llvm::StringMap<size_t> occurrences;
  // Where each occurrence's schedule tiles from: its fusion root, else its
  // anchor, as a position in the module's pre-order walk.
  llvm::StringMap<size_t> rootPosition;
  size_t position = 0;
  TaskSet tasks = annotateTasks(payload);
  payload.walk<WalkOrder::PreOrder>([&](Operation *op) {
    ++position;
    if (auto tag = op->getAttrOfType<StringAttr>(kTaskAttrName)) {
      anchorByKey.try_emplace(keyOfTag(tag.getValue()), op);
      ++occurrences[keyOfTag(tag.getValue())];
      rootPosition.try_emplace(tag.getValue(), position);
    }
    if (auto tag = op->getAttrOfType<StringAttr>(kFusionRootAttrName))
      rootPosition[tag.getValue()] = position;
  });
  std::string text =
      "module attributes {transform.with_named_sequence} {\n";
  std::string main = "  transform.named_sequence @__transform_main(%root: "
                     "!transform.any_op {transform.readonly}) {\n";
  std::vector<std::pair<size_t, std::string>> includes;
  for (const Task &task : tasks.tasks) {
    auto anchor = cast<linalg::LinalgOp>(anchorByKey[task.key]);
    std::optional<std::string> written = writeTemplate(anchor, task);
    if (!written)
      continue;
    std::string sequence = std::move(*written);
    // The task's work, for tools that weigh spaces (tcl-print-space).
    size_t attributes = sequence.find("attributes {");
    sequence.insert(attributes + 12,
                    llvm::formatv("tcl.flops = {0} : i64, ",
                                  static_cast<int64_t>(task.flops))
                        .str());
    size_t count = occurrences[task.key];
    for (size_t index = 0; index < count; ++index) {
      std::string copy = sequenceForOccurrence(sequence, task.key, index, count);
      std::string name = copy.substr(copy.find('@') + 1);
      name = name.substr(0, name.find('('));
      text += copy;
      includes.push_back(
          {rootPosition.lookup(occurrenceTag(task.key, index, count)), name});
    }
  }
  // Occurrences are scheduled in the order of the ops they tile from. A
  // schedule that fuses a chain into its root's loops also fuses every
  // producer still made of linalg ops upstream, copies of other tasks' ops
  // (and their tags) included; scheduling those first, while they sit
  // upstream, turns them into loops that fusion leaves alone.
  llvm::stable_sort(includes);
  for (const auto &[position, name] : includes)
    main += "    transform.include @" + name +
            " failures(propagate) (%root) : (!transform.any_op) -> ()\n";
  text += main + "    transform.yield\n  }\n}\n";
  ParserConfig config(payload.getContext());
  OwningOpRef<ModuleOp> space = parseSourceString<ModuleOp>(text, config, "tcl-space");
  if (!space) {
    payload.emitError("tcl bug: a generated schedule template does not parse");
    llvm::errs() << text;
    return failure();
  }
  return std::move(space);
}

FailureOr<OwningOpRef<ModuleOp>> tcl::buildCpuSpace(ModuleOp payload,
                                                    const CpuTarget &target) {
  return buildSpace(payload, [&](linalg::LinalgOp anchor, const Task &task)
                                 -> std::optional<std::string> {
    // Softmax has no loops of its own until it is decomposed, and is left
    // to the default schedule after decomposition.
    if (task.kind == TaskKind::Softmax)
      return std::nullopt;
    return writeCpuTemplate(anchor, task.kind, task.key,
                            task.fusableConsumers.size(), target);
  });
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
