#!/usr/bin/python3
r"""Model zoo: writes runnable linalg-on-tensors MLIR for a few standard networks.

Why this exists: tcl needs realistic whole-network inputs (to extract tuning
tasks, to run end to end, to test against) that parse with the MLIR it is built
against (LLVM 22), carry no frontend-specific dialects (no torch, no
ml_program, no dense_resource blobs) and can be regenerated at any size.  Every
network is described by a small layer table below and emitted through one
`IRBuilder`, so all models share the same layer functions; its topology is
written once, against a flavour's layer set (TclLayers, TorchLayers: the same
methods, each flavour's IR style).

Output contract (every model, both flavours):
  * exactly one public function
        func.func @forward(%input: tensor<...>[, weights...]) -> tensor<...>
    using only the func, arith, math, linalg and tensor dialects, fp32, batch 1;
  * convolutions and matmuls are named linalg ops in destination-passing
    style; padding is an explicit `tensor.pad`;
  * weights (`--weights`):
      splat  every weight is `arith.constant dense<V> : tensor<...>` (default);
      args   every weight is an extra argument of @forward after %input, in a
             fixed order (program order; kernel before bias; a batch norm's
             gamma, beta, running mean, running variance), so a runner can
             feed its own (e.g. random) values.
    Constants that are no weights stay constants in both modes: llama_layer's
    rotary cos/sin tables and the torch flavour's zero accumulators.

Flavours (`--flavour`): the same networks in two IR styles.
  tcl    (default) tcl's own style: NHWC/HWCF convolutions, dense weights
         stored K x N, `tensor.empty` + `linalg.fill` (0.0) as every
         conv/matmul's `outs`, and bias / folded batch-norm, activation and
         residual add as ONE elementwise `linalg.generic` after each named op.
  torch  what torch-mlir's torch-backend-to-linalg-on-tensors pipeline writes
         for the torchvision / HF module, i.e. what users feed tcl:
         * NCHW activations (input 1x3x224x224), FCHW weights:
           `linalg.conv_2d_nchw_fchw`, `linalg.depthwise_conv_2d_nchw_chw` (its
           C x 1 x k x k weight collapsed to C x k x k), `linalg.pooling_nchw_max`
           (-inf tensor.pad and fill);
         * a conv or Linear with a bias accumulates onto it: its `outs` is the
           bias broadcast into a `tensor.empty` by a copying generic; without
           one (torchvision's ResNet and MobileNet-V2 convs: bias=False, then
           batch norm) onto a 0.0 fill, a bias-free Linear (LLaMA) onto a zero
           constant `arith.constant dense<0.0>`.  VGG-16 (no batch norm) has
           biased convs;
         * batch norm unfolded (inference): one generic computing
           (x - mean) * rsqrt(var + eps) * gamma + beta from four 1-D weights
           broadcast over N, H, W, exactly as torch-mlir lowers aten.batch_norm;
         * every activation and residual add its own generic: ReLU as
           cmpf + select, ReLU6 as two compare + selects (clamp), GELU by
           math.erf (BERT, ViT) or tanh (GPT-2: HF's "gelu_new"), SiLU as
           x * 1 / (1 + exp(-x));
         * Linear weights stored [out, in], `linalg.transpose` into [in, out]
           before the `linalg.matmul`; GPT-2's HF Conv1D stores [in, out] and
           is used as is.  ViT's packed in_proj and GPT-2's c_attn are one
           3*hidden projection split by extract_slice;
         * adaptive average pool to 1x1 as a sum-reduction generic, the
           keep-dim expand_shape, a divide generic, then the flatten
           (`tensor.collapse_shape`);
         * layer norm and RMSNorm decomposed into torch-mlir's chain of small
           generics (sums, divides, x - mean, squares, + eps, math.rsqrt,
           scale, shift); softmax as max, subtract, exp, sum, divide generics,
           the scores first divided by sqrt(head_dim); torch.cat as
           `tensor.concat`.
         The tcl flavour's MLP and llama_layer compute exactly the torch
         flavour's function (same splat values); the other models differ by
         the folded batch norm, the GELU approximation and weight order.

Splat value policy (why the numbers look the way they do): a splat kernel makes
every output element a scaled sum over its receptive field, so with
V = gain / fan_in a layer maps a mean activation m to about gain * m.  Gains are
slightly below 1 and "wobble" by +-5% per weight so that no two consecutive
layers are identical (a constant-folding or CSE bug then shows up as a wrong
number rather than being hidden).  The last convolution of a residual branch
uses gain * RESIDUAL_BRANCH_GAIN (like zero-init-residual / Fixup), so the
residual stream grows by only about 1.2x per block instead of about 2x; the
pre-LN transformers (ViT, GPT-2) and llama_layer, whose residual stream is
never normalized, apply the same factor to the two projections that add into
it.  Biases (folded batch-norm shifts) are about 0.01, layer-norm, RMSNorm and
batch-norm gammas about 1 and betas about 0.01, learned embeddings (ViT's
class token and positions) about 0.02.  Batch-norm running statistics (torch
flavour) are buffers with fixed values that take no wobble step: mean 0.001
and variance 1.0 (POSITIVE, so rsqrt(var + eps) is finite; with a random
`--weights args` run, feed positive variances too).
Every model then stays far from inf/nan; measured outputs for
deterministic inputs in [-1, 1] (splat weights make all output channels
equal): ResNet-50 logits ~1.16, MobileNet-V2 ~0.20, one ResNet-50
block <= 0.07, MLP ~0.03, 12-layer BERT outputs within [-1.4, 1.4],
ResNet-18 logits ~0.28, VGG-16 ~0.088, 12-layer ViT-B/16 ~0.022 (its splat
patch embedding makes every token's channels equal, so each layer norm
returns beta), 12-layer GPT-2 outputs within [-1.8, 1.9], llama_layer within
[-1.01, 1.01].  Torch flavour: ResNet-50 ~3.4, MobileNet-V2 ~0.29, ResNet-18
~0.91, one ResNet-50 block <= 0.14, MLP ~0.03, VGG-16 ~0.15, ViT-B/16 ~0.017,
BERT within [-1.5, 1.5], GPT-2 within [-1.6, 1.6], llama_layer within
[-1.01, 1.01].

Lowering: every model bufferizes and lowers to the LLVM dialect with upstream
passes only, e.g.
    mlir-opt FILE --one-shot-bufferize="bufferize-function-boundaries" \
      --convert-linalg-to-loops --lower-affine --convert-scf-to-cf \
      --expand-strided-metadata --finalize-memref-to-llvm --convert-math-to-llvm \
      --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
      --reconcile-unrealized-casts
(the torch flavour's math.erf also needs --convert-math-to-libm after
--convert-math-to-llvm: erff from libm).

Usage:
    python3 python/tcl/zoo.py --list [--flavour tcl|torch]
    python3 python/tcl/zoo.py --out DIR [--models resnet50,mlp,...]
                              [--weights splat|args] [--layers N]
                              [--flavour tcl|torch]

Models: resnet50, resnext50, resnet50_block, mobilenet_v2, bert_base, mlp, resnet18,
vgg16, vit_b16, gpt2, llama_layer (see MODELS), each in both flavours; the
default --models is every model of the chosen flavour.  `--layers N` sets
the number of transformer layers of bert_base, vit_b16 and gpt2 (default
12); the other models have a fixed depth and ignore it.  llama_layer is one
LLaMA decoder layer (HF LlamaDecoderLayer) with TinyLlama-1.1B's sizes, seq
128: RMSNorm before attention and MLP; bias-free Q/K/V/O projections;
rotary position embedding on Q and K, cos/sin tables [128, 64] precomputed
in Python (base 10000) and emitted as literal constants, rotate_half by
extract_slice + negate + concat; grouped-query attention (4 key/value heads
repeated to 32 by a broadcast generic); causal softmax (scores / sqrt(64),
future keys at CAUSAL_MASK_VALUE); SiLU-gated MLP down(silu(gate(x)) * up(x));
two residual adds; 1x128x2048 -> 1x128x2048.  One line per written file
reports the number of convolutions, matmuls and batch_matmuls (and
`flavour=torch` for the torch flavour).

From Python (e.g. tests), with python/tcl on sys.path:
    import zoo
    text = zoo.generate('resnet50_block', weights='args', flavour='torch')
    zoo.MODELS.keys()         # the model names
    zoo.models_for('torch')   # the models that have the torch flavour
"""

import argparse
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Callable

# ---------------------------------------------------------------------------
# Layer tables
# ---------------------------------------------------------------------------

# ResNet-50 v1.5 stages: (blocks, bottleneck width, output channels, stride of
# the first block).  v1.5 puts the stride on the 3x3 conv, not the first 1x1.
RESNET50_STAGES = [
    (3, 64, 256, 1),
    (4, 128, 512, 2),
    (6, 256, 1024, 2),
    (3, 512, 2048, 2),
]
RESNET50_STEM_CHANNELS = 64
# ResNeXt-50 32x4d (torchvision resnext50_32x4d): ResNet-50's stages with
# bottleneck width planes * 4 / 64 * 32 = 2x ResNet-50's, its 3x3 conv in 32 groups.
RESNEXT50_GROUPS = 32
RESNEXT50_WIDTH_FACTOR = 2
# Image shapes are written NHWC; a layer set's `image` puts them in its layout.
IMAGENET_INPUT = (1, 224, 224, 3)
IMAGENET_CLASSES = 1000

# The single block of `resnet50_block`: the first block of stage 1.
RESNET50_BLOCK_INPUT = (1, 56, 56, 64)

# MobileNet-V2 inverted residual settings: (expansion t, output channels c,
# repeats n, stride of the first repeat s), as in the paper / torchvision.
MOBILENET_V2_BLOCKS = [
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
]
MOBILENET_V2_STEM_CHANNELS = 32
MOBILENET_V2_HEAD_CHANNELS = 1280

BERT_BASE = dict(seq=128, hidden=768, heads=12, ffn=3072, layers=12)
LAYER_NORM_EPS = 1e-12

MLP_INPUT = (256, 1024)
MLP_WIDTHS = [1024, 1024, 1024]

# ResNet-18 (torchvision) stages: (BasicBlocks, output channels, stride of the
# first block).  The stem is the same 7x7/2 conv + 3x3/2 max pool as ResNet-50.
RESNET18_STAGES = [
    (2, 64, 1),
    (2, 128, 2),
    (2, 256, 2),
    (2, 512, 2),
]
RESNET18_STEM_CHANNELS = 64

# VGG-16, configuration D of the paper: 3x3 conv widths, 'M' = 2x2/2 max pool.
# At 224x224 the five pools leave 7x7x512, so torchvision's adaptive 7x7
# average pool is the identity and is left out; dropout is inference-only.
VGG16_FEATURES = [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M',
                  512, 512, 512, 'M', 512, 512, 512, 'M']
VGG16_CLASSIFIER = [4096, 4096]   # hidden fc widths (relu), then fc 1000

# ViT-B/16 at 224x224: 16x16 patches -> 14x14 = 196 tokens + the class token.
# Its MLP uses the shared tanh-approximated GELU (ViT's is erf-based: same
# tasks, and math.erf would need more than the upstream lowering above); the
# torch flavour uses erf, as torchvision does.
VIT_B16 = dict(image=224, patch=16, hidden=768, heads=12, mlp=3072, layers=12, eps=1e-6)

# GPT-2 small decoder stack on given hidden states (no token embedding, no LM
# head); 256 tokens, causal attention, layer-norm epsilon of HF's GPT-2.  Q, K
# and V are three 768x768 matmuls in the tcl flavour (TclLayers.qkv), the same
# math as GPT-2's fused 768x2304 c_attn (which the torch flavour emits).
GPT2 = dict(seq=256, hidden=768, heads=12, mlp=3072, layers=12, eps=1e-5)
# Added to masked attention scores before softmax.  Finite (as HF's
# finfo.min) rather than -inf so that an exp approximation that mishandles
# infinities still yields exactly 0.
CAUSAL_MASK_VALUE = -1e9

BATCH_NORM_EPS = 1e-5   # torch.nn.BatchNorm2d's default

# One LLaMA decoder layer with TinyLlama-1.1B's dimensions: grouped-query
# attention (32 query heads share 4 key/value heads), SiLU-gated MLP, RMSNorm,
# rotary position embedding with HF's base.
LLAMA_LAYER = dict(seq=128, hidden=2048, heads=32, kv_heads=4, head_dim=64, ffn=5632,
                   eps=1e-5, rope_base=10000.0)

# ---------------------------------------------------------------------------
# Splat weight policy
# ---------------------------------------------------------------------------

KERNEL_GAIN = 0.9            # output mean ~= gain * input mean (see docstring)
RESIDUAL_BRANCH_GAIN = 0.25  # extra factor on the last conv of a residual branch
BIAS_VALUE = 0.01
GAMMA_VALUE = 1.0
BETA_VALUE = 0.01
EMBEDDING_VALUE = 0.02       # learned embeddings (class token, positions)
RUNNING_MEAN_VALUE = 0.001   # batch-norm running statistics (torch flavour) ...
RUNNING_VAR_VALUE = 1.0      # ... a positive variance, so rsqrt(var + eps) is finite
BUFFER_KINDS = ('mean', 'var')   # fixed splats that take no wobble step
WEIGHT_MODES = ('splat', 'args')
FLAVOURS = ('tcl', 'torch')


def splat_value(kind, index, fan_in=1, gain=1.0):
    """Value of the index-th splat weight of a model.

    The +-5% wobble (5 steps, cycling with index) keeps neighbouring layers
    numerically distinct while the magnitude stays controlled by gain/fan_in.
    Buffers (batch-norm running mean and variance) are fixed values.
    """
    if kind in BUFFER_KINDS:
        return {'mean': RUNNING_MEAN_VALUE, 'var': RUNNING_VAR_VALUE}[kind]
    wobble = 1.0 + 0.025 * ((index * 3) % 5 - 2)
    base = {
        'kernel': gain / fan_in,
        'bias': BIAS_VALUE,
        'gamma': GAMMA_VALUE,
        'beta': BETA_VALUE,
        'embedding': EMBEDDING_VALUE,
    }[kind]
    return base * wobble


# ---------------------------------------------------------------------------
# IR builder
# ---------------------------------------------------------------------------


def tensor_type(shape):
    return 'tensor<' + ''.join(f'{d}x' for d in shape) + 'f32>'


def f32_literal(value):
    """An f32 literal for MLIR: hex for infinities (no decimal spelling exists),
    otherwise 10 significant digits, more than enough to round-trip an f32."""
    if math.isinf(value):
        return '0xFF800000' if value < 0 else '0x7F800000'
    return f'{value:.9e}'


def shape_literal(values):
    return '[' + ', '.join(str(v) for v in values) + ']'


@dataclass(frozen=True)
class Value:
    """An SSA tensor value: its name and static shape (always f32)."""
    name: str
    shape: tuple

    @property
    def type(self):
        return tensor_type(self.shape)


class IRBuilder:
    """Hands out unique SSA names and emits the text of one @forward function.

    Ops are appended in program order to the function body; scalar constants
    are hoisted (and deduplicated) into a prologue so region bodies can use
    them; affine maps get `#mapN` aliases emitted before the function.  Weights
    go either into the body as splat constants or into the signature as
    arguments, depending on the weight mode, which is the only place the two
    modes differ.  It knows nothing of flavours: those are layer sets
    (TclLayers, TorchLayers) emitting through it.
    """

    def __init__(self, weights='splat'):
        if weights not in WEIGHT_MODES:
            raise ValueError(f'unknown weight mode {weights!r}; use one of {WEIGHT_MODES}')
        self.weights = weights
        self.arguments = []      # Values: %input first, then weight arguments
        self._body = []
        self._prologue = []
        self._scalars = {}       # literal -> SSA name
        self._maps = {}          # affine_map text -> alias
        self._names = set()
        self._counter = 0
        self._indent = 1
        self._weight_count = 0

    # -- names and raw emission ---------------------------------------------

    def fresh(self, hint='v'):
        """A new SSA name `%<hint><n>` not used before in this function."""
        while True:
            name = f'%{hint}{self._counter}'
            self._counter += 1
            if name not in self._names:
                self._names.add(name)
                return name

    def _claim(self, name):
        name = '%' + name
        if name in self._names:
            raise ValueError(f'duplicate SSA name {name}')
        self._names.add(name)
        return name

    def emit(self, line):
        self._body.append('  ' * self._indent + line)

    def comment(self, text):
        self.emit('// ' + text)

    def op(self, text, shape, hint):
        """Emit `%r = <text>` and return %r as a Value of the given shape."""
        result = Value(self.fresh(hint), tuple(shape))
        self.emit(f'{result.name} = {text}')
        return result

    def affine_map(self, ndims, dims):
        """Alias of affine_map<(d0..d{ndims-1}) -> (d{dims[0]}, ...)>."""
        text = 'affine_map<({}) -> ({})>'.format(
            ', '.join(f'd{i}' for i in range(ndims)),
            ', '.join(f'd{i}' for i in dims))
        if text not in self._maps:
            self._maps[text] = f'#map{len(self._maps)}'
        return self._maps[text]

    # -- function boundary and weights --------------------------------------

    def argument(self, name, shape):
        value = Value(self._claim(name), tuple(shape))
        self.arguments.append(value)
        return value

    def weight(self, name, shape, kind, fan_in=1, gain=1.0):
        """A weight tensor: a splat constant or the next function argument."""
        index = self._weight_count
        if kind not in BUFFER_KINDS:
            self._weight_count += 1
        if self.weights == 'args':
            return self.argument(name, shape)
        value = Value(self._claim(name), tuple(shape))
        literal = f32_literal(splat_value(kind, index, fan_in, gain))
        self.emit(f'{value.name} = arith.constant dense<{literal}> : {value.type}')
        return value

    def scalar(self, value):
        """An f32 scalar constant, hoisted to the function entry."""
        literal = f32_literal(value)
        if literal not in self._scalars:
            name = self.fresh('cst')
            self._scalars[literal] = name
            self._prologue.append(f'  {name} = arith.constant {literal} : f32')
        return self._scalars[literal]

    def constant(self, shape, value):
        """A splat tensor constant that is no weight (the same in both weight
        modes), hoisted to the function entry and deduplicated like scalars."""
        literal = f'dense<{f32_literal(value)}> : {tensor_type(shape)}'
        if literal not in self._scalars:
            name = self.fresh('cst')
            self._scalars[literal] = name
            self._prologue.append(f'  {name} = arith.constant {literal}')
        return Value(self._scalars[literal], tuple(shape))

    def table(self, name, rows):
        """A named 2-D constant of the given values, one row per line; no
        weight (a fixed table, e.g. rotary cos/sin), so the same in both modes."""
        value = Value(self._claim(name), (len(rows), len(rows[0])))
        self.emit(f'{value.name} = arith.constant dense<[')
        for i, row in enumerate(rows):
            separator = ',' if i + 1 < len(rows) else ''
            self.emit('    [' + ', '.join(f32_literal(v) for v in row) + ']' + separator)
        self.emit(f']> : {value.type}')
        return value

    def finish(self, result, header=''):
        """The complete module text with `result` returned from @forward."""
        lines = [f'// {line}' for line in header.splitlines()]
        lines += [f'{alias} = {text}' for text, alias in self._maps.items()]
        signature = ', '.join(f'{a.name}: {a.type}' for a in self.arguments)
        lines.append(f'func.func @forward({signature}) -> {result.type} {{')
        lines += self._prologue + self._body
        lines.append(f'  return {result.name} : {result.type}')
        lines.append('}')
        return '\n'.join(lines) + '\n'

    # -- scalar ops (inside region bodies) ----------------------------------

    def sop(self, opname, *operands):
        """A scalar f32 op, e.g. sop('arith.addf', a, b) -> name of result."""
        name = self.fresh('s')
        self.emit(f'{name} = {opname} {", ".join(operands)} : f32')
        return name

    def index(self, dim):
        """`linalg.index dim`: the current iteration index of loop `dim` (index type)."""
        name = self.fresh('idx')
        self.emit(f'{name} = linalg.index {dim} : index')
        return name

    def cmpi(self, predicate, lhs, rhs):
        """arith.cmpi on two index values -> name of the i1 result."""
        name = self.fresh('c')
        self.emit(f'{name} = arith.cmpi {predicate}, {lhs}, {rhs} : index')
        return name

    def cmpf(self, predicate, lhs, rhs):
        """arith.cmpf on two f32 values -> name of the i1 result."""
        name = self.fresh('c')
        self.emit(f'{name} = arith.cmpf {predicate}, {lhs}, {rhs} : f32')
        return name

    def select(self, cond, true_value, false_value):
        name = self.fresh('s')
        self.emit(f'{name} = arith.select {cond}, {true_value}, {false_value} : f32')
        return name

    # -- tensor ops ---------------------------------------------------------

    def empty(self, shape):
        return self.op(f'tensor.empty() : {tensor_type(shape)}', shape, 'empty')

    def fill(self, shape, value=0.0):
        """tensor.empty + linalg.fill: the accumulator of a DPS op."""
        init = self.empty(shape)
        return self.op(f'linalg.fill ins({self.scalar(value)} : f32) outs({init.name} : '
                       f'{init.type}) -> {init.type}', shape, 'fill')

    def pad(self, x, low, high, value=0.0):
        """tensor.pad with a constant; returns x itself when nothing to pad."""
        if not any(low) and not any(high):
            return x
        shape = tuple(d + lo + hi for d, lo, hi in zip(x.shape, low, high))
        result = self.op(f'tensor.pad {x.name} low{shape_literal(low)} '
                         f'high{shape_literal(high)} {{', shape, 'pad')
        indices = ', '.join(f'{self.fresh("i")}: index' for _ in x.shape)
        self.emit(f'^bb0({indices}):')
        self.emit(f'  tensor.yield {self.scalar(value)} : f32')
        self.emit(f'}} : {x.type} to {tensor_type(shape)}')
        return result

    def expand_shape(self, x, reassociation, shape):
        return self.op(f'tensor.expand_shape {x.name} {reassociation!r} output_shape '
                       f'{shape_literal(shape)} : {x.type} into {tensor_type(shape)}',
                       shape, 'expanded')

    def collapse_shape(self, x, reassociation):
        shape = tuple(math.prod(x.shape[i] for i in group) for group in reassociation)
        return self.op(f'tensor.collapse_shape {x.name} {reassociation!r} : '
                       f'{x.type} into {tensor_type(shape)}', shape, 'collapsed')

    def extract_slice(self, x, offsets, sizes):
        """Unit-stride static tensor.extract_slice of `sizes` at `offsets`."""
        strides = [1] * len(sizes)
        return self.op(f'tensor.extract_slice {x.name}{shape_literal(offsets)} '
                       f'{shape_literal(sizes)} {shape_literal(strides)} : '
                       f'{x.type} to {tensor_type(sizes)}', sizes, 'slice')

    def insert_slice(self, x, dest, offsets):
        """Unit-stride static tensor.insert_slice of all of x into dest at `offsets`."""
        strides = [1] * len(x.shape)
        return self.op(f'tensor.insert_slice {x.name} into {dest.name}{shape_literal(offsets)} '
                       f'{shape_literal(x.shape)} {shape_literal(strides)} : '
                       f'{x.type} into {dest.type}', dest.shape, 'inserted')

    def concat(self, values, dim):
        """Concatenation along `dim` as insert_slices into a tensor.empty.

        Not tensor.concat: insert_slice bufferizes with the upstream pipeline in
        the module docstring as is, tensor.concat needs a decomposition first.
        """
        shape = list(values[0].shape)
        shape[dim] = sum(v.shape[dim] for v in values)
        result = self.empty(shape)
        offset = 0
        for v in values:
            offsets = [0] * len(shape)
            offsets[dim] = offset
            result = self.insert_slice(v, result, offsets)
            offset += v.shape[dim]
        return result

    def tensor_concat(self, values, dim):
        """tensor.concat along `dim` (what torch-mlir emits for aten.cat; it
        bufferizes with upstream MLIR 22 as is)."""
        shape = list(values[0].shape)
        shape[dim] = sum(v.shape[dim] for v in values)
        return self.op(f'tensor.concat dim({dim}) {", ".join(v.name for v in values)} : '
                       f'({", ".join(v.type for v in values)}) -> {tensor_type(shape)}',
                       shape, 'concat')

    def transpose(self, x, permutation):
        init = self.empty([x.shape[p] for p in permutation])
        return self.op(f'linalg.transpose ins({x.name} : {x.type}) outs({init.name} : '
                       f'{init.type}) permutation = {shape_literal(permutation)}',
                       init.shape, 'transposed')

    def named(self, opname, ins, init, attrs='', hint='r'):
        """A named linalg op in DPS form: `opname {attrs} ins(...) outs(init)`."""
        attrs = f' {{{attrs}}}' if attrs else ''
        names = ', '.join(v.name for v in ins)
        types = ', '.join(v.type for v in ins)
        return self.op(f'{opname}{attrs} ins({names} : {types}) outs({init.name} : '
                       f'{init.type}) -> {init.type}', init.shape, hint)

    def generic(self, ins, in_dims, init, out_dims, iterators, body, hint='t'):
        """A linalg.generic over len(iterators) loops.

        in_dims/out_dims give, per operand, the loop dims that index it (a
        projected permutation, which covers broadcasts and reductions).  body
        is called as body(builder, *input_scalars, output_scalar) inside the
        region and returns the name of the scalar to yield.
        """
        ndims = len(iterators)
        maps = [self.affine_map(ndims, d) for d in list(in_dims) + [out_dims]]
        iters = ', '.join(f'"{it}"' for it in iterators)
        operands = ''
        if ins:
            operands = (f'ins({", ".join(v.name for v in ins)} : '
                        f'{", ".join(v.type for v in ins)}) ')
        result = self.op(f'linalg.generic {{indexing_maps = [{", ".join(maps)}], '
                         f'iterator_types = [{iters}]}} {operands}'
                         f'outs({init.name} : {init.type}) {{', init.shape, hint)
        args = [self.fresh('in') for _ in ins] + [self.fresh('out')]
        self.emit('^bb0(' + ', '.join(f'{a}: f32' for a in args) + '):')
        self._indent += 1
        self.emit(f'linalg.yield {body(self, *args)} : f32')
        self._indent -= 1
        self.emit(f'}} -> {result.type}')
        return result

    def elementwise(self, ins, in_dims, shape, body, hint='t'):
        """All-parallel generic into a tensor.empty of `shape`."""
        rank = len(shape)
        return self.generic(ins, in_dims, self.empty(shape), tuple(range(rank)),
                            ['parallel'] * rank, body, hint)

    def reduction(self, ins, in_dims, shape, out_dims, iterators, init_value, body,
                  hint='red'):
        """Generic with reduction loops into a linalg.fill(init_value) of `shape`."""
        return self.generic(ins, in_dims, self.fill(shape, init_value), out_dims,
                            iterators, body, hint)


# ---------------------------------------------------------------------------
# Layers (the tcl flavour's; the torch flavour reuses those the two agree on)
# ---------------------------------------------------------------------------


def identity_dims(rank):
    return tuple(range(rank))


def map_elementwise(b, x, fn, hint):
    """fn applied to every element of x: one elementwise generic."""
    return b.elementwise([x], [identity_dims(len(x.shape))], x.shape,
                         lambda b, v, out: fn(b, v), hint)


def binary(b, x, y, y_dims, opname, hint):
    """x <opname> y in one elementwise generic; y_dims are the loops that index
    y (y is broadcast along the others)."""
    return b.elementwise([x, y], [identity_dims(len(x.shape)), y_dims], x.shape,
                         lambda b, u, v, out: b.sop(opname, u, v), hint)


def add(b, x, y, hint='add'):
    """x + y (residual add, aten.add.Tensor) as one elementwise generic."""
    return binary(b, x, y, identity_dims(len(x.shape)), 'arith.addf', hint)


def relu(b, x):
    return b.sop('arith.maximumf', x, b.scalar(0.0))


def relu6(b, x):
    """ReLU6 as a clamp: min(max(x, 0), 6)."""
    return b.sop('arith.minimumf', b.sop('arith.maximumf', x, b.scalar(0.0)), b.scalar(6.0))


def gelu_tanh(b, x):
    """GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    x3 = b.sop('arith.mulf', b.sop('arith.mulf', x, x), x)
    inner = b.sop('arith.addf', x, b.sop('arith.mulf', x3, b.scalar(0.044715)))
    t = b.sop('math.tanh', b.sop('arith.mulf', inner, b.scalar(math.sqrt(2.0 / math.pi))))
    half_x = b.sop('arith.mulf', x, b.scalar(0.5))
    return b.sop('arith.mulf', half_x, b.sop('arith.addf', t, b.scalar(1.0)))


ACTIVATIONS = {None: lambda b, x: x, 'relu': relu, 'relu6': relu6, 'gelu': gelu_tanh}


def epilogue(b, x, bias=None, residual=None, act=None):
    """act(x + bias + residual) as ONE elementwise generic.

    This is the post-op of every conv/matmul (bias = folded batch-norm shift
    or linear bias, broadcast along the trailing dims it has).  Keeping it a
    single generic gives each named op exactly one consumer, the usual
    producer/consumer fusion pattern.
    """
    rank = len(x.shape)
    ins, dims = [x], [identity_dims(rank)]
    if bias is not None:
        ins.append(bias)
        dims.append(tuple(range(rank - len(bias.shape), rank)))
    if residual is not None:
        ins.append(residual)
        dims.append(identity_dims(rank))

    def body(b, *args):
        acc = args[0]
        for operand in args[1:-1]:
            acc = b.sop('arith.addf', acc, operand)
        return ACTIVATIONS[act](b, acc)

    return b.elementwise(ins, dims, x.shape, body, hint=act or 'biased')


def conv_attrs(stride, vector=False):
    """Convolution/pooling attributes; vector=True types them vector<2xi64> as torch-mlir does."""
    kind = 'vector' if vector else 'tensor'
    return (f'dilations = dense<1> : {kind}<2xi64>, '
            f'strides = dense<{stride}> : {kind}<2xi64>')


def pad_spatial(b, x, pad, value=0.0):
    """Symmetric NHWC spatial padding (PyTorch-style 'same' for odd kernels)."""
    return b.pad(x, (0, pad, pad, 0), (0, pad, pad, 0), value)


def conv_out(size, kernel, stride, pad):
    return (size + 2 * pad - kernel) // stride + 1


def conv2d(b, x, name, cout, kernel, stride=1, act='relu', residual=None, gain=KERNEL_GAIN,
           pad=None):
    """k x k convolution (NHWC/HWCF) + folded batch-norm bias + act (+ residual).

    pad defaults to kernel // 2 ('same' for odd kernels); patch embeddings
    (kernel == stride, no overlap) pass pad=0.
    """
    n, h, w, cin = x.shape
    pad = kernel // 2 if pad is None else pad
    b.comment(f'{name}: conv {kernel}x{kernel}/{stride} {cin}->{cout}')
    xp = pad_spatial(b, x, pad)
    weight = b.weight(f'{name}_w', (kernel, kernel, cin, cout), 'kernel',
                      fan_in=kernel * kernel * cin, gain=gain)
    bias = b.weight(f'{name}_b', (cout,), 'bias')
    acc = b.fill((n, conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad), cout))
    y = b.named('linalg.conv_2d_nhwc_hwcf', [xp, weight], acc, conv_attrs(stride), 'conv')
    return epilogue(b, y, bias, residual, act)


def grouped_conv2d(b, x, name, cout, kernel, groups, stride=1, act='relu', residual=None,
                   gain=KERNEL_GAIN):
    """k x k grouped convolution (ResNeXt's cardinality): the NHWC input viewed
    as N x H x W x G x C/G, a G x F/G x k x k x C/G weight,
    linalg.conv_2d_nhwgc_gfhwc and its epilogue (a G x F/G bias) on the
    grouped result, which is then collapsed back to N x H x W x F: the
    epilogue is the convolution's direct consumer, so it fuses."""
    n, h, w, cin = x.shape
    pad = kernel // 2
    b.comment(f'{name}: grouped conv {kernel}x{kernel}/{stride} {cin}->{cout}, {groups} groups')
    xp = pad_spatial(b, x, pad)
    _, hp, wp, _ = xp.shape
    xg = b.expand_shape(xp, [[0], [1], [2], [3, 4]], (n, hp, wp, groups, cin // groups))
    weight = b.weight(f'{name}_w', (groups, cout // groups, kernel, kernel, cin // groups),
                      'kernel', fan_in=kernel * kernel * cin // groups, gain=gain)
    bias = b.weight(f'{name}_b', (groups, cout // groups), 'bias')
    ho, wo = conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad)
    acc = b.fill((n, ho, wo, groups, cout // groups))
    y = b.named('linalg.conv_2d_nhwgc_gfhwc', [xg, weight], acc, conv_attrs(stride), 'gconv')
    if residual is not None:
        residual = b.expand_shape(residual, [[0], [1], [2], [3, 4]],
                                  (n, ho, wo, groups, cout // groups))
    return b.collapse_shape(epilogue(b, y, bias, residual, act), [[0], [1], [2], [3, 4]])


def depthwise_conv2d(b, x, name, kernel, stride=1, act='relu6', gain=KERNEL_GAIN):
    """k x k depthwise convolution (NHWC/HWC) + folded batch-norm bias + act."""
    n, h, w, c = x.shape
    pad = kernel // 2
    b.comment(f'{name}: depthwise {kernel}x{kernel}/{stride} {c}')
    xp = pad_spatial(b, x, pad)
    weight = b.weight(f'{name}_w', (kernel, kernel, c), 'kernel', fan_in=kernel * kernel,
                      gain=gain)
    bias = b.weight(f'{name}_b', (c,), 'bias')
    acc = b.fill((n, conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad), c))
    y = b.named('linalg.depthwise_conv_2d_nhwc_hwc', [xp, weight], acc, conv_attrs(stride),
                'dwconv')
    return epilogue(b, y, bias, None, act)


def max_pool(b, x, kernel=3, stride=2, pad=None):
    """Max pool with -inf padding (so padding never wins) via linalg.pooling_nhwc_max.

    pad defaults to kernel // 2 (ResNet's 3x3/2 pool); VGG's 2x2/2 pools tile
    the input exactly and pass pad=0.
    """
    n, h, w, c = x.shape
    pad = kernel // 2 if pad is None else pad
    b.comment(f'maxpool {kernel}x{kernel}/{stride}')
    xp = pad_spatial(b, x, pad, -math.inf)
    window = b.empty((kernel, kernel))
    acc = b.fill((n, conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad), c),
                 -math.inf)
    return b.named('linalg.pooling_nhwc_max', [xp, window], acc, conv_attrs(stride), 'maxpool')


def global_avg_pool(b, x):
    """NHWC -> NC mean over H and W as one reduction generic (sum of x / (H*W))."""
    n, h, w, c = x.shape
    inv = b.scalar(1.0 / (h * w))
    b.comment('global average pool')
    return b.reduction([x], [identity_dims(4)], (n, c), (0, 3),
                       ['parallel', 'reduction', 'reduction', 'parallel'], 0.0,
                       lambda b, v, acc: b.sop('arith.addf', acc, b.sop('arith.mulf', v, inv)),
                       'avgpool')


def dense(b, x, name, n_out, act=None, residual=None, gain=KERNEL_GAIN, bias=True):
    """Linear layer on a 2-D tensor: linalg.matmul (M x K * K x N) + bias + act (+ residual).

    bias=False (LLaMA) drops the bias; with no residual and no act either,
    the matmul has no epilogue.
    """
    m, k = x.shape
    b.comment(f'{name}: matmul {m}x{k} * {k}x{n_out}')
    weight = b.weight(f'{name}_w', (k, n_out), 'kernel', fan_in=k, gain=gain)
    bias = b.weight(f'{name}_b', (n_out,), 'bias') if bias else None
    y = b.named('linalg.matmul', [x, weight], b.fill((m, n_out)), hint='mm')
    if bias is None and residual is None and act is None:
        return y
    return epilogue(b, y, bias, residual, act)


def batch_matmul(b, lhs, rhs):
    batch, m, _ = lhs.shape
    return b.named('linalg.batch_matmul', [lhs, rhs], b.fill((batch, m, rhs.shape[2])),
                   hint='bmm')


def reduce_last(b, ins, in_dims, init_value, body, hint):
    """Reduce over the last loop dim of ins[0]; result has ins[0].shape[:-1]."""
    rank = len(ins[0].shape)
    keep = identity_dims(rank - 1)
    return b.reduction(ins, in_dims, ins[0].shape[:-1], keep,
                       ['parallel'] * (rank - 1) + ['reduction'], init_value, body, hint)


def causal_mask(b, scores):
    """Masks key positions after the query position: scores[h, i, j] for j > i
    become CAUSAL_MASK_VALUE (one elementwise generic using linalg.index)."""
    rank = len(scores.shape)
    masked = b.scalar(CAUSAL_MASK_VALUE)

    def body(b, v, out):
        future = b.cmpi('ugt', b.index(rank - 1), b.index(rank - 2))
        return b.select(future, masked, v)

    return b.elementwise([scores], [identity_dims(rank)], scores.shape, body, 'masked')


def softmax(b, x, scale=1.0):
    """softmax(scale * x) over the last dim: max, exp(scale (x - max)), sum, divide.

    The max subtraction keeps exp from overflowing, as in every real frontend.
    """
    rank = len(x.shape)
    full, rows = identity_dims(rank), identity_dims(rank - 1)
    scale_cst = b.scalar(scale)
    row_max = reduce_last(b, [x], [full], -math.inf,
                          lambda b, v, acc: b.sop('arith.maximumf', v, acc), 'rowmax')
    exps = b.elementwise(
        [x, row_max], [full, rows], x.shape,
        lambda b, v, mx, out: b.sop('math.exp', b.sop('arith.mulf', b.sop('arith.subf', v, mx),
                                                      scale_cst)), 'exp')
    row_sum = reduce_last(b, [exps], [full], 0.0,
                          lambda b, v, acc: b.sop('arith.addf', v, acc), 'rowsum')
    return b.elementwise([exps, row_sum], [full, rows], x.shape,
                         lambda b, e, s, out: b.sop('arith.divf', e, s), 'softmax')


def layer_norm(b, x, name, eps=LAYER_NORM_EPS):
    """LayerNorm over the last dim: mean and variance reductions + one normalize generic."""
    rank = len(x.shape)
    full, rows, last = identity_dims(rank), identity_dims(rank - 1), (rank - 1,)
    width = x.shape[-1]
    inv_n = b.scalar(1.0 / width)
    b.comment(f'{name}: layernorm {width}')
    gamma = b.weight(f'{name}_gamma', (width,), 'gamma')
    beta = b.weight(f'{name}_beta', (width,), 'beta')
    mean = reduce_last(b, [x], [full], 0.0,
                       lambda b, v, acc: b.sop('arith.addf', acc, b.sop('arith.mulf', v, inv_n)),
                       'mean')

    def variance_body(b, v, mu, acc):
        d = b.sop('arith.subf', v, mu)
        return b.sop('arith.addf', acc, b.sop('arith.mulf', b.sop('arith.mulf', d, d), inv_n))

    var = reduce_last(b, [x, mean], [full, rows], 0.0, variance_body, 'var')
    eps_cst = b.scalar(eps)

    def normalize_body(b, v, mu, var, g, beta, out):
        inv_std = b.sop('math.rsqrt', b.sop('arith.addf', var, eps_cst))
        scaled = b.sop('arith.mulf', b.sop('arith.subf', v, mu), inv_std)
        return b.sop('arith.addf', b.sop('arith.mulf', scaled, g), beta)

    return b.elementwise([x, mean, var, gamma, beta], [full, rows, rows, last, last], x.shape,
                         normalize_body, 'layernorm')


# ---------------------------------------------------------------------------
# Layers of the torch flavour: what torch-mlir's torch-backend-to-linalg-on-
# tensors pipeline emits for the PyTorch modules (NCHW, unfused elementwise
# generics, the bias as the named op's init)
# ---------------------------------------------------------------------------


def relu_select(b, x):
    """ReLU as torch-mlir lowers aten.relu: select(x > 0, x, 0)."""
    zero = b.scalar(0.0)
    return b.select(b.cmpf('ugt', x, zero), x, zero)


def clamp_select(b, x, low=0.0, high=6.0):
    """ReLU6 as torch-mlir lowers aten.clamp (hardtanh): two compare + selects."""
    low, high = b.scalar(low), b.scalar(high)
    x = b.select(b.cmpf('ult', x, low), low, x)
    return b.select(b.cmpf('ugt', x, high), high, x)


def gelu_erf(b, x):
    """GELU, exact (aten.gelu approximate='none'): 0.5 x (1 + erf(x / sqrt(2)))."""
    erf = b.sop('math.erf', b.sop('arith.divf', x, b.scalar(math.sqrt(2.0))))
    cdf = b.sop('arith.mulf', b.sop('arith.addf', erf, b.scalar(1.0)), b.scalar(0.5))
    return b.sop('arith.mulf', x, cdf)


def silu(b, x):
    """SiLU x * sigmoid(x), sigmoid as torch-mlir lowers it: 1 / (1 + exp(-x))."""
    e = b.sop('math.exp', b.sop('arith.negf', x))
    sigmoid = b.sop('arith.divf', b.scalar(1.0), b.sop('arith.addf', e, b.scalar(1.0)))
    return b.sop('arith.mulf', x, sigmoid)


TORCH_ACTIVATIONS = {'relu': relu_select, 'relu6': clamp_select, 'gelu': gelu_erf,
                     'gelu_tanh': gelu_tanh, 'silu': silu}


def activation(b, x, act):
    """One elementwise generic applying TORCH_ACTIVATIONS[act]."""
    return map_elementwise(b, x, TORCH_ACTIVATIONS[act], act)


def add_act(b, y, residual=None, act=None, residual_first=True):
    """y + residual (residual + y with residual_first), then act: one generic each."""
    if residual is not None:
        y = add(b, residual, y) if residual_first else add(b, y, residual)
    return activation(b, y, act) if act else y


def mean_last_torch(b, x, hint):
    """aten.mean over the last dim as torch-mlir emits it: a sum-reduction
    generic, then a divide generic."""
    total = reduce_last(b, [x], [identity_dims(len(x.shape))], 0.0,
                        lambda b, v, acc: b.sop('arith.addf', v, acc), 'sum')
    count = b.scalar(float(x.shape[-1]))
    return map_elementwise(b, total, lambda b, v: b.sop('arith.divf', v, count), hint)


def rsqrt_torch(b, x, eps):
    """rsqrt(x + eps) as two generics (aten.add.Scalar, aten.rsqrt)."""
    eps_cst = b.scalar(eps)
    x = map_elementwise(b, x, lambda b, v: b.sop('arith.addf', v, eps_cst), 'plus_eps')
    return map_elementwise(b, x, lambda b, v: b.sop('math.rsqrt', v), 'rsqrt')


def layer_norm_torch(b, x, name, eps=LAYER_NORM_EPS):
    """LayerNorm over the last dim, decomposed as torch-mlir emits
    aten.layer_norm: mean (sum + divide), x - mean, square, variance (sum +
    divide), + eps, rsqrt, normalize, * gamma, + beta: eleven generics."""
    rank = len(x.shape)
    full, rows, last = identity_dims(rank), identity_dims(rank - 1), (rank - 1,)
    b.comment(f'{name}: layernorm {x.shape[-1]}')
    gamma = b.weight(f'{name}_gamma', (x.shape[-1],), 'gamma')
    beta = b.weight(f'{name}_beta', (x.shape[-1],), 'beta')
    centered = binary(b, x, mean_last_torch(b, x, 'mean'), rows, 'arith.subf', 'centered')
    var = mean_last_torch(b, binary(b, centered, centered, full, 'arith.mulf', 'square'), 'var')
    y = binary(b, centered, rsqrt_torch(b, var, eps), rows, 'arith.mulf', 'normalized')
    return binary(b, binary(b, y, gamma, last, 'arith.mulf', 'scaled'), beta, last,
                  'arith.addf', 'layernorm')


def broadcast(b, x, shape, dims):
    """x broadcast into a tensor.empty of `shape` (dims: the loops that index x)
    by a copying generic, as torch-mlir materializes a bias before the named op."""
    rank = len(shape)
    return b.generic([x], [dims], b.empty(shape), identity_dims(rank), ['parallel'] * rank,
                     lambda b, v, out: v, 'broadcast')


def pad_nchw(b, x, pad, value=0.0):
    return b.pad(x, (0, 0, pad, pad), (0, 0, pad, pad), value)


def conv2d_nchw(b, x, name, cout, kernel, stride=1, pad=None, bias=False, gain=KERNEL_GAIN):
    """k x k convolution as torch-mlir emits aten.convolution: NCHW input, FCHW
    weight, `outs` the bias broadcast over N, H, W (bias=True) or a 0.0 fill."""
    n, cin, h, w = x.shape
    pad = kernel // 2 if pad is None else pad
    b.comment(f'{name}: conv {kernel}x{kernel}/{stride} {cin}->{cout}')
    xp = pad_nchw(b, x, pad)
    weight = b.weight(f'{name}_w', (cout, cin, kernel, kernel), 'kernel',
                      fan_in=kernel * kernel * cin, gain=gain)
    shape = (n, cout, conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad))
    if bias:
        init = broadcast(b, b.weight(f'{name}_b', (cout,), 'bias'), shape, (1,))
    else:
        init = b.fill(shape)
    return b.named('linalg.conv_2d_nchw_fchw', [xp, weight], init, conv_attrs(stride, True),
                   'conv')


def grouped_conv2d_nchw(b, x, name, cout, kernel, groups, stride=1, gain=KERNEL_GAIN):
    """k x k grouped convolution as torch-mlir emits aten.convolution with
    groups > 1: the input expanded to N x G x C/G x H x W, the F x C/G x k x k
    weight to G x F/G x C/G x k x k, linalg.conv_2d_ngchw_gfchw on a 0.0 fill,
    the result collapsed back to N x F x H x W."""
    n, cin, h, w = x.shape
    pad = kernel // 2
    b.comment(f'{name}: grouped conv {kernel}x{kernel}/{stride} {cin}->{cout}, {groups} groups')
    xp = pad_nchw(b, x, pad)
    _, _, hp, wp = xp.shape
    xg = b.expand_shape(xp, [[0], [1, 2], [3], [4]], (n, groups, cin // groups, hp, wp))
    weight = b.weight(f'{name}_w', (cout, cin // groups, kernel, kernel), 'kernel',
                      fan_in=kernel * kernel * cin // groups, gain=gain)
    weight = b.expand_shape(weight, [[0, 1], [2], [3], [4]],
                            (groups, cout // groups, cin // groups, kernel, kernel))
    ho, wo = conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad)
    init = b.fill((n, groups, cout // groups, ho, wo))
    y = b.named('linalg.conv_2d_ngchw_gfchw', [xg, weight], init, conv_attrs(stride, True),
                'gconv')
    return b.collapse_shape(y, [[0], [1, 2], [3], [4]])


def depthwise_conv2d_nchw(b, x, name, kernel, stride=1, gain=KERNEL_GAIN):
    """k x k depthwise convolution (groups = channels, bias=False): the C x 1 x k x k
    weight collapsed to C x k x k, linalg.depthwise_conv_2d_nchw_chw on a 0.0 fill."""
    n, c, h, w = x.shape
    pad = kernel // 2
    b.comment(f'{name}: depthwise {kernel}x{kernel}/{stride} {c}')
    xp = pad_nchw(b, x, pad)
    weight = b.weight(f'{name}_w', (c, 1, kernel, kernel), 'kernel', fan_in=kernel * kernel,
                      gain=gain)
    weight = b.collapse_shape(weight, [[0, 1], [2], [3]])
    init = b.fill((n, c, conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad)))
    return b.named('linalg.depthwise_conv_2d_nchw_chw', [xp, weight], init,
                   conv_attrs(stride, True), 'dwconv')


def batch_norm(b, x, name, eps=BATCH_NORM_EPS):
    """Inference batch norm over NCHW channels, not folded into the conv, as
    torch-mlir lowers aten.batch_norm: one generic computing
    (x - mean) * rsqrt(var + eps) * gamma + beta, the four 1-D weights
    (PyTorch's weight, bias, running_mean, running_var) broadcast over N, H, W."""
    c = x.shape[1]
    b.comment(f'{name}: batchnorm {c}')
    params = [b.weight(f'{name}_bn_{p}', (c,), p) for p in ('gamma', 'beta', 'mean', 'var')]
    eps_cst = b.scalar(eps)

    def body(b, v, gamma, beta, mean, var, out):
        inv_std = b.sop('math.rsqrt', b.sop('arith.addf', var, eps_cst))
        normalized = b.sop('arith.mulf', b.sop('arith.subf', v, mean), inv_std)
        return b.sop('arith.addf', b.sop('arith.mulf', normalized, gamma), beta)

    return b.elementwise([x] + params, [identity_dims(4)] + [(1,)] * 4, x.shape, body,
                         'batchnorm')


def max_pool_nchw(b, x, kernel=3, stride=2, pad=None):
    """Max pool as torch-mlir emits aten.max_pool2d: -inf tensor.pad, -inf fill,
    linalg.pooling_nchw_max."""
    n, c, h, w = x.shape
    pad = kernel // 2 if pad is None else pad
    b.comment(f'maxpool {kernel}x{kernel}/{stride}')
    xp = pad_nchw(b, x, pad, -math.inf)
    window = b.empty((kernel, kernel))
    acc = b.fill((n, c, conv_out(h, kernel, stride, pad), conv_out(w, kernel, stride, pad)),
                 -math.inf)
    return b.named('linalg.pooling_nchw_max', [xp, window], acc, conv_attrs(stride, True),
                   'maxpool')


def avg_pool_flatten(b, x):
    """adaptive_avg_pool2d to 1x1 + flatten(1), as torch-mlir emits them: a
    sum-reduction generic over H and W, the keep-dim expand_shape, a divide
    generic, then tensor.collapse_shape to N x C."""
    n, c, h, w = x.shape
    b.comment('adaptive average pool 1x1 + flatten')
    total = b.reduction([x], [identity_dims(4)], (n, c), (0, 1),
                        ['parallel', 'parallel', 'reduction', 'reduction'], 0.0,
                        lambda b, v, acc: b.sop('arith.addf', v, acc), 'sum')
    kept = b.expand_shape(total, [[0], [1, 2, 3]], (n, c, 1, 1))
    count = b.scalar(float(h * w))
    mean = map_elementwise(b, kept, lambda b, v: b.sop('arith.divf', v, count), 'avgpool')
    return b.collapse_shape(mean, [[0], [1, 2, 3]])


def linear(b, x, name, n_out, bias=True, gain=KERNEL_GAIN, transposed=True):
    """Linear layer on a 2-D tensor as torch-mlir emits aten.linear / addmm.

    The weight is stored [out, in] (PyTorch's layout) and transposed by
    linalg.transpose into [in, out]; the matmul's `outs` is the bias row
    broadcast over M (bias=True) or a zero constant `arith.constant dense<0.0>`
    (bias=False, as in the LLaMA export).  transposed=False is HF's Conv1D
    (GPT-2): the weight is stored [in, out] and used as is.
    """
    m, k = x.shape
    b.comment(f'{name}: linear {k}->{n_out}')
    if transposed:
        weight = b.weight(f'{name}_w', (n_out, k), 'kernel', fan_in=k, gain=gain)
        weight = b.transpose(weight, (1, 0))
    else:
        weight = b.weight(f'{name}_w', (k, n_out), 'kernel', fan_in=k, gain=gain)
    if bias:
        init = broadcast(b, b.weight(f'{name}_b', (n_out,), 'bias'), (m, n_out), (1,))
    else:
        init = b.constant((m, n_out), 0.0)
    return b.named('linalg.matmul', [x, weight], init, hint='mm')


def softmax_torch(b, x):
    """softmax over the last dim as torch-mlir decomposes aten._softmax: max
    reduction, subtract, exp, sum reduction, divide (five generics)."""
    rank = len(x.shape)
    full, rows = identity_dims(rank), identity_dims(rank - 1)
    row_max = reduce_last(b, [x], [full], -math.inf,
                          lambda b, v, acc: b.sop('arith.maximumf', v, acc), 'rowmax')
    shifted = b.elementwise([x, row_max], [full, rows], x.shape,
                            lambda b, v, mx, out: b.sop('arith.subf', v, mx), 'shifted')
    exps = map_elementwise(b, shifted, lambda b, v: b.sop('math.exp', v), 'exp')
    row_sum = reduce_last(b, [exps], [full], 0.0,
                          lambda b, v, acc: b.sop('arith.addf', v, acc), 'rowsum')
    return b.elementwise([exps, row_sum], [full, rows], x.shape,
                         lambda b, e, s, out: b.sop('arith.divf', e, s), 'softmax')


# ---------------------------------------------------------------------------
# Flavours: the layer set each network's topology is written against
# ---------------------------------------------------------------------------


class TclLayers:
    """The tcl flavour's layer set: NHWC, every conv/matmul followed by ONE
    epilogue generic (bias, i.e. a folded batch-norm shift or the layer's own
    bias, + residual, activation).

    The blocks and build_* functions below write each network's topology once,
    as calls to a layer set (`f.conv(b, ...)`, `f.dense(b, ...)`, ...);
    TorchLayers has the same methods, so the two flavours differ only in these
    two classes.  Arguments that only the torch flavour reads are ignored
    here: a conv's `bias` (a tcl conv always has one), dense `transposed`
    (weights are always K x N) and `residual_first` (the epilogue sums), qkv's
    `fused` (Q, K and V are always three matmuls).
    """

    max_pool = staticmethod(max_pool)
    global_avg_pool = staticmethod(global_avg_pool)    # NHWC -> N x C
    layer_norm = staticmethod(layer_norm)
    depthwise = staticmethod(depthwise_conv2d)
    concat = staticmethod(IRBuilder.concat)

    def image(self, shape):
        """An image shape, given NHWC, in this flavour's layout: NHWC."""
        return shape

    def channels(self, x):
        return x.shape[-1]

    def conv(self, b, x, name, cout, kernel, stride=1, act='relu', residual=None,
             gain=KERNEL_GAIN, pad=None, bias=False, groups=1):
        if groups > 1:
            return grouped_conv2d(b, x, name, cout, kernel, groups, stride, act, residual, gain)
        return conv2d(b, x, name, cout, kernel, stride, act, residual, gain, pad)

    def residual_block(self, b, x, name, convs, cout, stride):
        """The shortcut first (x or its projection), then the branch, whose last
        conv adds it and applies relu in its epilogue."""
        shortcut = x
        if stride != 1 or x.shape[-1] != cout:
            shortcut = conv2d(b, x, f'{name}_proj', cout, 1, stride, act=None)
        for suffix, width, kernel, s, *groups in convs[:-1]:
            x = self.conv(b, x, f'{name}_{suffix}', width, kernel, s, groups=(groups or [1])[0])
        suffix, width, kernel, s = convs[-1]
        return conv2d(b, x, f'{name}_{suffix}', width, kernel, s, residual=shortcut,
                      gain=KERNEL_GAIN * RESIDUAL_BRANCH_GAIN)

    def dense(self, b, x, name, n_out, act=None, residual=None, gain=KERNEL_GAIN, bias=True,
              transposed=True, residual_first=True):
        """`dense`; its one GELU (tanh approximation, see VIT_B16) serves 'gelu_tanh' too."""
        act = 'gelu' if act == 'gelu_tanh' else act
        return dense(b, x, name, n_out, act, residual, gain, bias)

    def qkv(self, b, x, name, fused=False, transposed=True):
        """Q, K and V of self-attention: three hidden x hidden dense layers (the
        same math as a fused 3*hidden projection)."""
        return [dense(b, x, f'{name}_{p}', x.shape[1]) for p in ('query', 'key', 'value')]

    def attention_probs(self, b, scores, head_dim, causal):
        """The causal mask generic, then softmax with 1/sqrt(head_dim) folded into its exp."""
        return softmax(b, causal_mask(b, scores) if causal else scores,
                       scale=1.0 / math.sqrt(head_dim))

    def tokens(self, b, patches):
        """1 x H x W x C patch embeddings -> (H*W) x C tokens."""
        return b.collapse_shape(patches, [[0, 1, 2], [3]])

    def rms_normalize(self, b, x, weight, eps):
        """A mean-of-squares reduction and one normalize generic."""
        rank = len(x.shape)
        full, rows, last = identity_dims(rank), identity_dims(rank - 1), (rank - 1,)
        inv_n, eps_cst = b.scalar(1.0 / x.shape[-1]), b.scalar(eps)
        mean_square = reduce_last(
            b, [x], [full], 0.0,
            lambda b, v, acc: b.sop('arith.addf', acc,
                                    b.sop('arith.mulf', b.sop('arith.mulf', v, v), inv_n)),
            'meansq')

        def body(b, v, ms, w, out):
            inv_rms = b.sop('math.rsqrt', b.sop('arith.addf', ms, eps_cst))
            return b.sop('arith.mulf', b.sop('arith.mulf', v, inv_rms), w)

        return b.elementwise([x, mean_square, weight], [full, rows, last], x.shape, body,
                             'rmsnorm')

    def swiglu(self, b, gate, up):
        """silu(gate) * up as one generic."""
        full = identity_dims(2)
        return b.elementwise([gate, up], [full, full], gate.shape,
                             lambda b, g, u, out: b.sop('arith.mulf', silu(b, g), u), 'swiglu')


class TorchLayers:
    """The torch flavour's layer set: what torch-mlir emits for the torchvision
    and HF modules (NCHW; Conv2d + unfolded BatchNorm2d; Linear weights
    [out, in] transposed; every activation and residual add its own generic).
    The same methods as TclLayers."""

    max_pool = staticmethod(max_pool_nchw)
    global_avg_pool = staticmethod(avg_pool_flatten)   # NCHW -> N x C
    layer_norm = staticmethod(layer_norm_torch)
    concat = staticmethod(IRBuilder.tensor_concat)

    def image(self, shape):
        """An image shape, given NHWC, in this flavour's layout: NCHW, as torchvision's."""
        n, h, w, c = shape
        return (n, c, h, w)

    def channels(self, x):
        return x.shape[1]

    def conv(self, b, x, name, cout, kernel, stride=1, act='relu', residual=None,
             gain=KERNEL_GAIN, pad=None, bias=False, groups=1):
        """torchvision's Conv2d(bias=False) + BatchNorm2d or, bias=True (VGG, ViT's
        patch embedding), a Conv2d with bias and no batch norm; then + residual, act."""
        if groups > 1:
            y = batch_norm(b, grouped_conv2d_nchw(b, x, name, cout, kernel, groups, stride, gain),
                           name)
        elif bias:
            y = conv2d_nchw(b, x, name, cout, kernel, stride, pad, bias=True, gain=gain)
        else:
            y = batch_norm(b, conv2d_nchw(b, x, name, cout, kernel, stride, pad, gain=gain), name)
        return add_act(b, y, residual, act)

    def depthwise(self, b, x, name, kernel, stride=1, act='relu6', gain=KERNEL_GAIN):
        """Depthwise Conv2d(bias=False) + BatchNorm2d + act."""
        y = batch_norm(b, depthwise_conv2d_nchw(b, x, name, kernel, stride, gain), name)
        return add_act(b, y, act=act)

    def residual_block(self, b, x, name, convs, cout, stride):
        """torchvision's order: the branch (its last conv-bn without relu), then
        the projection if any, then relu(branch + shortcut)."""
        y = x
        for suffix, width, kernel, s, *groups in convs[:-1]:
            y = self.conv(b, y, f'{name}_{suffix}', width, kernel, s, groups=(groups or [1])[0])
        suffix, width, kernel, s = convs[-1]
        y = self.conv(b, y, f'{name}_{suffix}', width, kernel, s, act=None,
                      gain=KERNEL_GAIN * RESIDUAL_BRANCH_GAIN)
        if stride != 1 or x.shape[1] != cout:
            x = self.conv(b, x, f'{name}_proj', cout, 1, stride, act=None)
        return add_act(b, y, x, 'relu', residual_first=False)

    def dense(self, b, x, name, n_out, act=None, residual=None, gain=KERNEL_GAIN, bias=True,
              transposed=True, residual_first=True):
        """`linear`, then + residual (residual_first=False: y + residual, HF BERT's
        order) and act."""
        y = linear(b, x, name, n_out, bias, gain, transposed)
        return add_act(b, y, residual, act, residual_first)

    def qkv(self, b, x, name, fused=False, transposed=True):
        """Q, K and V of self-attention: three Linear layers (BERT) or, fused, one
        S x (3 hidden) projection split by extract_slice: ViT's packed in_proj
        (nn.MultiheadAttention), GPT-2's c_attn (Conv1D, transposed=False)."""
        s, hidden = x.shape
        if not fused:
            return [linear(b, x, f'{name}_{p}', hidden) for p in ('query', 'key', 'value')]
        qkv = linear(b, x, f'{name}_qkv', 3 * hidden, transposed=transposed)
        return [b.extract_slice(qkv, (0, i * hidden), (s, hidden)) for i in range(3)]

    def attention_probs(self, b, scores, head_dim, causal):
        """A generic dividing by sqrt(head_dim), the causal mask, then softmax_torch."""
        root = b.scalar(math.sqrt(head_dim))
        scores = map_elementwise(b, scores, lambda b, v: b.sop('arith.divf', v, root), 'scaled')
        return softmax_torch(b, causal_mask(b, scores) if causal else scores)

    def tokens(self, b, patches):
        """1 x C x H x W patch embeddings -> (H*W) x C tokens: flatten(2), transpose."""
        return b.transpose(b.collapse_shape(patches, [[0, 1], [2, 3]]), (1, 0))

    def rms_normalize(self, b, x, weight, eps):
        """Decomposed as torch-mlir emits it: square, sum, divide, + eps, rsqrt,
        multiply, * weight."""
        rank = len(x.shape)
        full, rows, last = identity_dims(rank), identity_dims(rank - 1), (rank - 1,)
        mean_square = mean_last_torch(b, binary(b, x, x, full, 'arith.mulf', 'square'), 'meansq')
        y = binary(b, x, rsqrt_torch(b, mean_square, eps), rows, 'arith.mulf', 'normalized')
        return binary(b, y, weight, last, 'arith.mulf', 'rmsnorm')

    def swiglu(self, b, gate, up):
        """A silu generic, then a multiply generic."""
        return binary(b, activation(b, gate, 'silu'), up, identity_dims(2), 'arith.mulf', 'mul')


LAYER_SETS = {'tcl': TclLayers(), 'torch': TorchLayers()}


# ---------------------------------------------------------------------------
# Blocks (both flavours, through the layer set f)
# ---------------------------------------------------------------------------


def bottleneck(b, f, x, name, width, cout, stride):
    """ResNet-50 v1.5 bottleneck: 1x1 -> 3x3 (strided) -> 1x1, + x or its 1x1 projection."""
    return f.residual_block(b, x, name, [('conv1', width, 1, 1), ('conv2', width, 3, stride),
                                         ('conv3', cout, 1, 1)], cout, stride)


def resnext_bottleneck(b, f, x, name, width, cout, stride, groups):
    """ResNeXt bottleneck: ResNet-50 v1.5's with a grouped 3x3 conv."""
    return f.residual_block(b, x, name, [('conv1', width, 1, 1),
                                         ('conv2', width, 3, stride, groups),
                                         ('conv3', cout, 1, 1)], cout, stride)


def basic_block(b, f, x, name, cout, stride):
    """ResNet-18/34 BasicBlock: 3x3 (strided) -> 3x3, + x or its 1x1 strided projection."""
    return f.residual_block(b, x, name, [('conv1', cout, 3, stride), ('conv2', cout, 3, 1)],
                            cout, stride)


def inverted_residual(b, f, x, name, expansion, cout, stride):
    """MobileNet-V2 block: [1x1 expand relu6] -> 3x3 depthwise relu6 -> 1x1 linear (+ x)."""
    cin = f.channels(x)
    has_residual = stride == 1 and cin == cout
    y = x
    if expansion != 1:
        y = f.conv(b, y, f'{name}_expand', cin * expansion, 1, act='relu6')
    y = f.depthwise(b, y, f'{name}_dw', 3, stride)
    gain = KERNEL_GAIN * (RESIDUAL_BRANCH_GAIN if has_residual else 1.0)
    return f.conv(b, y, f'{name}_project', cout, 1, act=None,
                  residual=x if has_residual else None, gain=gain)


def classifier(b, f, x, classes=IMAGENET_CLASSES):
    """Global average pool + fully connected layer: image -> 1 x classes logits."""
    return f.dense(b, f.global_avg_pool(b, x), 'fc', classes)


def split_heads(b, x, heads, permutation):
    """S x (H*D) -> S x H x D (expand_shape) -> transposed per `permutation`."""
    s, hidden = x.shape
    expanded = b.expand_shape(x, [[0], [1, 2]], (s, heads, hidden // heads))
    return b.transpose(expanded, permutation)


def attend(b, f, q_heads, k_heads_t, v_heads, causal=False):
    """H x S x D queries, H x D x S keys, H x S x D values -> S x (H*D) context.

    causal=True (decoders) masks each query's future keys before the softmax.
    """
    probs = f.attention_probs(b, batch_matmul(b, q_heads, k_heads_t), q_heads.shape[2], causal)
    merged = b.transpose(batch_matmul(b, probs, v_heads), (1, 0, 2))   # S x H x D
    return b.collapse_shape(merged, [[0], [1, 2]])


def attention(b, f, q, k, v, name, heads, causal=False):
    """Multi-head attention on projected S x hidden Q, K, V, up to (not
    including) the output projection."""
    b.comment(f'{name}: attention, {heads} heads')
    return attend(b, f, split_heads(b, q, heads, (1, 0, 2)), split_heads(b, k, heads, (1, 2, 0)),
                  split_heads(b, v, heads, (1, 0, 2)), causal)


def encoder_layer(b, f, x, name, heads, ffn):
    """BERT post-LN encoder layer (HF BertLayer): LN(x + attn(x) Wo), then LN(h + FFN(h))."""
    hidden = x.shape[1]
    context = attention(b, f, *f.qkv(b, x, f'{name}_attn'), f'{name}_attn', heads)
    h = f.dense(b, context, f'{name}_attn_out', hidden, residual=x, residual_first=False)
    h = f.layer_norm(b, h, f'{name}_ln1')
    m = f.dense(b, h, f'{name}_ffn_in', ffn, act='gelu')
    m = f.dense(b, m, f'{name}_ffn_out', hidden, residual=h, residual_first=False)
    return f.layer_norm(b, m, f'{name}_ln2')


def pre_ln_layer(b, f, x, name, heads, mlp, eps, causal=False, gelu='gelu', transposed=True):
    """Pre-LN transformer layer: h = x + attn(LN(x)) Wo, h + MLP(LN(h)).

    torchvision's ViT EncoderBlock (packed in_proj, exact GELU) or, with
    causal=True, gelu='gelu_tanh', transposed=False, HF's GPT2Block (Conv1D
    c_attn / c_proj / c_fc, gelu_new).  The residual stream is never
    normalized, so the two projections that add into it use the
    RESIDUAL_BRANCH_GAIN policy of residual convolutions (GPT-2 likewise
    scales their initialization down with depth).
    """
    hidden = x.shape[1]
    branch_gain = KERNEL_GAIN * RESIDUAL_BRANCH_GAIN
    q, k, v = f.qkv(b, f.layer_norm(b, x, f'{name}_ln1', eps), f'{name}_attn', fused=True,
                    transposed=transposed)
    context = attention(b, f, q, k, v, f'{name}_attn', heads, causal)
    h = f.dense(b, context, f'{name}_attn_out', hidden, residual=x, gain=branch_gain,
                transposed=transposed)
    m = f.dense(b, f.layer_norm(b, h, f'{name}_ln2', eps), f'{name}_mlp_in', mlp, act=gelu,
                transposed=transposed)
    return f.dense(b, m, f'{name}_mlp_out', hidden, residual=h, gain=branch_gain,
                   transposed=transposed)


# -- LLaMA --------------------------------------------------------------------


def rms_norm(b, f, x, name, eps):
    """RMSNorm over the last dim (HF LlamaRMSNorm): x * rsqrt(mean(x^2) + eps) * weight,
    normalized by f.rms_normalize.

    Both flavours hoist the 1/width and eps constants first (the torch
    flavour divides by width instead and leaves 1/width unused), so their
    prologues keep one order.
    """
    width = x.shape[-1]
    b.scalar(1.0 / width)
    b.scalar(eps)
    b.comment(f'{name}: rmsnorm {width}')
    return f.rms_normalize(b, x, b.weight(f'{name}_w', (width,), 'gamma'), eps)


def rope_tables(seq, head_dim, base):
    """HF LLaMA's rotary cos and sin tables, seq x head_dim:
    angle[s][i] = s * base^(-2 (i mod head_dim/2) / head_dim)."""
    half = head_dim // 2
    inv_freq = [base ** (-2.0 * i / head_dim) for i in range(half)]
    angles = [[s * inv_freq[i % half] for i in range(head_dim)] for s in range(seq)]
    return ([[math.cos(a) for a in row] for row in angles],
            [[math.sin(a) for a in row] for row in angles])


def rotary(b, f, x, cos, sin):
    """x * cos + rotate_half(x) * sin on H x S x D heads (HF apply_rotary_pos_emb).

    rotate_half(x) = cat(-x[..., D/2:], x[..., :D/2]): two extract_slices, a
    negate generic and f.concat (tensor.concat in the torch flavour,
    insert_slices in the tcl flavour); cos and sin (S x D) broadcast over heads.
    """
    h, s, d = x.shape
    x1 = b.extract_slice(x, (0, 0, 0), (h, s, d // 2))
    x2 = b.extract_slice(x, (0, 0, d // 2), (h, s, d // 2))
    negated = map_elementwise(b, x2, lambda b, v: b.sop('arith.negf', v), 'neg')
    rotated = f.concat(b, [negated, x1], 2)

    def body(b, v, r, c, sn, out):
        return b.sop('arith.addf', b.sop('arith.mulf', v, c), b.sop('arith.mulf', r, sn))

    full, table = identity_dims(3), (1, 2)
    return b.elementwise([x, rotated, cos, sin], [full, full, table, table], x.shape, body,
                         'rope')


def repeat_kv(b, x, groups):
    """Grouped-query attention's HF repeat_kv: KV x S x D heads broadcast (a
    generic) to KV x groups x S x D, collapsed to (KV*groups) x S x D."""
    kv, s, d = x.shape
    return b.collapse_shape(broadcast(b, x, (kv, groups, s, d), (0, 2, 3)),
                            [[0, 1], [2], [3]])


def llama_decoder_layer(b, f, x, name, cfg, cos, sin):
    """HF LlamaDecoderLayer on S x hidden: h = x + o(attn(rope(q), rope(k), v))
    on RMSNorm(x), then h + down(silu(gate(n)) * up(n)) with n = RMSNorm(h).
    Its projections are bias-free Linear layers."""
    hidden, heads, kv_heads = cfg['hidden'], cfg['heads'], cfg['kv_heads']
    head_dim, eps = cfg['head_dim'], cfg['eps']
    branch_gain = KERNEL_GAIN * RESIDUAL_BRANCH_GAIN
    h = rms_norm(b, f, x, f'{name}_input_norm', eps)
    q = f.dense(b, h, f'{name}_q_proj', heads * head_dim, bias=False)
    k = f.dense(b, h, f'{name}_k_proj', kv_heads * head_dim, bias=False)
    v = f.dense(b, h, f'{name}_v_proj', kv_heads * head_dim, bias=False)
    b.comment(f'{name}: rotary embedding, attention {heads} query / {kv_heads} key-value heads')
    q_heads = rotary(b, f, split_heads(b, q, heads, (1, 0, 2)), cos, sin)       # H x S x D
    k_heads = rotary(b, f, split_heads(b, k, kv_heads, (1, 0, 2)), cos, sin)    # KV x S x D
    groups = heads // kv_heads
    k_heads_t = b.transpose(repeat_kv(b, k_heads, groups), (0, 2, 1))          # H x D x S
    v_heads = repeat_kv(b, split_heads(b, v, kv_heads, (1, 0, 2)), groups)     # H x S x D
    context = attend(b, f, q_heads, k_heads_t, v_heads, causal=True)
    h = f.dense(b, context, f'{name}_o_proj', hidden, residual=x, gain=branch_gain, bias=False)
    n = rms_norm(b, f, h, f'{name}_post_attention_norm', eps)
    gated = f.swiglu(b, f.dense(b, n, f'{name}_gate_proj', cfg['ffn'], bias=False),
                     f.dense(b, n, f'{name}_up_proj', cfg['ffn'], bias=False))
    return f.dense(b, gated, f'{name}_down_proj', hidden, residual=h, gain=branch_gain,
                   bias=False)


# ---------------------------------------------------------------------------
# Models: build(b, f, layers) emits the network through layer set f
# ---------------------------------------------------------------------------


def build_resnet50(b, f, layers=None):
    x = b.argument('input', f.image(IMAGENET_INPUT))
    y = f.max_pool(b, f.conv(b, x, 'stem', RESNET50_STEM_CHANNELS, 7, 2))
    for stage, (blocks, width, cout, stride) in enumerate(RESNET50_STAGES, 1):
        for block in range(blocks):
            y = bottleneck(b, f, y, f's{stage}b{block}', width, cout, stride if block == 0 else 1)
    return classifier(b, f, y)


def build_resnext50(b, f, layers=None):
    x = b.argument('input', f.image(IMAGENET_INPUT))
    y = f.max_pool(b, f.conv(b, x, 'stem', RESNET50_STEM_CHANNELS, 7, 2))
    for stage, (blocks, width, cout, stride) in enumerate(RESNET50_STAGES, 1):
        for block in range(blocks):
            y = resnext_bottleneck(b, f, y, f's{stage}b{block}', width * RESNEXT50_WIDTH_FACTOR,
                                   cout, stride if block == 0 else 1, RESNEXT50_GROUPS)
    return classifier(b, f, y)


def build_resnet50_block(b, f, layers=None):
    x = b.argument('input', f.image(RESNET50_BLOCK_INPUT))
    _, width, cout, stride = RESNET50_STAGES[0]
    return bottleneck(b, f, x, 's1b0', width, cout, stride)


def build_mobilenet_v2(b, f, layers=None):
    x = b.argument('input', f.image(IMAGENET_INPUT))
    y = f.conv(b, x, 'stem', MOBILENET_V2_STEM_CHANNELS, 3, 2, act='relu6')
    index = 0
    for expansion, cout, repeats, stride in MOBILENET_V2_BLOCKS:
        for r in range(repeats):
            y = inverted_residual(b, f, y, f'b{index}', expansion, cout, stride if r == 0 else 1)
            index += 1
    y = f.conv(b, y, 'head', MOBILENET_V2_HEAD_CHANNELS, 1, act='relu6')
    return classifier(b, f, y)


def build_bert_base(b, f, layers=None):
    cfg = BERT_BASE
    layers = cfg['layers'] if layers is None else layers
    x = b.argument('input', (1, cfg['seq'], cfg['hidden']))
    y = b.collapse_shape(x, [[0, 1], [2]])
    for layer in range(layers):
        y = encoder_layer(b, f, y, f'l{layer}', cfg['heads'], cfg['ffn'])
    return b.expand_shape(y, [[0, 1], [2]], x.shape)


def build_mlp(b, f, layers=None):
    y = b.argument('input', MLP_INPUT)
    for layer, width in enumerate(MLP_WIDTHS):
        y = f.dense(b, y, f'fc{layer}', width, act='relu')
    return y


def build_resnet18(b, f, layers=None):
    x = b.argument('input', f.image(IMAGENET_INPUT))
    y = f.max_pool(b, f.conv(b, x, 'stem', RESNET18_STEM_CHANNELS, 7, 2))
    for stage, (blocks, cout, stride) in enumerate(RESNET18_STAGES, 1):
        for block in range(blocks):
            y = basic_block(b, f, y, f's{stage}b{block}', cout, stride if block == 0 else 1)
    return classifier(b, f, y)


def build_vgg16(b, f, layers=None):
    """torchvision vgg16: no batch norm, so its convs have bias=True."""
    y = b.argument('input', f.image(IMAGENET_INPUT))
    block, conv = 1, 1    # conv{block}_{conv}, as in the paper
    for item in VGG16_FEATURES:
        if item == 'M':
            y = f.max_pool(b, y, 2, 2, pad=0)
            block, conv = block + 1, 1
        else:
            y = f.conv(b, y, f'conv{block}_{conv}', item, 3, bias=True)
            conv += 1
    # Flattened in the flavour's layout (the tcl flavour's NHWC flatten with a
    # matching weight layout computes torchvision's NCHW one).
    y = b.collapse_shape(y, [[0], [1, 2, 3]])
    for index, width in enumerate(VGG16_CLASSIFIER):
        y = f.dense(b, y, f'fc{index}', width, act='relu')
    return f.dense(b, y, f'fc{len(VGG16_CLASSIFIER)}', IMAGENET_CLASSES)


def build_vit_b16(b, f, layers=None):
    cfg = VIT_B16
    layers = cfg['layers'] if layers is None else layers
    hidden, patch = cfg['hidden'], cfg['patch']
    x = b.argument('input', f.image((1, cfg['image'], cfg['image'], 3)))
    patches = f.conv(b, x, 'patch_embed', hidden, patch, patch, act=None, pad=0, bias=True)
    tokens = f.tokens(b, patches)                                 # 196 x hidden
    b.comment('class token + position embeddings')
    cls = b.weight('cls_token', (1, hidden), 'embedding')
    y = f.concat(b, [cls, tokens], 0)                             # 197 x hidden
    y = add(b, y, b.weight('pos_embed', y.shape, 'embedding'), 'embedded')
    for layer in range(layers):
        y = pre_ln_layer(b, f, y, f'l{layer}', cfg['heads'], cfg['mlp'], cfg['eps'])
    y = f.layer_norm(b, y, 'ln_final', cfg['eps'])
    return f.dense(b, b.extract_slice(y, (0, 0), (1, hidden)), 'head', IMAGENET_CLASSES)


def build_gpt2(b, f, layers=None):
    cfg = GPT2
    layers = cfg['layers'] if layers is None else layers
    x = b.argument('input', (1, cfg['seq'], cfg['hidden']))
    y = b.collapse_shape(x, [[0, 1], [2]])
    for layer in range(layers):
        y = pre_ln_layer(b, f, y, f'l{layer}', cfg['heads'], cfg['mlp'], cfg['eps'],
                         causal=True, gelu='gelu_tanh', transposed=False)
    y = f.layer_norm(b, y, 'ln_f', cfg['eps'])
    return b.expand_shape(y, [[0, 1], [2]], x.shape)


def build_llama_layer(b, f, layers=None, cfg=LLAMA_LAYER):
    x = b.argument('input', (1, cfg['seq'], cfg['hidden']))
    y = b.collapse_shape(x, [[0, 1], [2]])
    b.comment(f'rotary tables, base {cfg["rope_base"]:g}')
    cos, sin = (b.table(f'rope_{kind}', table) for kind, table in
                zip(('cos', 'sin'), rope_tables(cfg['seq'], cfg['head_dim'], cfg['rope_base'])))
    y = llama_decoder_layer(b, f, y, 'l0', cfg, cos, sin)
    return b.expand_shape(y, [[0, 1], [2]], x.shape)


@dataclass(frozen=True)
class ModelSpec:
    build: Callable        # build(b, f, layers) -> the result Value
    descriptions: dict     # flavour -> one line; the model has exactly these flavours
    uses_layers: bool = False

    def describe(self, flavour):
        return self.descriptions[flavour]


MODELS = {
    'resnet50': ModelSpec(build_resnet50, {
        'tcl': 'ResNet-50 v1.5, NHWC 1x224x224x3 -> 1x1000',
        'torch': 'torchvision resnet50, NCHW 1x3x224x224 -> 1x1000'}),
    'resnext50': ModelSpec(build_resnext50, {
        'tcl': 'ResNeXt-50 32x4d, NHWC 1x224x224x3 -> 1x1000',
        'torch': 'torchvision resnext50_32x4d, NCHW 1x3x224x224 -> 1x1000'}),
    'resnet50_block': ModelSpec(build_resnet50_block, {
        'tcl': 'one ResNet-50 bottleneck block, 1x56x56x64 -> 1x56x56x256',
        'torch': 'one torchvision resnet50 Bottleneck, NCHW 1x64x56x56 -> 1x256x56x56'}),
    'mobilenet_v2': ModelSpec(build_mobilenet_v2, {
        'tcl': 'MobileNet-V2, NHWC 1x224x224x3 -> 1x1000',
        'torch': 'torchvision mobilenet_v2, NCHW 1x3x224x224 -> 1x1000'}),
    'bert_base': ModelSpec(build_bert_base, {
        'tcl': 'BERT-base encoder, 1x128x768 -> 1x128x768',
        'torch': 'HF BERT-base encoder, 1x128x768 -> 1x128x768'}, uses_layers=True),
    'mlp': ModelSpec(build_mlp, {
        'tcl': '3 x (256x1024 * 1024x1024 + bias + relu)',
        'torch': '3 x (nn.Linear(1024, 1024) + relu), 256x1024 -> 256x1024'}),
    'resnet18': ModelSpec(build_resnet18, {
        'tcl': 'ResNet-18, NHWC 1x224x224x3 -> 1x1000',
        'torch': 'torchvision resnet18, NCHW 1x3x224x224 -> 1x1000'}),
    'vgg16': ModelSpec(build_vgg16, {
        'tcl': 'VGG-16 (configuration D), NHWC 1x224x224x3 -> 1x1000',
        'torch': 'torchvision vgg16, NCHW 1x3x224x224 -> 1x1000'}),
    'vit_b16': ModelSpec(build_vit_b16, {
        'tcl': 'ViT-B/16 encoder + head, NHWC 1x224x224x3 -> 1x1000',
        'torch': 'torchvision vit_b_16, NCHW 1x3x224x224 -> 1x1000'}, uses_layers=True),
    'gpt2': ModelSpec(build_gpt2, {
        'tcl': 'GPT-2 small decoder stack (causal), 1x256x768 -> 1x256x768',
        'torch': 'HF GPT-2 small decoder stack (causal), 1x256x768 -> 1x256x768'},
        uses_layers=True),
    'llama_layer': ModelSpec(build_llama_layer, {
        'tcl': 'one LLaMA decoder layer (TinyLlama-1.1B sizes), 1x128x2048 -> 1x128x2048',
        'torch': 'one HF LlamaDecoderLayer (TinyLlama-1.1B sizes), 1x128x2048 -> 1x128x2048'}),
}


def models_for(flavour):
    """The names of the models that have the given flavour, in MODELS order."""
    return [name for name, spec in MODELS.items() if flavour in spec.descriptions]


def generate(name, weights='splat', layers=None, flavour='tcl'):
    """The MLIR text of model `name` (see MODELS) with the given weight mode and flavour."""
    if flavour not in FLAVOURS:
        raise ValueError(f'unknown flavour {flavour!r}; use one of {FLAVOURS}')
    if name not in MODELS:
        raise ValueError(f'unknown model {name!r}; known: {", ".join(MODELS)}')
    if layers is not None and layers < 1:
        raise ValueError('layers must be >= 1')
    spec = MODELS[name]
    if flavour not in spec.descriptions:
        raise ValueError(f'model {name!r} has no {flavour} flavour; '
                         f'the {flavour} flavour has: {", ".join(models_for(flavour))}')
    b = IRBuilder(weights)
    result = spec.build(b, LAYER_SETS[flavour], layers)
    option = '' if flavour == 'tcl' else f' --flavour {flavour}'
    header = (f'{name}: {spec.describe(flavour)}\n'
              f'Generated by python/tcl/zoo.py{option} --weights {weights}')
    if spec.uses_layers and layers is not None:
        header += f' --layers {layers}'
    return b.finish(result, header)


COUNTED_OPS = {
    'conv': r'linalg\.conv_2d\w*',
    'depthwise': r'linalg\.depthwise_conv_2d\w*',
    'matmul': r'linalg\.matmul',
    'batch_matmul': r'linalg\.batch_matmul',
    'generic': r'linalg\.generic',
}


def op_counts(text):
    """Number of each op kind in COUNTED_OPS (counted as defining ops `= op`)."""
    return {kind: len(re.findall(r'= ' + pattern + r'\b', text))
            for kind, pattern in COUNTED_OPS.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--out', help='output directory (created if missing)')
    parser.add_argument('--models', default=None,
                        help='comma-separated model names (default: all of the flavour)')
    parser.add_argument('--weights', choices=WEIGHT_MODES, default='splat')
    parser.add_argument('--flavour', choices=FLAVOURS, default='tcl',
                        help='IR style: tcl (NHWC, fused epilogues) or torch (as torch-mlir '
                             'emits the PyTorch modules); default tcl')
    parser.add_argument('--layers', type=int, default=None,
                        help='transformer layers of bert_base, vit_b16 and gpt2 (default 12)')
    parser.add_argument('--list', action='store_true', help='print the model names, one per line, and exit')
    args = parser.parse_args(argv)

    flavoured = models_for(args.flavour)
    if args.list:
        for name in flavoured:
            print(name)
        return 0
    if not args.out:
        parser.error('--out is required (or use --list)')
    names = flavoured if args.models is None else [n for n in args.models.split(',') if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f'unknown model(s): {", ".join(unknown)}; known: {", ".join(MODELS)}')
    missing = [n for n in names if n not in flavoured]
    if missing:
        parser.error(f'no {args.flavour} flavour for model(s): {", ".join(missing)}; '
                     f'the {args.flavour} flavour has: {", ".join(flavoured)}')
    if args.layers is not None and args.layers < 1:
        parser.error('--layers must be >= 1')

    os.makedirs(args.out, exist_ok=True)
    for name in names:
        text = generate(name, args.weights, args.layers, args.flavour)
        path = os.path.join(args.out, f'{name}.mlir')
        with open(path, 'w') as f:
            f.write(text)
        counts = op_counts(text)
        print(f'{path}: conv={counts["conv"]} depthwise={counts["depthwise"]} '
              f'matmul={counts["matmul"]} batch_matmul={counts["batch_matmul"]} '
              f'generic={counts["generic"]} weights={args.weights}'
              + ('' if args.flavour == 'tcl' else f' flavour={args.flavour}'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
