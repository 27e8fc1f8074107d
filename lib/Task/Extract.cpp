//===- Extract.cpp - Group a module's tunable ops into tasks --------------===//

#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tcl;

/// "file:line:col" of the first file location inside `loc`, else its text.
static SourceLocation formatLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool found = false;
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
         << fileLoc.getColumn();
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    os << loc;
  return text;
}

/// Anchors are the ops whose schedule has tiles worth fusing into: the
/// compute-bound families and pooling.
static bool isFusionAnchor(TaskKind kind) {
  return kind != TaskKind::Elementwise && kind != TaskKind::Reduction &&
         kind != TaskKind::Softmax;
}

/// If the only user of `producer`'s single result is an elementwise op over
/// the same iteration space that reads it with an identity map, returns that
/// user: it can be computed on each output tile while the tile is hot.
static linalg::LinalgOp fusableConsumerOf(Operation *producer) {
  if (producer->getNumResults() != 1 || !producer->getResult(0).hasOneUse())
    return {};
  OpOperand &use = *producer->getResult(0).getUses().begin();
  auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!consumer || consumer->getNumResults() != 1 ||
      !consumer.hasPureTensorSemantics() || consumer.hasDynamicShape() ||
      consumer.getNumReductionLoops() != 0 || isa<linalg::FillOp>(consumer))
    return {};
  Classification cls = classifyOp(consumer);
  if (cls.kind != TaskKind::Elementwise)
    return {};
  if (!consumer.getMatchingIndexingMap(&use).isIdentity())
    return {};
  auto producedType = cast<ShapedType>(producer->getResult(0).getType());
  if (consumer.getStaticLoopRanges() !=
      llvm::to_vector(producedType.getShape()))
    return {};
  return consumer;
}

namespace {
struct Candidate {
  Operation *op;
  TaskKind kind;
  std::vector<Operation *> consumers;
};
} // namespace

static Task makeTask(const Candidate &candidate) {
  Operation *op = candidate.op;
  Task task;
  task.kind = candidate.kind;
  task.opName = op->getName().getStringRef().str();
  task.canonicalForm = canonicalForm(op);
  task.flops = countFlops(op);
  task.bytes = countBytes(op);
  for (Type type : op->getOperandTypes()) {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    task.operandTypes.push_back(text);
  }
  if (op->getNumResults() > 0) {
    llvm::raw_string_ostream(task.elementType)
        << getElementTypeOrSelf(op->getResult(0).getType());
  }

  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    for (utils::IteratorType type : linalgOp.getIteratorTypesArray())
      task.iteratorTypes.push_back(utils::stringifyIteratorType(type).str());
    task.loopBounds = linalgOp.getStaticLoopRanges();
    if (task.kind == TaskKind::Matmul || task.kind == TaskKind::BatchMatmul) {
      // A operand is transposed when its last dim is not k; B when its
      // last dim is not n (the row-major "nn" layout is the reference).
      auto dims = linalg::inferContractionDims(linalgOp);
      auto maps = linalgOp.getIndexingMapsArray();
      auto lastDimIs = [&](AffineMap map, ArrayRef<unsigned> candidates) {
        if (map.getNumResults() == 0 || candidates.empty())
          return true;
        auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
        return last && llvm::is_contained(candidates, last.getPosition());
      };
      task.matmulVariant = std::string(lastDimIs(maps[0], dims->k) ? "n" : "t") +
                           (lastDimIs(maps[1], dims->n) ? "n" : "t");
    }
    if (auto convDims = linalg::inferConvolutionDims(linalgOp);
        succeeded(convDims) && task.kind != TaskKind::Matmul &&
        task.kind != TaskKind::BatchMatmul && task.kind != TaskKind::Elementwise &&
        task.kind != TaskKind::Reduction) {
      ConvInfo info;
      info.strides.assign(convDims->strides.begin(), convDims->strides.end());
      info.dilations.assign(convDims->dilations.begin(),
                            convDims->dilations.end());
      for (unsigned dim : convDims->filterLoop)
        info.filterSizes.push_back(task.loopBounds[dim]);
      for (unsigned dim : convDims->depth)
        info.groups *= task.loopBounds[dim];
      StringRef name = op->getName().getStringRef();
      for (StringRef prefix : {"linalg.conv_2d_", "linalg.depthwise_conv_2d_",
                               "linalg.pooling_"})
        if (name.starts_with(prefix))
          info.layout = name.drop_front(prefix.size()).str();
      task.conv = std::move(info);
    }
  }

  for (Operation *consumer : candidate.consumers) {
    FusedConsumer fused{consumer->getName().getStringRef().str(),
                        canonicalForm(consumer)};
    task.canonicalForm += " then " + fused.canonicalForm;
    task.flops += countFlops(consumer);
    // The fused chain reads each consumer's extra inputs; the intermediate
    // results stay in registers, and the last result replaces the anchor's.
    auto linalgConsumer = cast<linalg::LinalgOp>(consumer);
    for (OpOperand *input : linalgConsumer.getDpsInputOperands()) {
      Operation *def = input->get().getDefiningOp();
      if (def != op && !llvm::is_contained(candidate.consumers, def))
        task.bytes += shapedTypeBytes(input->get().getType());
    }
    task.fusableConsumers.push_back(std::move(fused));
  }
  task.key = stableKey(task.canonicalForm);
  return task;
}

TaskSet tcl::extractTasks(
    ModuleOp module,
    function_ref<void(Operation *, const Classification &)> onUnsupported,
    function_ref<void(const TaskOccurrence &, const Task &)> onOccurrence) {
  TaskSet result;
  std::vector<Candidate> candidates;
  llvm::DenseSet<Operation *> absorbed;

  module.walk([&](Operation *op) {
    if (absorbed.contains(op))
      return;
    Classification cls = classifyOp(op);
    if (cls.ignored)
      return;
    if (!cls.kind) {
      result.unsupported.push_back({op->getName().getStringRef().str(),
                                    formatLocation(op->getLoc()),
                                    cls.unsupportedReason});
      if (onUnsupported)
        onUnsupported(op, cls);
      return;
    }
    Candidate candidate{op, *cls.kind, {}};
    if (isFusionAnchor(*cls.kind)) {
      Operation *tail = op;
      while (linalg::LinalgOp consumer = fusableConsumerOf(tail)) {
        // A consumer of two anchors (add(matmul, matmul)) fuses into the
        // first one only; counting it twice would double its FLOPs.
        if (absorbed.contains(consumer))
          break;
        candidate.consumers.push_back(consumer);
        absorbed.insert(consumer);
        tail = consumer;
      }
    }
    candidates.push_back(std::move(candidate));
  });

  llvm::StringMap<size_t> indexByKey;
  for (const Candidate &candidate : candidates) {
    Task task = makeTask(candidate);
    auto [it, inserted] = indexByKey.try_emplace(task.key, result.tasks.size());
    if (inserted)
      result.tasks.push_back(std::move(task));
    Task &grouped = result.tasks[it->second];
    ++grouped.weight;
    grouped.locations.push_back(formatLocation(candidate.op->getLoc()));
    if (onOccurrence)
      onOccurrence({candidate.op, candidate.consumers}, grouped);
  }
  return result;
}

std::string tcl::occurrenceTag(llvm::StringRef key, size_t index,
                               size_t count) {
  return count == 1 ? key.str() : (key + "." + llvm::Twine(index)).str();
}

TaskSet tcl::annotateTasks(ModuleOp module) {
  std::vector<std::pair<std::string, std::pair<Operation *, std::vector<Operation *>>>>
      occurrences;
  TaskSet tasks = extractTasks(
      module, {}, [&](const TaskOccurrence &occurrence, const Task &task) {
        occurrences.push_back(
            {task.key,
             {occurrence.anchor,
              std::vector<Operation *>(occurrence.consumers.begin(),
                                       occurrence.consumers.end())}});
      });
  llvm::StringMap<size_t> count, seen;
  for (const auto &[key, ops] : occurrences)
    ++count[key];
  for (const auto &[key, ops] : occurrences) {
    const auto &[anchor, consumers] = ops;
    auto tag = StringAttr::get(module.getContext(),
                               occurrenceTag(key, seen[key]++, count[key]));
    anchor->setAttr(kTaskAttrName, tag);
    for (auto [index, consumer] : llvm::enumerate(consumers))
      consumer->setAttr(index + 1 == consumers.size() ? kFusionRootAttrName
                                                      : kFusedConsumerAttrName,
                        tag);
  }
  return tasks;
}
