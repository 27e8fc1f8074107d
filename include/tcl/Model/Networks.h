//===- Networks.h - Cost-model networks over token sequences ----*- C++ -*-===//
//
// The learned cost models all read the same input, a batch of featurized
// schedules: `tokens` [B, L, F] float32 and `mask` [B, L] float32 (1 = real
// token, 0 = padding, padding only at the end, at least one real token per
// sequence). They all return one score per sequence, [B], higher = faster.
// Keeping one interface lets the trainer, the search and the benchmarks swap
// networks without knowing which one they hold.
//
// Kinds:
// - "mamba": selective state-space model (Gu & Dao 2023);
// - "tenset-mlp": TenSet's per-token MLP and sum (Zheng et al. 2021);
// - "attention": TLP-style Transformer encoder (Zhai et al. 2023).
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MODEL_NETWORKS_H
#define TCL_MODEL_NETWORKS_H

#include "llvm/Support/Error.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>

#include <cstdint>
#include <memory>
#include <string>

namespace tcl {

/// Sizes of a network. Saved with a trained model, because the weights only
/// load into a network built with the same sizes.
struct NetworkConfig {
  /// "mamba", "tenset-mlp" or "attention".
  std::string kind;
  /// F, the features per token; fixed by the featurizer.
  int64_t featureSize = 0;
  /// Width of the mamba and attention residual streams. Small, because the
  /// search scores tens of thousands of candidates per round on the CPU:
  /// d_state 16 costs Mamba about a third of its throughput, d_model 64
  /// over half (NetworksTest prints each kind's throughput at L = 10,
  /// benchmarks/cost_models.py on the shipped dataset).
  int64_t dModel = 32;
  /// Mamba: SSM state per channel, causal conv width, inner width factor
  /// (d_inner = expand * dModel), and residual blocks (also the attention
  /// net's encoder layers).
  int64_t dState = 8, dConv = 4, expand = 2, layers = 2;
  /// Mamba: every second block reads the schedule backward, and the head
  /// reads the first token beside the last and the mean. A causal stack
  /// lets a step see only the steps before it; the backward blocks let the
  /// early steps (loop order, outer tiles) see the tiling and vectorization
  /// that follow (docs/results/cost_models.md: mean PCA +0.007, three targets).
  /// False is the causal stack of models saved before 2026-12-02.
  bool bidirectional = true;
  /// Mamba: independent networks (an ensemble) whose scores are averaged.
  /// Each member learns from its own ranking loss on the same batches
  /// (NeuralCostModel), so members differ by their initial weights only,
  /// and averaging them removes part of what one seed's weights get wrong:
  /// two members' mean ranked held-out networks better than either
  /// (docs/results/cost_models.md). Inference costs a member each.
  int64_t members = 1;
  /// Attention heads; must divide dModel.
  int64_t heads = 4;
  /// TenSet MLP hidden width (TenSet's default).
  int64_t hidden = 256;
  /// Dropout on the representation the readout scores, in training. It is
  /// also what makes the readout's MC-dropout variance (the tuner's
  /// uncertainty) mean something: the network learned under that noise.
  double dropout = 0.1;
};

/// The sizes a `kind` network gets where its user asks for none: the
/// struct's, except that Mamba is two members of width 24 (26,545
/// parameters at F = 48, under the attention network's 29,089). Over five
/// seeds on held-out networks the pair ranked better than one network of
/// width 32 (median PCA 0.7535 vs 0.7482, top-1 0.8384 vs 0.8027;
/// docs/results/cost_models.md) and still scores over 50k schedules/s on
/// two threads.
NetworkConfig defaultNetworkConfig(const std::string &kind,
                                   int64_t featureSize);

/// A scoring network: forward(tokens [B, L, F], mask [B, L]) -> scores [B].
/// Every network ends in the same way: a representation of the schedule,
/// [B, E], and a linear readout of it. The representation is the cost
/// model's embedding space, where the tuner's sampler measures how
/// representative and how diverse candidates are. Inputs that break the
/// contract above throw c10::Error, like any other LibTorch module.
class ScoringNetworkImpl : public torch::nn::Module {
public:
  /// Without autograd on the CPU, scores the batch in slices of about
  /// kSliceTokens tokens, whose intermediates stay in cache and are recycled
  /// by the allocator: the whole batch's (tens of MB each) would be mapped
  /// afresh and page-faulted in by every operation, 2-3x slower at the
  /// search's batch of 4096. For the same reason it calls
  /// keepFreedMemoryForReuse (process-wide). Each thread scores whole
  /// slices, not a share of every operation of one slice.
  torch::Tensor forward(const torch::Tensor &tokens, const torch::Tensor &mask);
  /// The representation the readout scores, [B, E], sliced like forward.
  torch::Tensor embed(const torch::Tensor &tokens, const torch::Tensor &mask);
  /// Scores of representations `embed` returned: [B, E] -> [B]. In training
  /// mode the representation first goes through dropout.
  torch::Tensor readoutOf(const torch::Tensor &representation);
  /// The readout layer, whose weights give the closed-form MC-dropout
  /// variance of a score.
  virtual const torch::nn::Linear &readout() const = 0;
  /// Independent members whose mean score the readout gives: the
  /// representation is theirs side by side, [B, members x E/members].
  virtual int64_t members() const { return 1; }
  /// Each member's score of representations `embed` returned: [B, E] ->
  /// [B, members], with the same dropout as readoutOf in training. Their
  /// mean over members is readoutOf's score, so each member can be trained
  /// on its own loss and the network still scores their average.
  torch::Tensor memberScoresOf(const torch::Tensor &representation);

  static constexpr int64_t kSliceTokens = 2560;

  /// Dropout probability on the representation in training.
  double dropout = 0;

protected:
  /// The network up to its readout, on a whole batch or one slice of it.
  virtual torch::Tensor represent(const torch::Tensor &tokens,
                                  const torch::Tensor &mask) = 0;

private:
  /// `body` applied to the batch, in slices when inferring on the CPU.
  torch::Tensor sliced(const torch::Tensor &tokens, const torch::Tensor &mask,
                       const std::function<torch::Tensor(const torch::Tensor &,
                                                         const torch::Tensor &)>
                           &body);
};

/// Builds the network `config.kind` names, with freshly initialized weights
/// (from LibTorch's global generator: torch::manual_seed makes it
/// reproducible). Unknown kinds and invalid sizes are errors, not exceptions,
/// so that callers built without exception support can use it.
llvm::Expected<std::shared_ptr<ScoringNetworkImpl>>
createNetwork(const NetworkConfig &config);

/// Number of trainable scalars in `module` and its submodules.
int64_t parameterCount(const torch::nn::Module &module);

/// Mamba's selective scan (Gu & Dao 2023, Algorithm 2, the "S6" layer), per
/// batch element b and channel d over time t:
///   h_t = exp(delta_t * A) .* h_{t-1} + delta_t * B_t * x_t     (h_0 = 0)
///   y_t = <C_t, h_t> + D * x_t
/// Shapes: x, delta [Bt, L, Di]; A [Di, N]; B, C [Bt, L, N]; D [Di].
/// Returns y [Bt, L, Di]. Optional, as in the reference selective_scan_fn:
/// with `deltaBias` [Di], delta is replaced by softplus(delta + deltaBias);
/// with `z` [Bt, L, Di], y by y * silu(z). Fusing them saves whole passes
/// over [Bt, L, Di]. Differentiable. On CPU floats it runs fused kernels,
/// forward and backward, that never materialize anything of size
/// [Bt, L, Di, N]; other devices and types run it in tensor operations.
torch::Tensor selectiveScan(const torch::Tensor &x, const torch::Tensor &delta,
                            const torch::Tensor &A, const torch::Tensor &B,
                            const torch::Tensor &C, const torch::Tensor &D,
                            const torch::Tensor &z = {},
                            const torch::Tensor &deltaBias = {});

/// Mamba's causal depthwise conv over time followed by SiLU: x [Bt, L, Di],
/// weight [Di, K], bias [Di]; step t sees steps t - K + 1 .. t (zeros
/// before the start), so padding at the end never reaches a real token.
/// Without autograd on CPU floats it runs a fused forward-only kernel;
/// otherwise, differentiable tensor operations.
torch::Tensor causalConvSilu(const torch::Tensor &x,
                             const torch::Tensor &weight,
                             const torch::Tensor &bias);

/// RMSNorm over the last dimension of x [..., C] with weight [C]:
/// x / sqrt(mean(x^2) + 1e-5) * weight. Without autograd on CPU floats it
/// runs a fused forward-only kernel; otherwise, tensor operations.
torch::Tensor rmsNorm(const torch::Tensor &x, const torch::Tensor &weight);

//===----------------------------------------------------------------------===//
// Building blocks shared by the networks.
//===----------------------------------------------------------------------===//

/// Checks the shapes of a batch against `featureSize` and returns the tokens
/// with padding set to exactly zero (whatever it held, NaN included), so that
/// no network can be swayed by what a featurizer left in the padding.
torch::Tensor maskedTokens(const torch::Tensor &tokens,
                           const torch::Tensor &mask, int64_t featureSize);

/// Mean of `x` [B, L, D] over the real tokens of each sequence: [B, D].
torch::Tensor maskedMeanPool(const torch::Tensor &x, const torch::Tensor &mask);

/// x[b, (real tokens of b) - 1, :]: each sequence's last real token.
/// Padding sits at the end; every sequence has at least one real token.
torch::Tensor lastRealToken(const torch::Tensor &x, const torch::Tensor &mask);

/// x [B, L, D] with each sequence's real tokens in reverse order and its
/// padding left at the end, where it was. `reversal` is
/// realTokenReversal(mask), computed once per batch; the permutation is its
/// own inverse.
torch::Tensor reverseRealTokens(const torch::Tensor &x,
                                const torch::Tensor &reversal);
/// The rows of x.flatten(0, 1) that reverseRealTokens picks: [B * L].
torch::Tensor realTokenReversal(const torch::Tensor &mask);

/// Whether `operands` (undefined ones ignored) are all float32 on the CPU,
/// which the fused kernels take.
bool isCpuFloat(at::TensorList operands);

/// Whether `operands` can take the forward-only CPU kernels: CPU floats
/// (isCpuFloat), and no autograd graph to record.
bool isCpuInference(at::TensorList operands);

/// x [..., K] times weight [N, K] transposed, plus bias [N] if defined: what
/// torch::nn::Linear computes. CPU inference goes to oneDNN's sgemm, which
/// runs on LibTorch's OpenMP threads: Debian's LibTorch sends float32
/// matmuls to OpenBLAS, whose own thread pool contends with OpenMP's and is
/// about 2x slower on these skinny shapes. Column slices of a wider matrix
/// are read in place.
torch::Tensor linearForward(const torch::Tensor &x, const torch::Tensor &weight,
                            const torch::Tensor &bias = {});
inline torch::Tensor linearForward(const torch::Tensor &x,
                                   const torch::nn::Linear &layer) {
  return linearForward(x, layer->weight, layer->bias);
}

/// The per-kind builders behind createNetwork; `config` must already be
/// valid (createNetwork checks it).
std::shared_ptr<ScoringNetworkImpl>
createMambaNetwork(const NetworkConfig &config);
std::shared_ptr<ScoringNetworkImpl>
createTenSetMlpNetwork(const NetworkConfig &config);
std::shared_ptr<ScoringNetworkImpl>
createAttentionNetwork(const NetworkConfig &config);

} // namespace tcl

#endif // TCL_MODEL_NETWORKS_H
