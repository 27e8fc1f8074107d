//===- ReadOnlyArguments.cpp - The tcl-read-only-arguments pass -----------===//

#include "tcl/Passes/Passes.h"

namespace tcl {
#define GEN_PASS_DEF_TCLREADONLYARGUMENTS
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

namespace {
struct ReadOnlyArgumentsPass
    : public tcl::impl::TclReadOnlyArgumentsBase<ReadOnlyArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    auto writable = StringAttr::get(
        &getContext(), bufferization::BufferizationDialect::kWritableAttrName);
    auto readOnly = BoolAttr::get(&getContext(), false);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type) && !func.getArgAttr(index, writable))
          func.setArgAttr(index, writable, readOnly);
    }
  }
};
} // namespace
