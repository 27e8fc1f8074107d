//===- MambaOperations.cpp - Mamba's fused CPU operations -----------------===//
//
// The elementwise work between a Mamba block's projections, in fused
// kernels as in the reference implementation: causal conv + SiLU, the
// selective scan with its delta softplus, skip term and gate, and RMSNorm.
// They are written for the CPU, where the search scores tens of thousands of
// candidates per round. The scan also has a fused backward pass, since
// training and the tuner's online updates spent most of their time in it;
// the conv and RMSNorm train through tensor operations. Other devices and
// types run the same operations in tensor operations, and the tests check
// that both agree.
//
//===----------------------------------------------------------------------===//

#include "tcl/Model/Networks.h"

#include <torch/autograd.h>
#include <torch/nn.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace tcl;
namespace F = torch::nn::functional;

//===----------------------------------------------------------------------===//
// Fused CPU kernels
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

inline float vectorizableSigmoid(float v) {
  return 1.0f / (1.0f + vectorizableExp(-v));
}

inline float vectorizableSilu(float v) { return v * vectorizableSigmoid(v); }

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

/// Before a loop whose iterations touch disjoint elements of every array it
/// writes. GCC ignores `__restrict` on block-scope pointers, and a loop over
/// many arrays needs more runtime alias checks than it will emit (10), so
/// without this it stays scalar.
#if defined(__clang__)
#define TCL_INDEPENDENT_ITERATIONS _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define TCL_INDEPENDENT_ITERATIONS _Pragma("GCC ivdep")
#else
#define TCL_INDEPENDENT_ITERATIONS
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
        // Read once: GCC does not hoist loads through block-scope restrict
        // pointers, and a load per lane keeps the loop from vectorizing.
        float bn = b[n], cn = c[n];
        for (int64_t i = 0; i < channels; ++i) {
          h[i] = vectorizableExp(delta[i] * a[i]) * h[i] + deltaX[i] * bn;
          y[i] += cn * h[i];
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

/// Where the scan's backward pass writes: per-step gradients ([Bt, L, Di]
/// for x, delta and z, [Bt, L, N] for B and C; z's only with a gate).
struct ScanGradients {
  float *x, *delta, *z, *b, *c;
};

/// Gradients of the parameters, summed over the sequences of one chunk:
/// A transposed as in ScanOperands, D, and the delta bias (if any).
struct ScanParameterGradients {
  std::vector<float> aT, d, deltaBias;
};

/// The scan's backward pass for sequences [begin, end), as in Mamba's
/// backward kernel: each sequence's forward recurrence runs again, keeping
/// its states [L, N, Di] (a few hundred KiB, reused), then the adjoint
/// state runs backward in time:
///   g_t = dL/dh_t = gy_t C_t + exp(delta_{t+1} A) g_{t+1}
/// and every operand's gradient is read off g_t, h_{t-1} and the inputs.
TCL_KERNEL_TARGETS
void scanBackwardSequences(const ScanOperands &op, const Rows &gradOut,
                           const ScanGradients &grad,
                           ScanParameterGradients &params, int64_t begin,
                           int64_t end) {
  int64_t channels = op.channels, states = op.states, length = op.length;
  int64_t stateSize = states * channels;
  std::vector<float> deltas(length * channels), ungated(length * channels),
      history(length * stateSize), zeros(stateSize, 0.0f), adjoint(stateSize),
      gradYs(channels), gradDeltas(channels), termsB(channels),
      termsC(channels);
  for (int64_t sequence = begin; sequence < end; ++sequence) {
    for (int64_t t = 0; t < length; ++t) {
      int64_t row = sequence * length + t;
      const float *__restrict x = op.x.row(row);
      const float *__restrict rawDelta = op.delta.row(row);
      const float *__restrict b = op.b.row(row);
      const float *__restrict c = op.c.row(row);
      float *__restrict delta = deltas.data() + t * channels;
      float *__restrict y = ungated.data() + t * channels;
      if (op.deltaBias)
        for (int64_t i = 0; i < channels; ++i)
          delta[i] = vectorizableSoftplus(rawDelta[i] + op.deltaBias[i]);
      else
        std::copy(rawDelta, rawDelta + channels, delta);
      for (int64_t i = 0; i < channels; ++i)
        y[i] = op.d[i] * x[i];
      for (int64_t n = 0; n < states; ++n) {
        const float *__restrict a = op.aT + n * channels;
        const float *__restrict previous =
            (t == 0 ? zeros.data() : history.data() + (t - 1) * stateSize) +
            n * channels;
        float *__restrict h = history.data() + t * stateSize + n * channels;
        float bn = b[n], cn = c[n];
        for (int64_t i = 0; i < channels; ++i) {
          h[i] = vectorizableExp(delta[i] * a[i]) * previous[i] +
                 delta[i] * x[i] * bn;
          y[i] += cn * h[i];
        }
      }
    }
    std::fill(adjoint.begin(), adjoint.end(), 0.0f);
    for (int64_t t = length - 1; t >= 0; --t) {
      int64_t row = sequence * length + t;
      const float *__restrict x = op.x.row(row);
      const float *__restrict b = op.b.row(row);
      const float *__restrict c = op.c.row(row);
      const float *__restrict delta = deltas.data() + t * channels;
      const float *__restrict g = gradOut.row(row);
      float *__restrict gradY = gradYs.data();
      float *__restrict gradDelta = gradDeltas.data();
      float *__restrict gradX = grad.x + row * channels;
      // Through the gate: out = y * silu(z).
      if (op.z.data) {
        const float *__restrict z = op.z.row(row);
        const float *__restrict y = ungated.data() + t * channels;
        float *__restrict gradZ = grad.z + row * channels;
        for (int64_t i = 0; i < channels; ++i) {
          float sigmoid = vectorizableSigmoid(z[i]);
          gradY[i] = g[i] * z[i] * sigmoid;
          gradZ[i] = g[i] * y[i] * sigmoid * (1.0f + z[i] * (1.0f - sigmoid));
        }
      } else {
        std::copy(g, g + channels, gradY);
      }
      float *__restrict gradD = params.d.data();
      TCL_INDEPENDENT_ITERATIONS
      for (int64_t i = 0; i < channels; ++i) {
        gradX[i] = gradY[i] * op.d[i];
        gradD[i] += gradY[i] * x[i];
        gradDelta[i] = 0.0f;
      }
      for (int64_t n = 0; n < states; ++n) {
        const float *__restrict a = op.aT + n * channels;
        const float *__restrict h =
            history.data() + t * stateSize + n * channels;
        const float *__restrict previous =
            (t == 0 ? zeros.data() : history.data() + (t - 1) * stateSize) +
            n * channels;
        float *__restrict adjointN = adjoint.data() + n * channels;
        float *__restrict gradA = params.aT.data() + n * channels;
        float *__restrict termB = termsB.data();
        float *__restrict termC = termsC.data();
        float bn = b[n], cn = c[n];
        // B's and C's terms are summed over channels after the loop: a
        // float sum inside it would keep the compiler from vectorizing it.
        TCL_INDEPENDENT_ITERATIONS
        for (int64_t i = 0; i < channels; ++i) {
          float decay = vectorizableExp(delta[i] * a[i]);
          float gradH = adjointN[i] + gradY[i] * cn;
          termC[i] = gradY[i] * h[i];
          termB[i] = gradH * delta[i] * x[i];
          gradDelta[i] += gradH * (a[i] * decay * previous[i] + x[i] * bn);
          gradA[i] += gradH * delta[i] * decay * previous[i];
          gradX[i] += gradH * delta[i] * bn;
          adjointN[i] = gradH * decay;
        }
        grad.b[row * states + n] =
            std::accumulate(termB, termB + channels, 0.0f);
        grad.c[row * states + n] =
            std::accumulate(termC, termC + channels, 0.0f);
      }
      float *__restrict gradRawDelta = grad.delta + row * channels;
      if (op.deltaBias) {
        // softplus'(v) = sigmoid(v).
        const float *__restrict rawDelta = op.delta.row(row);
        for (int64_t i = 0; i < channels; ++i) {
          gradRawDelta[i] = gradDelta[i] *
                            vectorizableSigmoid(rawDelta[i] + op.deltaBias[i]);
          params.deltaBias[i] += gradRawDelta[i];
        }
      } else {
        std::copy(gradDelta, gradDelta + channels, gradRawDelta);
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

namespace {

/// The fused kernels' operands, with the transposed and contiguous copies
/// they read kept alive.
struct FusedScanInputs {
  torch::Tensor aT, d, deltaBias;
  ScanOperands operands;

  FusedScanInputs(const torch::Tensor &x, const torch::Tensor &delta,
                  const torch::Tensor &A, const torch::Tensor &B,
                  const torch::Tensor &C, const torch::Tensor &D,
                  const torch::Tensor &z, const torch::Tensor &bias, float *y)
      : aT(A.t().contiguous()), d(D.contiguous()),
        deltaBias(bias.defined() ? bias.contiguous() : bias),
        operands{Rows(x),
                 Rows(delta),
                 Rows(B),
                 Rows(C),
                 z.defined() ? Rows(z) : Rows(),
                 aT.data_ptr<float>(),
                 d.data_ptr<float>(),
                 deltaBias.defined() ? deltaBias.data_ptr<float>() : nullptr,
                 y,
                 x.size(1),
                 x.size(2),
                 A.size(1)} {}
};

torch::Tensor fusedScan(const torch::Tensor &x, const torch::Tensor &delta,
                        const torch::Tensor &A, const torch::Tensor &B,
                        const torch::Tensor &C, const torch::Tensor &D,
                        const torch::Tensor &z, const torch::Tensor &deltaBias) {
  torch::Tensor y = torch::empty(x.sizes(), x.options());
  FusedScanInputs inputs(x, delta, A, B, C, D, z, deltaBias,
                         y.data_ptr<float>());
  at::parallel_for(0, x.size(0), sequencesPerTask(x.size(1) * A.numel()),
                   [&](int64_t begin, int64_t end) {
                     scanSequences(inputs.operands, begin, end);
                   });
  return y;
}

/// The scan as an autograd function over the fused kernels. The tensor-op
/// scan records L steps of [Bt, Di, N] operations and their backward
/// nodes; replaying tuning of BERT-base, its training passes were nine
/// tenths of the online updates' time.
class FusedSelectiveScan
    : public torch::autograd::Function<FusedSelectiveScan> {
public:
  static torch::Tensor forward(torch::autograd::AutogradContext *context,
                               const torch::Tensor &x,
                               const torch::Tensor &delta,
                               const torch::Tensor &A, const torch::Tensor &B,
                               const torch::Tensor &C, const torch::Tensor &D,
                               const c10::optional<torch::Tensor> &z,
                               const c10::optional<torch::Tensor> &deltaBias) {
    torch::Tensor gate = z.value_or(torch::Tensor());
    torch::Tensor bias = deltaBias.value_or(torch::Tensor());
    context->save_for_backward({x, delta, A, B, C, D, gate, bias});
    return fusedScan(x, delta, A, B, C, D, gate, bias);
  }

  static torch::autograd::variable_list
  backward(torch::autograd::AutogradContext *context,
           torch::autograd::variable_list gradOutputs) {
    torch::autograd::variable_list saved = context->get_saved_variables();
    const torch::Tensor &x = saved[0], &A = saved[2], &B = saved[3],
                        &z = saved[6], &bias = saved[7];
    FusedScanInputs inputs(x, saved[1], A, B, saved[4], saved[5], z, bias,
                           /*y=*/nullptr);
    Rows gradOut(gradOutputs[0]);
    torch::Tensor gradX = torch::empty(x.sizes(), x.options());
    torch::Tensor gradDelta = torch::empty_like(gradX);
    torch::Tensor gradZ = z.defined() ? torch::empty_like(gradX) : z;
    torch::Tensor gradB = torch::empty(B.sizes(), B.options());
    torch::Tensor gradC = torch::empty_like(gradB);
    ScanGradients grad{gradX.data_ptr<float>(), gradDelta.data_ptr<float>(),
                       gradZ.defined() ? gradZ.data_ptr<float>() : nullptr,
                       gradB.data_ptr<float>(), gradC.data_ptr<float>()};
    // The parameters' gradients sum over sequences: a partial sum per
    // chunk, added in chunk order, so that a thread count gives one result.
    int64_t sequences = x.size(0), channels = x.size(2), states = A.size(1);
    int64_t chunks = std::max<int64_t>(
        1, std::min<int64_t>(at::get_num_threads(), sequences));
    std::vector<ScanParameterGradients> partial(
        chunks, {std::vector<float>(states * channels),
                 std::vector<float>(channels),
                 std::vector<float>(bias.defined() ? channels : 0)});
    at::parallel_for(0, chunks, 1, [&](int64_t first, int64_t last) {
      for (int64_t chunk = first; chunk < last; ++chunk)
        scanBackwardSequences(inputs.operands, gradOut, grad, partial[chunk],
                              sequences * chunk / chunks,
                              sequences * (chunk + 1) / chunks);
    });
    auto sum = [&](std::vector<float> ScanParameterGradients::*member,
                   at::IntArrayRef shape) {
      torch::Tensor total = torch::zeros(shape, x.options());
      for (ScanParameterGradients &chunk : partial)
        total += torch::from_blob((chunk.*member).data(), shape);
      return total;
    };
    return {gradX,
            gradDelta,
            sum(&ScanParameterGradients::aT, {states, channels}).t(),
            gradB,
            gradC,
            sum(&ScanParameterGradients::d, {channels}),
            gradZ,
            bias.defined() ? sum(&ScanParameterGradients::deltaBias, {channels})
                           : torch::Tensor()};
  }
};

} // namespace

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
  if (isCpuInference({x, delta, A, B, C, D, z, deltaBias}))
    return fusedScan(x, delta, A, B, C, D, z, deltaBias);
  if (isCpuFloat({x, delta, A, B, C, D, z, deltaBias}))
    return FusedSelectiveScan::apply(
        x, delta, A, B, C, D,
        z.defined() ? c10::optional<torch::Tensor>(z) : c10::nullopt,
        deltaBias.defined() ? c10::optional<torch::Tensor>(deltaBias)
                            : c10::nullopt);
  return scanWithTensors(x, delta, A, B, C, D, z, deltaBias);
}

torch::Tensor tcl::rmsNorm(const torch::Tensor &x,
                           const torch::Tensor &weight) {
  TORCH_CHECK(weight.dim() == 1 && x.dim() >= 1 &&
                  x.size(-1) == weight.size(0),
              "rmsNorm: x [..., C], weight [C] expected");
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
