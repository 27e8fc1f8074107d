//===- AttentionNetwork.cpp - TLP-style Transformer cost model ------------===//
//
// After TLP (Zhai et al., ASPLOS 2023): schedule steps are tokens, a
// Transformer encoder lets every token attend to every other one, and a pooled
// summary is regressed to a score. The task and hardware context tokens are
// ordinary tokens here, so attention learns how they modulate the steps.
// Pre-norm layers (Xiong et al. 2020) train without a warm-up schedule.
//
//===----------------------------------------------------------------------===//

#include "tcl/Model/Networks.h"

#include <torch/nn.h>

#include <cmath>
#include <limits>

using namespace tcl;
namespace nn = torch::nn;
namespace F = torch::nn::functional;

namespace {

/// Longest sequence the learned position embedding covers.
constexpr int64_t kMaxLength = 64;

/// x + SelfAttention(LN(x)), then x + FFN(LN(x)).
class EncoderLayerImpl : public nn::Module {
public:
  EncoderLayerImpl(int64_t dModel, int64_t heads)
      : heads(heads),
        norm1(register_module("norm1",
                              nn::LayerNorm(nn::LayerNormOptions({dModel})))),
        qkv(register_module("qkv", nn::Linear(dModel, 3 * dModel))),
        out(register_module("out", nn::Linear(dModel, dModel))),
        norm2(register_module("norm2",
                              nn::LayerNorm(nn::LayerNormOptions({dModel})))),
        ffnIn(register_module("ffn_in", nn::Linear(dModel, 4 * dModel))),
        ffnOut(register_module("ffn_out", nn::Linear(4 * dModel, dModel))) {}

  /// `keyBias` [B, 1, 1, L] is 0 for real tokens and -inf for padding, so no
  /// token attends to padding.
  torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &keyBias) {
    int64_t batch = x.size(0), length = x.size(1), dModel = x.size(2);
    int64_t headSize = dModel / heads;
    // [B, L, 3, H, Dh] -> [3, B, H, L, Dh].
    torch::Tensor qkvs = linearForward(norm1(x), qkv)
                             .view({batch, length, 3, heads, headSize})
                             .permute({2, 0, 3, 1, 4});
    torch::Tensor scores = torch::matmul(qkvs[0], qkvs[1].transpose(-2, -1)) /
                               std::sqrt(static_cast<double>(headSize)) +
                           keyBias;
    torch::Tensor context = torch::matmul(scores.softmax(-1), qkvs[2])
                                .transpose(1, 2)
                                .reshape({batch, length, dModel});
    torch::Tensor h = x + linearForward(context, out);
    return h +
           linearForward(torch::gelu(linearForward(norm2(h), ffnIn)), ffnOut);
  }

private:
  int64_t heads;
  nn::LayerNorm norm1;
  nn::Linear qkv, out;
  nn::LayerNorm norm2;
  nn::Linear ffnIn, ffnOut;
};
TORCH_MODULE(EncoderLayer);

class AttentionNetwork : public ScoringNetworkImpl {
public:
  explicit AttentionNetwork(const NetworkConfig &config)
      : featureSize(config.featureSize),
        embedIn(register_module("embed",
                                nn::Linear(config.featureSize, config.dModel))),
        position(register_parameter(
            "position", torch::randn({kMaxLength, config.dModel}) * 0.02)),
        layers(register_module("layers", nn::ModuleList())),
        norm(register_module(
            "norm", nn::LayerNorm(nn::LayerNormOptions({config.dModel})))),
        head(register_module("head", nn::Linear(config.dModel, 1))) {
    for (int64_t i = 0; i < config.layers; ++i)
      layers->push_back(EncoderLayer(config.dModel, config.heads));
  }

  const nn::Linear &readout() const override { return head; }

protected:
  torch::Tensor represent(const torch::Tensor &tokens,
                      const torch::Tensor &mask) override {
    int64_t length = tokens.size(1);
    TORCH_CHECK(length <= kMaxLength, "attention network: sequence length ",
                length, " exceeds the position embedding's ", kMaxLength);
    torch::Tensor x =
        linearForward(maskedTokens(tokens, mask, featureSize), embedIn) +
        position.narrow(0, 0, length);
    torch::Tensor keyBias =
        torch::where(mask > 0, torch::zeros({}, mask.options()),
                     torch::full({}, -std::numeric_limits<float>::infinity(),
                                 mask.options()))
            .view({mask.size(0), 1, 1, length});
    for (const std::shared_ptr<nn::Module> &layer : *layers)
      x = layer->as<EncoderLayer>()->forward(x, keyBias);
    return maskedMeanPool(norm(x), mask);
  }

private:
  int64_t featureSize;
  /// Token features to the residual stream ("embed" in saved weights).
  nn::Linear embedIn;
  torch::Tensor position;
  nn::ModuleList layers;
  nn::LayerNorm norm;
  nn::Linear head;
};

} // namespace

std::shared_ptr<ScoringNetworkImpl>
tcl::createAttentionNetwork(const NetworkConfig &config) {
  return std::make_shared<AttentionNetwork>(config);
}
