//===- FaultInjection.cpp - Deliberately broken candidates ----------------===//

#include "FaultInjection.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tcl;

LogicalResult tcl::injectWrongResult(ModuleOp module, llvm::StringRef entry) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return module.emitError() << "no function @" << entry;
  bool injected = false;
  function.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type || !type.hasStaticShape() || type.getNumElements() == 0 ||
          !isa<FloatType>(type.getElementType()))
        continue;
      OpBuilder builder(ret);
      Location loc = ret.getLoc();
      Value wrong = arith::ConstantOp::create(
          builder, loc, builder.getFloatAttr(type.getElementType(), 1e6));
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      SmallVector<Value> indices(type.getRank(), zero);
      operand.set(tensor::InsertOp::create(builder, loc, wrong, operand.get(),
                                           indices));
      injected = true;
      return;
    }
  });
  if (!injected)
    return function.emitError() << "no floating-point tensor result to corrupt";
  return success();
}

LogicalResult tcl::injectAtEntry(ModuleOp module, llvm::StringRef entry,
                                 InjectedFault fault) {
  auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!function || function.getBody().empty())
    return module.emitError() << "no lowered function @" << entry;
  Block *entryBlock = &function.getBody().front();
  Location loc = function.getLoc();
  OpBuilder builder = OpBuilder::atBlockBegin(entryBlock);
  auto pointerType = LLVM::LLVMPointerType::get(builder.getContext());
  Type i32 = builder.getI32Type();
  Value zero = LLVM::ConstantOp::create(builder, loc, i32, 0);
  if (fault == InjectedFault::Crash) {
    Value null = LLVM::ZeroOp::create(builder, loc, pointerType);
    LLVM::StoreOp::create(builder, loc, zero, null, /*alignment=*/4,
                          /*isVolatile=*/true);
    return success();
  }
  // Hang: entry -> spin (loops while a volatile flag stays 0) -> rest.
  Value one = LLVM::ConstantOp::create(builder, loc, i32, 1);
  Value flag = LLVM::AllocaOp::create(builder, loc, pointerType, i32, one);
  LLVM::StoreOp::create(builder, loc, zero, flag, 4, /*isVolatile=*/true);
  Block *rest = entryBlock->splitBlock(builder.getInsertionPoint());
  Block *spin = builder.createBlock(rest);
  builder.setInsertionPointToEnd(entryBlock);
  LLVM::BrOp::create(builder, loc, ValueRange(), spin);
  builder.setInsertionPointToEnd(spin);
  Value value = LLVM::LoadOp::create(builder, loc, i32, flag, 4,
                                     /*isVolatile=*/true);
  Value stillZero = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                         value, zero);
  LLVM::CondBrOp::create(builder, loc, stillZero, spin, ValueRange(), rest,
                         ValueRange());
  return success();
}
