//===- TestUtils.cpp - Shared helpers of tcl's unit tests -----------------===//

#include "TestUtils.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

std::unique_ptr<MLIRContext> tcl::testing::makeContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

OwningOpRef<ModuleOp> tcl::testing::parse(MLIRContext &context,
                                          llvm::StringRef source) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module) << "failed to parse:\n" << source.str();
  return module;
}

Operation *tcl::testing::findFirst(ModuleOp module, llvm::StringRef name) {
  Operation *found = nullptr;
  module.walk([&](Operation *op) {
    if (!found && op->getName().getStringRef() == name)
      found = op;
  });
  return found;
}
