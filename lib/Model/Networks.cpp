//===- Networks.cpp - Network factory and shared pieces -------------------===//

#include "tcl/Model/Networks.h"

#include "llvm/Support/FormatVariadic.h"

#include <torch/nn.h>

using namespace tcl;

/// The first size in `sizes` that is not positive, or nullptr.
static const char *
firstNonPositive(std::initializer_list<std::pair<const char *, int64_t>> sizes) {
  for (const auto &[name, value] : sizes)
    if (value <= 0)
      return name;
  return nullptr;
}

/// Checks the sizes the network `config.kind` uses.
static llvm::Error validate(const NetworkConfig &config) {
  const char *bad = nullptr;
  if (config.kind == "mamba")
    bad = firstNonPositive({{"featureSize", config.featureSize},
                            {"dModel", config.dModel},
                            {"dState", config.dState},
                            {"dConv", config.dConv},
                            {"expand", config.expand},
                            {"layers", config.layers}});
  else if (config.kind == "tenset-mlp")
    bad = firstNonPositive(
        {{"featureSize", config.featureSize}, {"hidden", config.hidden}});
  else if (config.kind == "attention")
    bad = firstNonPositive({{"featureSize", config.featureSize},
                            {"dModel", config.dModel},
                            {"heads", config.heads},
                            {"layers", config.layers}});
  else
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("unknown network kind '{0}' (expected mamba, "
                      "tenset-mlp or attention)",
                      config.kind));
  if (bad)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0} network: {1} must be positive", config.kind, bad));
  if (config.kind == "attention" && config.dModel % config.heads != 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("attention network: dModel {0} is not a multiple of "
                      "heads {1}",
                      config.dModel, config.heads));
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<ScoringNetworkImpl>>
tcl::createNetwork(const NetworkConfig &config) {
  if (llvm::Error error = validate(config))
    return std::move(error);
  // Valid sizes can still exhaust memory; report it instead of throwing
  // into a caller that may be built without exceptions.
  try {
    if (config.kind == "mamba")
      return createMambaNetwork(config);
    if (config.kind == "tenset-mlp")
      return createTenSetMlpNetwork(config);
    return createAttentionNetwork(config);
  } catch (const std::exception &exception) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("cannot build {0} network: {1}", config.kind,
                      exception.what()));
  }
}

int64_t tcl::parameterCount(const torch::nn::Module &module) {
  int64_t count = 0;
  for (const torch::Tensor &parameter : module.parameters())
    count += parameter.numel();
  return count;
}

torch::Tensor tcl::maskedTokens(const torch::Tensor &tokens,
                                const torch::Tensor &mask,
                                int64_t featureSize) {
  TORCH_CHECK(tokens.dim() == 3 && tokens.size(2) == featureSize,
              "tokens must be [B, L, ", featureSize, "], got ", tokens.sizes());
  TORCH_CHECK(mask.dim() == 2 && mask.size(0) == tokens.size(0) &&
                  mask.size(1) == tokens.size(1),
              "mask must be [B, L] = ", tokens.sizes().slice(0, 2), ", got ",
              mask.sizes());
  return torch::where(mask.unsqueeze(-1) > 0, tokens,
                      torch::zeros({}, tokens.options()));
}

torch::Tensor tcl::maskedMeanPool(const torch::Tensor &x,
                                  const torch::Tensor &mask) {
  torch::Tensor weights = mask.unsqueeze(-1);
  return (x * weights).sum(1) / weights.sum(1);
}
