//===- TenSetMlpNetwork.cpp - TenSet's MLP cost model ---------------------===//
//
// The MLP cost model of TenSet (Zheng et al., NeurIPS 2021 datasets track;
// SegmentSumMLPModule in tvm/auto_scheduler/cost_model/mlp_model.py): each
// token is encoded on its own, the encodings are summed, and a residual MLP
// maps the sum to a score. The sum (not a mean) lets the score grow with the
// number of steps, as TenSet's per-buffer-statement sums do.
//
//===----------------------------------------------------------------------===//

#include "tcl/Model/Networks.h"

#include <torch/nn.h>

using namespace tcl;
namespace nn = torch::nn;

namespace {

class TenSetMlpNetwork : public ScoringNetworkImpl {
public:
  explicit TenSetMlpNetwork(const NetworkConfig &config)
      : featureSize(config.featureSize),
        encoder(register_module(
            "encoder", nn::Sequential(
                           nn::Linear(config.featureSize, config.hidden),
                           nn::ReLU(), nn::Linear(config.hidden, config.hidden),
                           nn::ReLU()))),
        residual0(register_module(
            "l0", nn::Sequential(nn::Linear(config.hidden, config.hidden),
                                 nn::ReLU()))),
        residual1(register_module(
            "l1", nn::Sequential(nn::Linear(config.hidden, config.hidden),
                                 nn::ReLU()))),
        decoder(register_module("decoder", nn::Linear(config.hidden, 1))) {}

  torch::Tensor forward(const torch::Tensor &tokens,
                        const torch::Tensor &mask) override {
    torch::Tensor encoded =
        encoder->forward(maskedTokens(tokens, mask, featureSize));
    // Zeroed padding still encodes to ReLU(bias) terms: mask them out.
    torch::Tensor x = (encoded * mask.unsqueeze(-1)).sum(1);
    x = residual0->forward(x) + x;
    x = residual1->forward(x) + x;
    return decoder(x).squeeze(-1);
  }

private:
  int64_t featureSize;
  nn::Sequential encoder, residual0, residual1;
  nn::Linear decoder;
};

} // namespace

std::shared_ptr<ScoringNetworkImpl>
tcl::createTenSetMlpNetwork(const NetworkConfig &config) {
  return std::make_shared<TenSetMlpNetwork>(config);
}
