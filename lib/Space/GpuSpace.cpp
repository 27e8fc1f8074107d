//===- GpuSpace.cpp - NVVM schedule spaces of a model's tasks -------------===//

#include "tcl/Space/GpuSpace.h"
#include "TemplateWriter.h"

#include "tcl/Space/CpuSpace.h"

using namespace mlir;
using namespace tcl;

std::optional<std::string> tcl::writeGpuTemplate(linalg::LinalgOp anchor,
                                                 TaskKind kind,
                                                 llvm::StringRef key,
                                                 const GpuTarget &target) {
  if (kind == TaskKind::Softmax)
    return std::nullopt;
  TemplateWriter writer(key, stringifyTaskKind(kind));
  bool isContraction =
      kind == TaskKind::Matmul || kind == TaskKind::BatchMatmul;
  if (!writeGpuTemplate(writer, anchor, isContraction, target))
    return std::nullopt;
  return writer.str();
}

FailureOr<OwningOpRef<ModuleOp>> tcl::buildGpuSpace(ModuleOp payload,
                                                    const GpuTarget &target) {
  return buildSpace(payload, [&](linalg::LinalgOp anchor, const Task &task) {
    return writeGpuTemplate(anchor, task.kind, task.key, target);
  });
}
