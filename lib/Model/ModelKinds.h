//===- ModelKinds.h - The cost model implementations ------------*- C++ -*-===//

#ifndef TCL_LIB_MODEL_MODELKINDS_H
#define TCL_LIB_MODEL_MODELKINDS_H

#include "tcl/Model/CostModel.h"

namespace tcl {

/// Mamba, TenSet-MLP and attention: the kinds that are a network trained
/// with LibTorch (and so can be distilled, fine-tuned or given heads).
bool isNeuralKind(llvm::StringRef kind);

/// Creates one of the kinds isNeuralKind accepts.
llvm::Expected<std::unique_ptr<CostModel>>
createNeuralModel(const ModelOptions &options);
llvm::Expected<std::unique_ptr<CostModel>>
createXGBoostModel(const ModelOptions &options);
llvm::Expected<std::unique_ptr<CostModel>>
createRandomModel(const ModelOptions &options);

} // namespace tcl

#endif // TCL_LIB_MODEL_MODELKINDS_H
