//===- MambaNetwork.cpp - Selective state-space cost model ----------------===//
//
// Mamba (Gu & Dao 2023, "Mamba: Linear-Time Sequence Modeling with Selective
// State Spaces") over a schedule's token sequence, with the reference
// implementation's layer structure and initialization (mamba_simple.py).
// Padding sits at the end of each sequence and every layer is causal, so the
// real tokens' outputs never see it; pooling then skips it. Bidirectional
// networks run every second block over each sequence's real tokens
// reversed in place, with the padding left at the end.
//
// Like the reference, the elementwise work between the projections runs in
// fused kernels (causal conv + SiLU; the selective scan with its delta
// softplus, skip term and gate; here also RMSNorm), written for the CPU,
// where the search scores tens of thousands of candidates per round. They
// compute the forward pass only: autograd and other devices use the same
// operations written with tensor ops, and the tests check that both agree.
//
//===----------------------------------------------------------------------===//

#include "tcl/Model/Networks.h"

#include <torch/nn.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tcl;
namespace nn = torch::nn;
namespace F = torch::nn::functional;

//===----------------------------------------------------------------------===//
// Fused CPU kernels (forward only)
//===----------------------------------------------------------------------===//

namespace {

constexpr float kRmsNormEpsilon = 1e-5f;

/// exp(v) for |v| < 2^22, to ~1e-7 relative error (0 below -87.3), in plain
/// arithmetic that the compiler vectorizes, unlike a call to std::exp:
/// Cephes' expf, v = k ln2 + r with |r| <= ln2 / 2, exp(r) by a polynomial,
/// 2^k by writing the exponent bits.
inline float vectorizableExp(float v) {
  // Adding and subtracting 1.5 * 2^23 rounds to the nearest integer.
  constexpr float kRound = 12582912.0f;
  float k = (v * 1.44269504088896341f + kRound) - kRound;
  // ln 2 in two parts, so that k * 0.693359375 is exact.
  float r = v - k * 0.693359375f + k * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // The biased exponent of 2^k, clamped to 0 (a zero result) and 255
  // (infinity) as integers: float comparisons would stop vectorization
  // under the default -ftrapping-math.
  int32_t exponent = static_cast<int32_t>(k) + 127;
  exponent = exponent < 0 ? 0 : exponent;
  exponent = exponent > 255 ? 255 : exponent;
  int32_t bits = exponent << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  return p * scale;
}

/// softplus(v) = max(v, 0) + log1p(exp(-|v|)), branch-free. With
/// u = exp(-|v|) in (0, 1], log1p(u) = 2 atanh(s) for s = u / (2 + u) in
/// (0, 1/3], whose odd series converges to ~1e-8 by the s^13 term.
inline float vectorizableSoftplus(float v) {
  float magnitude = std::fabs(v);
  float u = vectorizableExp(-magnitude);
  float s = u / (2.0f + u), s2 = s * s;
  // atanh(s) / s = 1 + s2 / 3 + s2^2 / 5 + ... + s2^6 / 13, Horner's rule.
  float series = 1.0f / 13;
  series = series * s2 + 1.0f / 11;
  series = series * s2 + 1.0f / 9;
  series = series * s2 + 1.0f / 7;
  series = series * s2 + 1.0f / 5;
  series = series * s2 + 1.0f / 3;
  series = series * s2 + 1.0f;
  return 0.5f * (v + magnitude) + 2.0f * s * series;
}

inline float vectorizableSilu(float v) {
  return v / (1.0f + vectorizableExp(-v));
}

/// A [Bt, L, C] float32 tensor read as Bt * L rows of C contiguous floats,
/// `stride` apart, so that column slices of a wider matrix (in_proj's x and
/// z halves, x_proj's B and C) are read in place.
struct Rows {
  torch::Tensor tensor;
  const float *data = nullptr;
  int64_t stride = 0;

  Rows() = default;
  explicit Rows(const torch::Tensor &t)
      : tensor(t.stride(2) == 1 && t.stride(0) == t.stride(1) * t.size(1)
                   ? t
                   : t.contiguous()),
        data(tensor.data_ptr<float>()), stride(tensor.stride(1)) {}
  const float *row(int64_t index) const { return data + index * stride; }
};

/// The kernels run their AVX2 + FMA copy where the CPU has them (most of
/// their time is exp); the library itself targets baseline x86-64.
#if defined(__x86_64__) && defined(__ELF__)
#define TCL_KERNEL_TARGETS                                                     \
  __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define TCL_KERNEL_TARGETS
#endif

/// RMSNorm of rows [begin, end) of `channels` floats.
TCL_KERNEL_TARGETS
void rmsNormRows(const float *x, const float *weight, float *out,
                 int64_t channels, int64_t begin, int64_t end) {
  for (int64_t row = begin; row < end; ++row) {
    const float *__restrict in = x + row * channels;
    float *__restrict o = out + row * channels;
    float sumOfSquares = 0;
    for (int64_t i = 0; i < channels; ++i)
      sumOfSquares += in[i] * in[i];
    float scale = 1.0f / std::sqrt(sumOfSquares / channels + kRmsNormEpsilon);
    for (int64_t i = 0; i < channels; ++i)
      o[i] = in[i] * scale * weight[i];
  }
}

/// Causal depthwise conv + SiLU for sequences [begin, end): out[t] =
/// silu(bias + sum_s weightT[dConv - 1 - s] * x[t - s]), vectorized over
/// channels. `weightT` is [dConv, Di].
TCL_KERNEL_TARGETS
void convSiluSequences(const Rows &x, const float *weightT, const float *bias,
                       float *out, int64_t length, int64_t channels,
                       int64_t width, int64_t begin, int64_t end) {
  for (int64_t sequence = begin; sequence < end; ++sequence)
    for (int64_t t = 0; t < length; ++t) {
      int64_t row = sequence * length + t;
      float *__restrict o = out + row * channels;
      std::copy(bias, bias + channels, o);
      for (int64_t shift = 0; shift < std::min(width, t + 1); ++shift) {
        const float *__restrict in = x.row(row - shift);
        const float *__restrict w = weightT + (width - 1 - shift) * channels;
        for (int64_t i = 0; i < channels; ++i)
          o[i] += w[i] * in[i];
      }
      for (int64_t i = 0; i < channels; ++i)
        o[i] = vectorizableSilu(o[i]);
    }
}

/// Operands of the fused scan; see selectiveScan. `aT` is A transposed to
/// [N, Di], so that the innermost loop runs over channels with unit stride.
struct ScanOperands {
  Rows x, delta, b, c, z;
  const float *aT, *d, *deltaBias;
  float *y;
  int64_t length, channels, states;
};

/// The selective scan for sequences [begin, end), as in Mamba's
/// hardware-aware kernel: discretization, recurrence, skip and gate in one
/// pass, the state h [N, Di] held in L1, nothing of size [L, Di, N] written.
TCL_KERNEL_TARGETS
void scanSequences(const ScanOperands &op, int64_t begin, int64_t end) {
  int64_t channels = op.channels;
  std::vector<float> state(op.states * channels), deltas(channels),
      deltaXs(channels);
  for (int64_t sequence = begin; sequence < end; ++sequence) {
    std::fill(state.begin(), state.end(), 0.0f);
    for (int64_t t = 0; t < op.length; ++t) {
      int64_t row = sequence * op.length + t;
      const float *__restrict x = op.x.row(row);
      const float *__restrict rawDelta = op.delta.row(row);
      const float *__restrict b = op.b.row(row);
      const float *__restrict c = op.c.row(row);
      float *__restrict delta = deltas.data();
      float *__restrict deltaX = deltaXs.data();
      float *__restrict y = op.y + row * channels;
      if (op.deltaBias)
        for (int64_t i = 0; i < channels; ++i)
          delta[i] = vectorizableSoftplus(rawDelta[i] + op.deltaBias[i]);
      else
        std::copy(rawDelta, rawDelta + channels, delta);
      for (int64_t i = 0; i < channels; ++i) {
        deltaX[i] = delta[i] * x[i];
        y[i] = op.d[i] * x[i];
      }
      for (int64_t n = 0; n < op.states; ++n) {
        float *__restrict h = state.data() + n * channels;
        const float *__restrict a = op.aT + n * channels;
        for (int64_t i = 0; i < channels; ++i) {
          h[i] = vectorizableExp(delta[i] * a[i]) * h[i] + deltaX[i] * b[n];
          y[i] += c[n] * h[i];
        }
      }
      if (op.z.data) {
        const float *__restrict z = op.z.row(row);
        for (int64_t i = 0; i < channels; ++i)
          y[i] *= vectorizableSilu(z[i]);
      }
    }
  }
}

/// Grain for at::parallel_for over sequences (or rows): a task gets at least
/// ~64k inner-loop iterations, so that small batches stay on the calling
/// thread.
int64_t sequencesPerTask(int64_t workPerSequence) {
  return std::max<int64_t>(1, 65536 / std::max<int64_t>(1, workPerSequence));
}

} // namespace

//===----------------------------------------------------------------------===//
// The operations
//===----------------------------------------------------------------------===//

torch::Tensor tcl::causalConvSilu(const torch::Tensor &x,
                                  const torch::Tensor &weight,
                                  const torch::Tensor &bias) {
  TORCH_CHECK(x.dim() == 3 && weight.dim() == 2 &&
                  weight.size(0) == x.size(2) && bias.dim() == 1 &&
                  bias.size(0) == x.size(2),
              "causalConvSilu: x [Bt, L, Di], weight [Di, K], bias [Di] "
              "expected");
  int64_t length = x.size(1), channels = x.size(2), width = weight.size(1);
  if (!isCpuInference({x, weight, bias})) {
    // dConv shifted multiply-adds in the [Bt, L, Di] layout: LibTorch's
    // grouped conv1d wants [Bt, Di, L] and is slower with the transposes.
    torch::Tensor out = torch::addcmul(bias, x, weight.select(1, width - 1));
    for (int64_t shift = 1; shift < std::min(width, length); ++shift)
      out.narrow(1, shift, length - shift)
          .addcmul_(x.narrow(1, 0, length - shift),
                    weight.select(1, width - 1 - shift));
    return F::silu(out);
  }
  Rows input(x);
  torch::Tensor weightT = weight.t().contiguous(), biases = bias.contiguous();
  torch::Tensor out = torch::empty({x.size(0), length, channels}, x.options());
  at::parallel_for(0, x.size(0), sequencesPerTask(length * channels * width),
                   [&](int64_t begin, int64_t end) {
                     convSiluSequences(input, weightT.data_ptr<float>(),
                                       biases.data_ptr<float>(),
                                       out.data_ptr<float>(), length, channels,
                                       width, begin, end);
                   });
  return out;
}

/// The scan in tensor operations: discretize every step at once
/// (zero-order hold for A, Euler for B, as in the paper) into decay and
/// input terms [Bt, L, Di, N], then run the recurrence step by step, each
/// step batched over sequences, channels and states.
static torch::Tensor
scanWithTensors(const torch::Tensor &x, torch::Tensor delta,
                const torch::Tensor &A, const torch::Tensor &B,
                const torch::Tensor &C, const torch::Tensor &D,
                const torch::Tensor &z, const torch::Tensor &deltaBias) {
  if (deltaBias.defined())
    delta = F::softplus(delta + deltaBias);
  // unbind, unlike one select per step, has one backward node for all steps.
  std::vector<torch::Tensor> decays =
      (delta.unsqueeze(-1) * A).exp_().unbind(1);
  std::vector<torch::Tensor> inputs =
      ((delta * x).unsqueeze(-1) * B.unsqueeze(2)).unbind(1);
  std::vector<torch::Tensor> cs = C.unbind(1), ys;
  torch::Tensor h;
  for (size_t t = 0; t < inputs.size(); ++t) {
    h = t == 0 ? inputs[0] : torch::addcmul(inputs[t], decays[t], h);
    ys.push_back((h * cs[t].unsqueeze(1)).sum(-1));
  }
  torch::Tensor y = torch::stack(ys, 1) + x * D;
  return z.defined() ? y * F::silu(z) : y;
}

torch::Tensor tcl::selectiveScan(const torch::Tensor &x,
                                 const torch::Tensor &delta,
                                 const torch::Tensor &A, const torch::Tensor &B,
                                 const torch::Tensor &C, const torch::Tensor &D,
                                 const torch::Tensor &z,
                                 const torch::Tensor &deltaBias) {
  TORCH_CHECK(x.dim() == 3 && delta.sizes() == x.sizes() && A.dim() == 2 &&
                  A.size(0) == x.size(2) && B.dim() == 3 &&
                  B.sizes() == C.sizes() && B.size(0) == x.size(0) &&
                  B.size(1) == x.size(1) && B.size(2) == A.size(1) &&
                  D.dim() == 1 && D.size(0) == x.size(2) &&
                  (!z.defined() || z.sizes() == x.sizes()) &&
                  (!deltaBias.defined() || deltaBias.sizes() == D.sizes()),
              "selectiveScan: inconsistent operand shapes");
  if (!isCpuInference({x, delta, A, B, C, D, z, deltaBias}))
    return scanWithTensors(x, delta, A, B, C, D, z, deltaBias);

  torch::Tensor aT = A.t().contiguous(), ds = D.contiguous(), biases;
  if (deltaBias.defined())
    biases = deltaBias.contiguous();
  torch::Tensor y = torch::empty(x.sizes(), x.options());
  ScanOperands operands{Rows(x),
                        Rows(delta),
                        Rows(B),
                        Rows(C),
                        z.defined() ? Rows(z) : Rows(),
                        aT.data_ptr<float>(),
                        ds.data_ptr<float>(),
                        biases.defined() ? biases.data_ptr<float>() : nullptr,
                        y.data_ptr<float>(),
                        x.size(1),
                        x.size(2),
                        A.size(1)};
  at::parallel_for(
      0, x.size(0), sequencesPerTask(x.size(1) * A.numel()),
      [&](int64_t begin, int64_t end) { scanSequences(operands, begin, end); });
  return y;
}

//===----------------------------------------------------------------------===//
// The network
//===----------------------------------------------------------------------===//

namespace {

/// RMSNorm (Zhang & Sennrich 2019), Mamba's normalization: LayerNorm without
/// the mean subtraction and bias. LibTorch 1.13 has none; at inference one
/// pass of a kernel replaces six tensor operations.
class RmsNormImpl : public nn::Module {
public:
  explicit RmsNormImpl(int64_t size)
      : weight(register_parameter("weight", torch::ones({size}))) {}

  torch::Tensor forward(const torch::Tensor &x) {
    if (!isCpuInference({x, weight}))
      return x *
             torch::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) +
                          kRmsNormEpsilon) *
             weight;
    torch::Tensor in = x.contiguous(), out = torch::empty_like(in);
    int64_t channels = weight.size(0);
    at::parallel_for(0, in.numel() / channels, sequencesPerTask(channels),
                     [&](int64_t begin, int64_t end) {
                       rmsNormRows(in.data_ptr<float>(),
                                   weight.data_ptr<float>(),
                                   out.data_ptr<float>(), channels, begin, end);
                     });
    return out;
  }

private:
  torch::Tensor weight;
};
TORCH_MODULE(RmsNorm);

/// One residual block: x + Mamba(RMSNorm(x)).
class MambaBlockImpl : public nn::Module {
public:
  explicit MambaBlockImpl(const NetworkConfig &config)
      : dInner(config.expand * config.dModel), dState(config.dState),
        dtRank((config.dModel + 15) / 16),
        norm(register_module("norm", RmsNorm(config.dModel))),
        inProj(register_module(
            "in_proj",
            nn::Linear(
                nn::LinearOptions(config.dModel, 2 * dInner).bias(false)))),
        conv(register_module(
            "conv1d", nn::Conv1d(nn::Conv1dOptions(dInner, dInner, config.dConv)
                                     .groups(dInner)))),
        xProj(register_module(
            "x_proj",
            nn::Linear(
                nn::LinearOptions(dInner, dtRank + 2 * dState).bias(false)))),
        dtProj(register_module("dt_proj", nn::Linear(dtRank, dInner))),
        outProj(register_module(
            "out_proj",
            nn::Linear(nn::LinearOptions(dInner, config.dModel).bias(false)))) {
    // S4D-real: A = -(1, 2, ..., N) in every channel, stored as log(-A) so
    // that A stays negative (a decaying state) whatever training does.
    aLog = register_parameter(
        "A_log",
        torch::arange(1, dState + 1, torch::kFloat).log().repeat({dInner, 1}));
    d = register_parameter("D", torch::ones({dInner}));
    initializeDelta();
  }

  torch::Tensor forward(const torch::Tensor &input) {
    std::vector<torch::Tensor> xz =
        linearForward(norm(input), inProj).chunk(2, -1);
    torch::Tensor x =
        causalConvSilu(xz[0], conv->weight.squeeze(1), conv->bias);
    // Selection: delta, B and C are functions of the input at each step.
    std::vector<torch::Tensor> dbc =
        linearForward(x, xProj).split_with_sizes({dtRank, dState, dState}, -1);
    // dt_proj's bias and the softplus are applied inside the scan.
    torch::Tensor rawDelta = linearForward(dbc[0], dtProj->weight);
    torch::Tensor y = selectiveScan(x, rawDelta, -torch::exp(aLog), dbc[1],
                                    dbc[2], d, xz[1], dtProj->bias);
    return input + linearForward(y, outProj);
  }

private:
  /// Mamba's delta initialization: softplus(dt_proj bias) starts log-uniform
  /// in [1e-3, 1e-1], so channels start with time scales from ~10 to ~1000
  /// steps; the weights start small so that the input only nudges them.
  void initializeDelta() {
    torch::NoGradGuard noGrad;
    double std = 1.0 / std::sqrt(static_cast<double>(dtRank));
    dtProj->weight.uniform_(-std, std);
    const double dtMin = 1e-3, dtMax = 1e-1;
    torch::Tensor dt =
        torch::exp(torch::rand({dInner}) * (std::log(dtMax) - std::log(dtMin)) +
                   std::log(dtMin))
            .clamp_min(1e-4);
    // Inverse of softplus: dt + log(1 - exp(-dt)).
    dtProj->bias.copy_(dt + torch::log(-torch::expm1(-dt)));
  }

  int64_t dInner, dState, dtRank;
  RmsNorm norm;
  nn::Linear inProj;
  nn::Conv1d conv;
  nn::Linear xProj, dtProj, outProj;
  torch::Tensor aLog, d;
};
TORCH_MODULE(MambaBlock);

/// One member of a Mamba network: token embedding, residual blocks, final
/// norm and the head's hidden layer, up to the representation a readout
/// scores.
class MambaStreamImpl : public nn::Module {
public:
  /// The blocks come later (addBlocks): a network draws every stream's
  /// embedding and head weights, then its readout's, then the blocks', the
  /// order a one-member network has always drawn them in, so that a seed
  /// still gives the weights it gave before networks had members.
  /// Its layers are registered in `owner`, which names their weights.
  MambaStreamImpl(const NetworkConfig &config, nn::Module &owner)
      : featureSize(config.featureSize), bidirectional(config.bidirectional),
        embedIn(owner.register_module(
            "embed", nn::Linear(config.featureSize, config.dModel))),
        blocks(owner.register_module("blocks", nn::ModuleList())),
        norm(owner.register_module("norm", RmsNorm(config.dModel))),
        headHidden(owner.register_module(
            "head_hidden",
            nn::Linear((bidirectional ? 3 : 2) * config.dModel,
                       config.dModel))) {}

  void addBlocks(const NetworkConfig &config) {
    for (int64_t i = 0; i < config.layers; ++i)
      blocks->push_back(MambaBlock(config));
  }

  torch::Tensor represent(const torch::Tensor &tokens,
                          const torch::Tensor &mask) {
    torch::Tensor x =
        linearForward(maskedTokens(tokens, mask, featureSize), embedIn);
    torch::Tensor reversal;
    if (bidirectional)
      reversal = realTokenReversal(mask);
    for (size_t index = 0; index < blocks->size(); ++index) {
      bool backward = bidirectional && index % 2 == 1;
      if (backward)
        x = reverseRealTokens(x, reversal);
      x = blocks[index]->as<MambaBlock>()->forward(x);
      if (backward)
        x = reverseRealTokens(x, reversal);
    }
    x = norm(x);
    // The last real token's state has read the whole schedule in every
    // forward block, the first token's in the last backward one; the mean
    // keeps every step's own output within one linear map of the head.
    std::vector<torch::Tensor> pooled = {maskedMeanPool(x, mask),
                                         lastRealToken(x, mask)};
    if (bidirectional)
      pooled.push_back(x.select(1, 0));
    return F::silu(linearForward(torch::cat(pooled, 1), headHidden));
  }

private:
  int64_t featureSize;
  bool bidirectional;
  /// Token features to the residual stream ("embed" in saved weights).
  nn::Linear embedIn;
  nn::ModuleList blocks;
  RmsNorm norm;
  nn::Linear headHidden;
};

/// Mamba streams side by side and one readout of their representations.
/// The first stream's weights keep the names a one-member network has
/// always saved ("embed", "blocks", ...), so models saved before members
/// existed load; member m's are "member<m>.embed" and so on.
class MambaNetwork : public ScoringNetworkImpl {
public:
  explicit MambaNetwork(const NetworkConfig &config) {
    for (int64_t m = 0; m < config.members; ++m) {
      nn::Module *owner = this;
      if (m > 0)
        owner = register_module("member" + std::to_string(m),
                                std::make_shared<nn::Module>())
                    .get();
      streams.push_back(std::make_shared<MambaStreamImpl>(config, *owner));
    }
    headOut = register_module(
        "head_out", nn::Linear(config.members * config.dModel, 1));
    for (const std::shared_ptr<MambaStreamImpl> &stream : streams)
      stream->addBlocks(config);
  }

  const nn::Linear &readout() const override { return headOut; }
  int64_t members() const override {
    return static_cast<int64_t>(streams.size());
  }

protected:
  torch::Tensor represent(const torch::Tensor &tokens,
                          const torch::Tensor &mask) override {
    if (streams.size() == 1)
      return streams.front()->represent(tokens, mask);
    std::vector<torch::Tensor> parts;
    for (const std::shared_ptr<MambaStreamImpl> &stream : streams)
      parts.push_back(stream->represent(tokens, mask));
    return torch::cat(parts, 1);
  }

private:
  /// Not registered themselves: their layers are, in `this` or in a
  /// "member<m>" holder.
  std::vector<std::shared_ptr<MambaStreamImpl>> streams;
  nn::Linear headOut{nullptr};
};

} // namespace

std::shared_ptr<ScoringNetworkImpl>
tcl::createMambaNetwork(const NetworkConfig &config) {
  return std::make_shared<MambaNetwork>(config);
}
