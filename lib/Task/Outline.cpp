//===- Outline.cpp - A task occurrence as a module of its own -------------===//

#include "tcl/Task/TaskExtraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace tcl;

/// An accumulator the outlined function can rebuild itself: an empty tensor,
/// or a constant fill of one. Returns the ops to clone, producers first.
static SmallVector<Operation *> rebuildableInit(Value value) {
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(def))
    return {def};
  auto fill = dyn_cast_or_null<linalg::FillOp>(def);
  if (!fill)
    return {};
  Operation *scalar = fill.getInputs()[0].getDefiningOp();
  Operation *empty = fill.getOutputs()[0].getDefiningOp();
  if (!isa_and_nonnull<arith::ConstantOp>(scalar) ||
      !isa_and_nonnull<tensor::EmptyOp>(empty))
    return {};
  return {scalar, empty, fill};
}

FailureOr<OwningOpRef<ModuleOp>>
tcl::outlineTask(const TaskOccurrence &occurrence, std::string &whyNot) {
  SmallVector<Operation *> chain{occurrence.anchor};
  chain.append(occurrence.consumers.begin(), occurrence.consumers.end());
  Location loc = occurrence.anchor->getLoc();
  MLIRContext *context = occurrence.anchor->getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder(context);

  // Classify every value the chain reads from outside: arguments, or ops
  // to rebuild inside.
  SmallVector<Value> arguments;
  SmallVector<Operation *> rebuilt;
  for (Operation *op : chain) {
    // Payloads may capture scalars from above (a pooling's 1/49 scale).
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured) {
      Operation *def = value.getDefiningOp();
      if (!isa_and_nonnull<arith::ConstantOp>(def)) {
        whyNot = "its payload captures a value that is not a constant";
        return failure();
      }
      if (!llvm::is_contained(rebuilt, def))
        rebuilt.push_back(def);
    }
    auto linalgOp = cast<linalg::LinalgOp>(op);
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      Operation *def = value.getDefiningOp();
      if (def && llvm::is_contained(chain, def))
        continue;
      if (llvm::is_contained(arguments, value))
        continue;
      if (def && llvm::is_contained(rebuilt, def))
        continue;
      if (!isa<RankedTensorType>(value.getType())) {
        if (isa_and_nonnull<arith::ConstantOp>(def)) {
          rebuilt.push_back(def);
          continue;
        }
        whyNot = "it reads a scalar that is not a constant";
        return failure();
      }
      if (linalgOp.isDpsInit(&operand)) {
        SmallVector<Operation *> init = rebuildableInit(value);
        if (!init.empty()) {
          for (Operation *initOp : init)
            if (!llvm::is_contained(rebuilt, initOp))
              rebuilt.push_back(initOp);
          continue;
        }
      }
      arguments.push_back(value);
    }
  }

  SmallVector<Type> argumentTypes;
  for (Value value : arguments)
    argumentTypes.push_back(value.getType());
  Value result = chain.back()->getResult(0);
  builder.setInsertionPointToEnd(module->getBody());
  auto function = func::FuncOp::create(
      builder, loc, "forward",
      builder.getFunctionType(argumentTypes, {result.getType()}));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  for (Operation *op : rebuilt)
    builder.clone(*op, mapping);
  for (Operation *op : chain) {
    Operation *clone = builder.clone(*op, mapping);
    clone->removeAttr(kTaskAttrName);
    clone->removeAttr(kFusionRootAttrName);
    clone->removeAttr(kFusedConsumerAttrName);
  }
  func::ReturnOp::create(builder, loc, mapping.lookup(result));
  return std::move(module);
}
