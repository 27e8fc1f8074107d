//===- TaskFeaturizer.h - Featurizing a stored task's schedules -*- C++ -*-===//
//
// The tuning database stores each task as a standalone module and each
// schedule as "knob=value,..." text. This builds what featurizing them
// needs: the task's space on a target and the featurizer of its template.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_FEATURES_TASKFEATURIZER_H
#define TCL_FEATURES_TASKFEATURIZER_H

#include "tcl/Features/ScheduleFeaturizer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace tcl {

struct CpuTarget;

class TaskFeaturizer {
public:
  /// Parses `payload` (a task module) in `context`, builds the space of its
  /// task `key` for `target` and reads the template. `machineCpu` is LLVM's
  /// name for the CPU the schedules run on (MachineInfo::hostCpu): the
  /// caches the hardware token describes. Errors name the task.
  static llvm::Expected<std::unique_ptr<TaskFeaturizer>>
  create(mlir::MLIRContext &context, llvm::StringRef payload,
         llvm::StringRef key, const CpuTarget &target,
         llvm::StringRef machineCpu);

  const Space &space() const { return taskSpace; }
  const ScheduleFeaturizer &featurizer() const { return scheduleFeaturizer; }
  /// The parsed task module, its tasks annotated.
  mlir::ModuleOp payload() const { return *payloadModule; }
  /// The task's space: its template and a @__transform_main; `space()`'s
  /// knobs are this script's, so `space().concretize` applies to a clone.
  mlir::ModuleOp script() const { return *scriptModule; }

  /// Featurizes a schedule written as the database stores it; an error for
  /// a schedule that is not in the space.
  llvm::Error featurize(llvm::StringRef assignment,
                        TokenSequence &sequence) const;

private:
  TaskFeaturizer(mlir::MLIRContext *context,
                 mlir::OwningOpRef<mlir::ModuleOp> payload,
                 mlir::OwningOpRef<mlir::ModuleOp> script, Space space,
                 ScheduleFeaturizer featurizer)
      : context(context), payloadModule(std::move(payload)),
        scriptModule(std::move(script)), taskSpace(std::move(space)),
        scheduleFeaturizer(std::move(featurizer)) {}

  mlir::MLIRContext *context;
  mlir::OwningOpRef<mlir::ModuleOp> payloadModule, scriptModule;
  Space taskSpace;
  ScheduleFeaturizer scheduleFeaturizer;
};

} // namespace tcl

#endif // TCL_FEATURES_TASKFEATURIZER_H
