//===- ProfileOps.cpp - The tcl-profile-ops pass --------------------------===//
//
// A network's latency is its tasks plus the glue between them (copies,
// fills, allocations). Marks between the top-level ops of the lowered
// function split one call's time into those parts without a sampling
// profiler, which cannot see into JIT-compiled code.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

namespace tcl {
#define GEN_PASS_DEF_TCLPROFILEOPS
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// What kind of work `op` is, as tcl-run groups the profile.
static llvm::StringRef categoryOf(Operation *op) {
  if (isa<memref::CopyOp>(op))
    return "copy";
  if (isa<linalg::FillOp>(op))
    return "fill";
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
    return "alloc";
  if (isa<func::CallOp>(op))
    return "call";
  return "compute";
}

/// "file:line:col" of the first file location in `loc`, else its text.
static std::string describeLocation(Location loc) {
  std::string text;
  loc->walk([&](Location nested) {
    if (auto file = dyn_cast<FileLineColLoc>(nested)) {
      text = llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                           file.getLine(), file.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty())
    llvm::raw_string_ostream(text) << loc;
  return text;
}

namespace {
struct ProfileOpsPass : public tcl::impl::TclProfileOpsBase<ProfileOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    OpBuilder builder(context);
    auto i64 = builder.getI64Type();
    auto markType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {i64});
    // Marks of a second run would reuse the first run's ids.
    if (module->hasAttr(tcl::kProfileOpsAttr) ||
        module.lookupSymbol(tcl::kProfileMarkSymbol)) {
      module.emitError() << "tcl-profile-ops: the module is already "
                            "instrumented (it has "
                         << tcl::kProfileMarkSymbol << ")";
      return signalPassFailure();
    }
    builder.setInsertionPointToStart(module.getBody());
    auto mark = LLVM::LLVMFuncOp::create(builder, module.getLoc(),
                                         tcl::kProfileMarkSymbol, markType);

    SmallVector<Attribute> labels;
    auto insertMark = [&](Location loc, int64_t id) {
      Value value = LLVM::ConstantOp::create(builder, loc, i64,
                                             builder.getI64IntegerAttr(id));
      LLVM::CallOp::create(builder, loc, mark, ValueRange{value});
    };
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isDeclaration())
        continue;
      Block &body = function.getBody().front();
      SmallVector<Operation *> timed;
      for (Operation &op : body)
        if (!op.hasTrait<OpTrait::IsTerminator>() && !isMemoryEffectFree(&op))
          timed.push_back(&op);
      builder.setInsertionPointToStart(&body);
      insertMark(function.getLoc(), tcl::kProfileEntryMark);
      for (Operation *op : timed) {
        builder.setInsertionPointAfter(op);
        insertMark(op->getLoc(), labels.size());
        labels.push_back(builder.getDictionaryAttr(
            {builder.getNamedAttr("category",
                                  builder.getStringAttr(categoryOf(op))),
             builder.getNamedAttr(
                 "op", builder.getStringAttr(op->getName().getStringRef())),
             builder.getNamedAttr(
                 "location",
                 builder.getStringAttr(describeLocation(op->getLoc())))}));
      }
    }
    module->setAttr(tcl::kProfileOpsAttr, builder.getArrayAttr(labels));
  }
};
} // namespace
