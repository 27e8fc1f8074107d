//===- JitModule.h - JIT-compile and call a lowered module ------*- C++ -*-===//

#ifndef TCL_RUN_JITMODULE_H
#define TCL_RUN_JITMODULE_H

#include "tcl/Run/HostTensor.h"
#include "tcl/Target/CpuTarget.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace tcl {

/// Shape and element type of one tensor argument or result.
struct TensorSpec {
  ElementKind kind;
  llvm::SmallVector<int64_t> shape;
  /// The values random inputs for it take (inferInputDomain).
  InputDomain domain;
};

/// The tensor signature of an entry function, read before lowering: after
/// bufferization the results become trailing out-parameters.
struct EntrySignature {
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;

  /// Allocates tensors for every input (random in its domain, from `seed`)
  /// and output.
  void allocate(uint64_t seed, std::vector<HostTensor> &inputTensors,
                std::vector<HostTensor> &outputTensors) const;
};

/// Reads the signature of `entry`; every argument and result must be a
/// statically shaped tensor of a supported element type. Emits a diagnostic
/// at the function (or module) on failure.
llvm::FailureOr<EntrySignature> readEntrySignature(mlir::ModuleOp module,
                                                   llvm::StringRef entry);

/// Optimizes `module` as JitModule compiles it: LLVM's O3 pipeline for
/// `machine`, with every vector wider than `registerBits` split into
/// register-sized pieces after LLVM's vectorizers (see the .cpp for why). Tools that lower tcl's output with their own LLVM pipeline
/// should do the same (opt: `scalarizer<min-bits=N;load-store>`).
void optimizeForCpu(llvm::Module &module, llvm::TargetMachine *machine,
                    unsigned registerBits);

/// A module in the LLVM dialect, compiled for a CpuTarget.
class JitModule {
public:
  /// Compiles `module` (already lowered by tcl-lower-cpu) at -O3.
  static llvm::Expected<std::unique_ptr<JitModule>>
  compile(mlir::ModuleOp module, const CpuTarget &target);

  /// Calls `entry(inputs..., outputs...)` through its C interface.
  llvm::Error call(llvm::StringRef entry, std::vector<HostTensor> &inputs,
                   std::vector<HostTensor> &outputs);

  /// A callable with the arguments bound, for timing loops: no lookup or
  /// allocation happens inside it.
  llvm::Expected<std::function<void()>>
  bind(llvm::StringRef entry, std::vector<HostTensor> &inputs,
       std::vector<HostTensor> &outputs);

private:
  explicit JitModule(std::unique_ptr<mlir::ExecutionEngine> engine)
      : engine(std::move(engine)) {}
  std::unique_ptr<mlir::ExecutionEngine> engine;
};

} // namespace tcl

#endif // TCL_RUN_JITMODULE_H
