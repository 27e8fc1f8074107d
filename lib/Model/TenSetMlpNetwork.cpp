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
        encoder0(register_module(
            "encoder0", nn::Linear(config.featureSize, config.hidden))),
        encoder1(register_module("encoder1",
                                 nn::Linear(config.hidden, config.hidden))),
        residual0(
            register_module("l0", nn::Linear(config.hidden, config.hidden))),
        residual1(
            register_module("l1", nn::Linear(config.hidden, config.hidden))),
        decoder(register_module("decoder", nn::Linear(config.hidden, 1))) {}

  const nn::Linear &readout() const override { return decoder; }

protected:
  torch::Tensor represent(const torch::Tensor &tokens,
                      const torch::Tensor &mask) override {
    torch::Tensor encoded =
        linearForward(maskedTokens(tokens, mask, featureSize), encoder0).relu();
    encoded = linearForward(encoded, encoder1).relu();
    // Zeroed padding still encodes to ReLU(bias) terms: mask them out.
    torch::Tensor x = (encoded * mask.unsqueeze(-1)).sum(1);
    x = linearForward(x, residual0).relu() + x;
    return linearForward(x, residual1).relu() + x;
  }

private:
  int64_t featureSize;
  nn::Linear encoder0, encoder1, residual0, residual1, decoder;
};

} // namespace

std::shared_ptr<ScoringNetworkImpl>
tcl::createTenSetMlpNetwork(const NetworkConfig &config) {
  return std::make_shared<TenSetMlpNetwork>(config);
}
