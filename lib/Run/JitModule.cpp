//===- JitModule.cpp - JIT-compile and call a lowered module --------------===//

#include "tcl/Run/JitModule.h"
#include "tcl/Passes/Passes.h"
#include "tcl/Run/InputDomain.h"
#include "tcl/Run/OpProfile.h"
#include "tcl/Support/Memory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

using namespace mlir;
using namespace tcl;

/// Diagnostics go to the function's location, not onto it: a diagnostic on
/// an op prints the op after it, and a model's function is megabytes of IR.
static FailureOr<TensorSpec> readTensorSpec(func::FuncOp func, Type type,
                                            StringRef what, unsigned index) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) {
    emitError(func.getLoc()) << what << " #" << index << " has type " << type
                     << "; tcl runs functions on statically shaped tensors";
    return failure();
  }
  std::string elementName;
  llvm::raw_string_ostream(elementName) << tensor.getElementType();
  llvm::Expected<ElementKind> kind = parseElementKind(elementName);
  if (!kind) {
    emitError(func.getLoc()) << what << " #" << index << ": "
                     << llvm::toString(kind.takeError());
    return failure();
  }
  return TensorSpec{*kind, llvm::to_vector(tensor.getShape())};
}

FailureOr<EntrySignature> tcl::readEntrySignature(ModuleOp module,
                                                  StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    // At the module's location, not on it (see readTensorSpec).
    std::string defined;
    for (auto candidate : module.getOps<func::FuncOp>())
      if (!candidate.isExternal())
        defined += (defined.empty() ? "@" : ", @") + candidate.getSymName().str();
    emitError(module.getLoc())
        << "no function '@" << entry
        << "' with a body to run (pick one with --entry"
        << (defined.empty() ? std::string() : ": " + defined) << ")";
    return failure();
  }
  EntrySignature signature;
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<TensorSpec> spec = readTensorSpec(func, type, "argument", index);
    if (failed(spec))
      return failure();
    spec->domain = inferInputDomain(func.getArgument(index));
    signature.inputs.push_back(*spec);
  }
  for (auto [index, type] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<TensorSpec> spec = readTensorSpec(func, type, "result", index);
    if (failed(spec))
      return failure();
    signature.outputs.push_back(*spec);
  }
  return signature;
}

void EntrySignature::allocate(uint64_t seed,
                              std::vector<HostTensor> &inputTensors,
                              std::vector<HostTensor> &outputTensors) const {
  inputTensors.clear();
  outputTensors.clear();
  for (auto [index, spec] : llvm::enumerate(inputs)) {
    inputTensors.emplace_back(spec.kind, spec.shape);
    // Each argument gets its own stream so adding an argument does not
    // change the values of the others.
    inputTensors.back().fillRandom(seed * 1000003u + index, spec.domain);
  }
  for (const TensorSpec &spec : outputs)
    outputTensors.emplace_back(spec.kind, spec.shape);
}

/// Why vectors are split: register tiles of 3 or 6 vectors lower to vectors
/// such as <48 x float>. x86's type legalization widens those to the next
/// power of two and, for loop-carried values, falls back to inserting one
/// element at a time through the stack: a 6x48 AVX-512 matmul tile ran at
/// 3 GFLOP/s against 190 for 6x64 on a Zen 5. Split, every piece is a legal
/// vector, and it runs at 185-200, as fast as 6x64.
void tcl::optimizeForCpu(llvm::Module &module, llvm::TargetMachine *machine,
                         unsigned registerBits) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine);
  llvm::ScalarizerPassOptions split;
  split.ScalarizeMinBits = registerBits;
  split.ScalarizeLoadStore = true;
  split.ScalarizeVariableInsertExtract = false;
  // After the vectorizers: MLIR passes 2-D vectors as arrays of rows, which
  // only the simplification pipeline turns into vector values that can be
  // split. (Splitting right after simplification measured the same, a
  // little slower on 6-vector tiles.)
  builder.registerVectorizerEndEPCallback(
      [split](llvm::FunctionPassManager &pipeline, llvm::OptimizationLevel) {
        pipeline.addPass(llvm::ScalarizerPass(split));
      });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, modules);
}

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::compile(ModuleOp module, const CpuTarget &target) {
  keepFreedMemoryForReuse();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      target.createTargetMachine(/*forJit=*/true);
  if (!machine)
    return machine.takeError();
  // The options hold a reference: the function must outlive create().
  llvm::TargetMachine *targetMachine = machine->get();
  unsigned registerBits = target.vectorBits();
  std::function<llvm::Error(llvm::Module *)> transformer =
      [targetMachine, registerBits](llvm::Module *module) {
        optimizeForCpu(*module, targetMachine, registerBits);
        return llvm::Error::success();
      };
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // memref.copy lowers to a call into MLIR's C runner utilities.
  llvm::SmallVector<StringRef> libraries = {TCL_C_RUNNER_UTILS};
  if (target.threads > 1)
    libraries.push_back(TCL_OPENMP_RUNTIME);
  options.sharedLibPaths = libraries;
  // No debugger or profiler listeners: they cost time per compile, and a
  // tuner compiles thousands of candidates.
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options, std::move(*machine));
  if (!engine)
    return engine.takeError();
  // A module lowered with profile=true calls back into this process.
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner(kProfileMarkSymbol)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(&tcl_profile_mark),
        llvm::JITSymbolFlags::Exported);
    return symbols;
  });
  return std::unique_ptr<JitModule>(new JitModule(std::move(*engine)));
}

llvm::Expected<std::function<void()>>
JitModule::bind(StringRef entry, std::vector<HostTensor> &inputs,
                std::vector<HostTensor> &outputs) {
  llvm::Expected<void (*)(void **)> packed =
      engine->lookupPacked(("_mlir_ciface_" + entry).str());
  if (!packed)
    return packed.takeError();
  // The C interface takes a pointer to each descriptor; the packed wrapper
  // takes a pointer to each argument, so two levels of indirection.
  auto descriptors = std::make_shared<std::vector<void *>>();
  for (HostTensor &tensor : inputs)
    descriptors->push_back(tensor.descriptor());
  for (HostTensor &tensor : outputs)
    descriptors->push_back(tensor.descriptor());
  auto arguments = std::make_shared<std::vector<void *>>();
  for (void *&descriptor : *descriptors)
    arguments->push_back(&descriptor);
  void (*function)(void **) = *packed;
  return std::function<void()>([function, descriptors, arguments] {
    function(arguments->data());
  });
}

llvm::Error JitModule::call(StringRef entry, std::vector<HostTensor> &inputs,
                            std::vector<HostTensor> &outputs) {
  llvm::Expected<std::function<void()>> bound = bind(entry, inputs, outputs);
  if (!bound)
    return bound.takeError();
  (*bound)();
  return llvm::Error::success();
}
