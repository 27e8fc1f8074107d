//===- StaticShapes.cpp - Shapes made static, the rest diagnosed ----------===//

#include "tcl/Task/StaticShapes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace tcl;

bool tcl::hasDynamicLinalgOps(ModuleOp module) {
  WalkResult found = module.walk([](linalg::LinalgOp op) {
    return op.hasDynamicShape() ? WalkResult::interrupt()
                                : WalkResult::advance();
  });
  return found.wasInterrupted();
}

LogicalResult tcl::makeShapesStatic(ModuleOp module) {
  if (!hasDynamicLinalgOps(module))
    return success();
  // The canonicalizer's patterns, applied here rather than by a nested pass
  // manager: the passes that call this run inside one already.
  MLIRContext *context = module->getContext();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return module.emitError("the canonicalization that makes shapes static "
                            "did not converge");
  return success();
}

void tcl::diagnoseUnsupported(Operation *op, const Classification &cls,
                              bool allowUnsupported) {
  InFlightDiagnostic diag =
      allowUnsupported ? op->emitWarning() : op->emitError();
  diag << "cannot tune '" << op->getName() << "': " << cls.unsupportedReason;
  if (allowUnsupported)
    diag << "; it keeps the default schedule";
  else
    diag.attachNote() << "pass allow-unsupported=true to leave such ops to "
                         "the default schedule and go on with the rest";
}

LogicalResult tcl::prepareTasks(ModuleOp module, bool allowUnsupported) {
  if (failed(makeShapesStatic(module)))
    return failure();
  bool errors = false;
  module.walk([&](Operation *op) {
    Classification cls = classifyOp(op);
    if (cls.ignored || cls.kind)
      return;
    diagnoseUnsupported(op, cls, allowUnsupported);
    errors |= !allowUnsupported;
  });
  return failure(errors);
}
