//===- Networks.cpp - Network factory and shared pieces -------------------===//

#include "tcl/Model/Networks.h"
#include "tcl/Support/Memory.h"

#include "llvm/Support/FormatVariadic.h"

#include <torch/nn.h>

#include <ATen/Parallel.h>

#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <atomic>
#include <functional>

using namespace tcl;

/// The first size in `sizes` that is not positive, or nullptr.
static const char *firstNonPositive(
    std::initializer_list<std::pair<const char *, int64_t>> sizes) {
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
  if (!(config.dropout >= 0 && config.dropout < 1))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0} network: dropout {1} is not in [0, 1)", config.kind,
                      config.dropout));
  if (config.members != 1 && (config.kind != "mamba" || config.members < 1))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0} network: {1} members (an ensemble of members is "
                      "for mamba networks, with at least one)",
                      config.kind, config.members));
  if (config.kind == "attention" && config.dModel % config.heads != 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("attention network: dModel {0} is not a multiple of "
                      "heads {1}",
                      config.dModel, config.heads));
  return llvm::Error::success();
}

NetworkConfig tcl::defaultNetworkConfig(const std::string &kind,
                                        int64_t featureSize) {
  NetworkConfig config;
  config.kind = kind;
  config.featureSize = featureSize;
  if (kind == "mamba") {
    config.members = 2;
    config.dModel = 24;
  }
  return config;
}

llvm::Expected<std::shared_ptr<ScoringNetworkImpl>>
tcl::createNetwork(const NetworkConfig &config) {
  if (llvm::Error error = validate(config))
    return std::move(error);
  // Valid sizes can still exhaust memory; report it instead of throwing
  // into a caller that may be built without exceptions.
  try {
    std::shared_ptr<ScoringNetworkImpl> network =
        config.kind == "mamba"        ? createMambaNetwork(config)
        : config.kind == "tenset-mlp" ? createTenSetMlpNetwork(config)
                                      : createAttentionNetwork(config);
    network->dropout = config.dropout;
    return network;
  } catch (const std::exception &exception) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("cannot build {0} network: {1}", config.kind,
                      exception.what()));
  }
}

torch::Tensor ScoringNetworkImpl::sliced(
    const torch::Tensor &tokens, const torch::Tensor &mask,
    const std::function<torch::Tensor(const torch::Tensor &,
                                      const torch::Tensor &)> &body) {
  if (torch::GradMode::is_enabled() || !tokens.device().is_cpu() ||
      tokens.dim() != 3)
    return body(tokens, mask);
  keepFreedMemoryForReuse();
  int64_t batch = tokens.size(0);
  int64_t slice =
      std::max<int64_t>(1, kSliceTokens / std::max<int64_t>(1, tokens.size(1)));
  if (batch <= slice)
    return body(tokens, mask);
  // Each thread runs whole slices through the network, one after another,
  // rather than every operation splitting each slice between threads: a
  // slice's operations are too small to amortize a fork-join each, and
  // LibTorch's small operations (gathers, concatenations) run on one
  // thread and would leave the others waiting. Threads take the next slice
  // as they finish, so one slowed by another tenant does less of the work.
  int64_t slices = (batch + slice - 1) / slice;
  std::vector<torch::Tensor> parts(slices);
  std::atomic<int64_t> nextSlice{0};
  bool inferenceMode = c10::InferenceMode::is_enabled();
  at::parallel_for(0, at::get_num_threads(), 1, [&](int64_t, int64_t) {
    // Autograd's modes are thread-local, and OpenMP's workers start with
    // gradients on: give them the caller's.
    c10::InferenceMode inference(inferenceMode);
    torch::NoGradGuard noGrad;
    for (int64_t index = nextSlice++; index < slices; index = nextSlice++) {
      int64_t begin = index * slice, size = std::min(slice, batch - begin);
      parts[index] =
          body(tokens.narrow(0, begin, size), mask.narrow(0, begin, size));
    }
  });
  return torch::cat(parts);
}

/// `representation` through the readout's dropout, in training only.
static torch::Tensor readoutInput(const torch::Tensor &representation,
                                  bool training, double dropout) {
  if (!training || dropout <= 0)
    return representation;
  return torch::nn::functional::dropout(
      representation,
      torch::nn::functional::DropoutFuncOptions().p(dropout).training(true));
}

torch::Tensor ScoringNetworkImpl::readoutOf(const torch::Tensor &representation) {
  return linearForward(readoutInput(representation, is_training(), dropout),
                       readout())
      .squeeze(-1);
}

torch::Tensor
ScoringNetworkImpl::memberScoresOf(const torch::Tensor &representation) {
  int64_t count = members();
  if (count == 1)
    return readoutOf(representation).unsqueeze(1);
  torch::Tensor x = readoutInput(representation, is_training(), dropout);
  // The readout's weights over member m's slice, times the member count,
  // plus the shared bias: the mean over members is the readout itself.
  const torch::nn::Linear &layer = readout();
  torch::Tensor weight = layer->weight.view({count, -1});
  return (x.view({x.size(0), count, -1}) * weight).sum(-1) * count +
         layer->bias;
}

torch::Tensor ScoringNetworkImpl::forward(const torch::Tensor &tokens,
                                          const torch::Tensor &mask) {
  return sliced(tokens, mask,
                [this](const torch::Tensor &t, const torch::Tensor &m) {
                  return readoutOf(represent(t, m));
                });
}

torch::Tensor ScoringNetworkImpl::embed(const torch::Tensor &tokens,
                                        const torch::Tensor &mask) {
  return sliced(tokens, mask,
                [this](const torch::Tensor &t, const torch::Tensor &m) {
                  return represent(t, m);
                });
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

torch::Tensor tcl::lastRealToken(const torch::Tensor &x,
                                 const torch::Tensor &mask) {
  torch::Tensor last = (mask.sum(1).to(torch::kLong) - 1).clamp_min(0);
  return x.gather(1, last.view({-1, 1, 1}).expand({-1, 1, x.size(2)}))
      .squeeze(1);
}

torch::Tensor tcl::realTokenReversal(const torch::Tensor &mask) {
  int64_t length = mask.size(1);
  torch::Tensor lengths = mask.sum(1).to(torch::kLong).unsqueeze(1);
  torch::Tensor steps = torch::arange(length, lengths.options()).unsqueeze(0);
  torch::Tensor firstRow =
      torch::arange(mask.size(0), lengths.options()).unsqueeze(1) * length;
  return (firstRow +
          torch::where(steps < lengths, lengths - 1 - steps, steps))
      .flatten();
}

/// Whole rows of D floats, copied by index_select: a gather along dim 1
/// with an expanded [B, L, D] index reads an index per float and costs the
/// network a third of its inference throughput.
torch::Tensor tcl::reverseRealTokens(const torch::Tensor &x,
                                     const torch::Tensor &reversal) {
  return x.flatten(0, 1).index_select(0, reversal).view(x.sizes());
}

bool tcl::isCpuFloat(at::TensorList operands) {
  auto cpuFloat = [](const torch::Tensor &t) {
    return !t.defined() ||
           (t.device().is_cpu() && t.scalar_type() == torch::kFloat);
  };
  return std::all_of(operands.begin(), operands.end(), cpuFloat);
}

bool tcl::isCpuInference(at::TensorList operands) {
  auto needsGrad = [](const torch::Tensor &t) {
    return t.defined() && t.requires_grad();
  };
  return !(torch::GradMode::is_enabled() &&
           std::any_of(operands.begin(), operands.end(), needsGrad)) &&
         isCpuFloat(operands);
}

torch::Tensor tcl::linearForward(const torch::Tensor &x,
                                 const torch::Tensor &weight,
                                 const torch::Tensor &bias) {
  int64_t inputs = weight.size(1), outputs = weight.size(0);
  TORCH_CHECK(inputs > 0 && x.dim() >= 1 && x.size(-1) == inputs,
              "linearForward: input ", x.sizes(), " does not match weight ",
              weight.sizes());
  // LibTorch's matmul on a strided input falls back to one product per
  // batch element: copy column slices first.
  if (!isCpuInference({x, weight, bias}))
    return torch::nn::functional::linear(x.contiguous(), weight, bias);

  // x as rows of `inputs` floats, `leading` apart (a view when possible).
  torch::Tensor rows = x.reshape({-1, inputs});
  if (rows.stride(1) != 1 || rows.stride(0) < inputs)
    rows = rows.contiguous();
  int64_t count = rows.size(0), leading = std::max(rows.stride(0), inputs);
  std::vector<int64_t> sizes(x.sizes().begin(), x.sizes().end());
  sizes.back() = outputs;
  torch::Tensor w = weight.contiguous();
  torch::Tensor y = bias.defined()
                        ? bias.expand({count, outputs}).contiguous()
                        : torch::empty({count, outputs}, x.options());
  if (count == 0)
    return y.view(sizes);
  dnnl_status_t status =
      dnnl_sgemm('N', 'T', count, outputs, inputs, 1.0f, rows.data_ptr<float>(),
                 leading, w.data_ptr<float>(), inputs,
                 bias.defined() ? 1.0f : 0.0f, y.data_ptr<float>(), outputs);
  TORCH_CHECK(status == dnnl_success,
              "linearForward: oneDNN sgemm failed (status ",
              static_cast<int>(status), ")");
  return y.view(sizes);
}
