//===- GpuKernels.cpp - Aligning and exporting compiled kernels -----------===//
//
// tcl-runner links neither MLIR nor LLVM: what it needs of a kernel is the
// PTX and a launch config in JSON. The launch config is recorded while the
// launch is still a memref-level `gpu.launch_func` (its operands are then
// the function's arguments), as the module attribute `tcl.launches`, and
// written with the PTX once `gpu-module-to-binary` has produced it.
//
//===----------------------------------------------------------------------===//

#include "tcl/Passes/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace tcl {
#define GEN_PASS_DEF_TCLGPUALIGNWORKGROUPMEMORY
#define GEN_PASS_DEF_TCLGPURECORDLAUNCHES
#define GEN_PASS_DEF_TCLGPUEXPORTKERNELS
#include "tcl/Passes/Passes.h.inc"
} // namespace tcl

using namespace mlir;

/// Name of the module attribute holding the launch configs (JSON text).
static constexpr llvm::StringLiteral kLaunchesAttrName = "tcl.launches";

namespace {
struct GpuAlignWorkgroupMemoryPass
    : public tcl::impl::TclGpuAlignWorkgroupMemoryBase<
          GpuAlignWorkgroupMemoryPass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>())
      for (unsigned i = 0, e = kernel.getNumWorkgroupAttributions(); i < e; ++i)
        kernel.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                           builder.getI64IntegerAttr(16));
  }
};

/// The element type of a memref as tcl-runner reads it ("f32").
static std::string elementName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

struct GpuRecordLaunchesPass
    : public tcl::impl::TclGpuRecordLaunchesBase<GpuRecordLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::json::Array launches;
    bool failedToRecord = false;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto func = launch->getParentOfType<func::FuncOp>();
      auto constant = [&](Value value) -> int64_t {
        APInt result;
        return matchPattern(value, m_ConstantInt(&result)) ? result.getSExtValue()
                                                            : -1;
      };
      gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
      gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
      llvm::json::Array args;
      for (Value operand : launch.getKernelOperands()) {
        auto argument = dyn_cast<BlockArgument>(operand);
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!func || !argument || argument.getOwner() != &func.getBody().front() ||
            !type || !type.hasStaticShape()) {
          launch.emitError("a kernel operand that is not a static memref "
                           "argument of the function: tcl-runner cannot "
                           "provide it");
          failedToRecord = true;
          return;
        }
        llvm::json::Array shape;
        for (int64_t size : type.getShape())
          shape.push_back(size);
        args.push_back(llvm::json::Object{
            {"arg", argument.getArgNumber()},
            {"shape", std::move(shape)},
            {"element", elementName(type.getElementType())}});
      }
      llvm::json::Array signature;
      for (Type type : func.getArgumentTypes()) {
        auto memref = dyn_cast<MemRefType>(type);
        llvm::json::Array shape;
        if (memref)
          for (int64_t size : memref.getShape())
            shape.push_back(size);
        signature.push_back(llvm::json::Object{
            {"shape", std::move(shape)},
            {"element", memref ? elementName(memref.getElementType()) : ""}});
      }
      launches.push_back(llvm::json::Object{
          {"function", func ? func.getSymName().str() : ""},
          {"module", launch.getKernelModuleName().str()},
          {"kernel", launch.getKernelName().str()},
          {"grid", llvm::json::Array{constant(grid.x), constant(grid.y),
                                     constant(grid.z)}},
          {"block", llvm::json::Array{constant(block.x), constant(block.y),
                                      constant(block.z)}},
          {"args", std::move(args)},
          {"signature", std::move(signature)}});
    });
    if (failedToRecord)
      return signalPassFailure();
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::json::Value(std::move(launches));
    module->setAttr(kLaunchesAttrName, StringAttr::get(&getContext(), text));
  }
};

struct GpuExportKernelsPass
    : public tcl::impl::TclGpuExportKernelsBase<GpuExportKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto recorded = module->getAttrOfType<StringAttr>(kLaunchesAttrName);
    if (!recorded) {
      module.emitError("no launch configs recorded (run tcl-lower-gpu)");
      return signalPassFailure();
    }
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse(recorded.getValue());
    if (!parsed || !parsed->getAsArray()) {
      module.emitError("malformed tcl.launches attribute");
      return signalPassFailure();
    }
    if (std::error_code error = llvm::sys::fs::create_directories(outputDir)) {
      module.emitError() << "cannot create '" << outputDir
                         << "': " << error.message();
      return signalPassFailure();
    }
    size_t count = parsed->getAsArray()->size();
    for (auto [index, launch] : llvm::enumerate(*parsed->getAsArray())) {
      llvm::json::Object &object = *launch.getAsObject();
      std::string moduleName = object.getString("module")->str();
      auto binary = module.lookupSymbol<gpu::BinaryOp>(moduleName);
      if (!binary || binary.getObjects().empty()) {
        module.emitError() << "no compiled binary for kernel module '"
                           << moduleName << "'";
        return signalPassFailure();
      }
      auto object0 = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
      bool isPtx = object0.getFormat() == gpu::CompilationTarget::Assembly;
      std::string stem =
          name.empty() ? object.getString("function")->str() : name.getValue();
      if (count > 1 && !name.empty())
        stem += "_" + std::to_string(index);
      std::string kernelFile = stem + (isPtx ? ".ptx" : ".cubin");
      object["image"] = kernelFile;
      object["format"] = isPtx ? "ptx" : "cubin";
      if (auto target = dyn_cast<NVVM::NVVMTargetAttr>(object0.getTarget()))
        object["chip"] = target.getChip().str();
      auto write = [&](llvm::StringRef file, llvm::StringRef contents) {
        llvm::SmallString<256> path(outputDir);
        llvm::sys::path::append(path, file);
        std::error_code error;
        llvm::raw_fd_ostream os(path, error);
        if (error) {
          module.emitError() << "cannot write '" << path
                             << "': " << error.message();
          return false;
        }
        os << contents;
        return true;
      };
      std::string config;
      llvm::raw_string_ostream os(config);
      os << llvm::formatv("{0:2}", llvm::json::Value(std::move(object))) << "\n";
      if (!write(kernelFile, object0.getObject().getValue()) ||
          !write(stem + ".json", config))
        return signalPassFailure();
    }
  }
};
} // namespace
