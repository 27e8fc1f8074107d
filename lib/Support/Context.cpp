//===- Context.cpp - The MLIR context tcl's libraries work in -------------===//

#include "tcl/Support/Context.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

std::unique_ptr<mlir::MLIRContext> tcl::createContext() {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::transform::registerTuneExtension(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}
