#!/usr/bin/python3
r"""Model zoo: writes runnable linalg-on-tensors MLIR for a few standard networks.

Why this exists: tcl needs realistic whole-network inputs (to extract tuning
tasks, to run end to end, to test against) that parse with the MLIR it is built
against (LLVM 22), carry no frontend-specific dialects (no torch, no
ml_program, no dense_resource blobs) and can be regenerated at any size.  Every
network is described by a small layer table below and emitted through one
`IRBuilder`, so all models share the same layer functions.

Output contract (every model):
  * exactly one public function
        func.func @forward(%input: tensor<...>[, weights...]) -> tensor<...>
    using only the func, arith, math, linalg and tensor dialects, fp32, batch 1;
  * convolutions and matmuls are named linalg ops in destination-passing style:
    `tensor.empty` + `linalg.fill` (0.0) gives the `outs` accumulator; padding is
    an explicit `tensor.pad`; bias / folded batch-norm, activations and residual
    adds are one elementwise `linalg.generic` after each named op;
  * weights (`--weights`):
      splat  every weight is `arith.constant dense<V> : tensor<...>` (default);
      args   every weight is an extra argument of @forward after %input, in a
             fixed order (program order; kernel before bias), so a runner can
             feed its own (e.g. random) values.

Splat value policy (why the numbers look the way they do): a splat kernel makes
every output element a scaled sum over its receptive field, so with
V = gain / fan_in a layer maps a mean activation m to about gain * m.  Gains are
slightly below 1 and "wobble" by +-5% per weight so that no two consecutive
layers are identical (a constant-folding or CSE bug then shows up as a wrong
number rather than being hidden).  The last convolution of a residual branch
uses gain * RESIDUAL_BRANCH_GAIN (like zero-init-residual / Fixup), so the
residual stream grows by only about 1.2x per block instead of about 2x; the
pre-LN transformers (ViT, GPT-2), whose residual stream is never normalized,
apply the same factor to the two projections that add into it.  Biases
(folded batch-norm shifts) are about 0.01, layer-norm gammas about 1 and betas
about 0.01, learned embeddings (ViT's class token and positions) about 0.02.
Every model then stays far from inf/nan; measured outputs for
deterministic inputs in [-1, 1] (splat weights make all output channels
equal): ResNet-50 logits ~1.16, MobileNet-V2 ~0.20, one ResNet-50
block <= 0.07, MLP ~0.03, 12-layer BERT outputs within [-1.4, 1.4],
ResNet-18 logits ~0.28, VGG-16 ~0.088, 12-layer ViT-B/16 ~0.022 (its splat
patch embedding makes every token's channels equal, so each layer norm
returns beta), 12-layer GPT-2 outputs within [-1.8, 1.9].

Lowering: every model bufferizes and lowers to the LLVM dialect with upstream
passes only, e.g.
    mlir-opt FILE --one-shot-bufferize="bufferize-function-boundaries" \
      --convert-linalg-to-loops --lower-affine --convert-scf-to-cf \
      --expand-strided-metadata --finalize-memref-to-llvm --convert-math-to-llvm \
      --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm \
      --reconcile-unrealized-casts

Usage:
    python3 python/tcl/zoo.py --list
    python3 python/tcl/zoo.py --out DIR [--models resnet50,mlp,...]
                              [--weights splat|args] [--layers N]

Models: resnet50, resnet50_block, mobilenet_v2, bert_base, mlp, resnet18,
vgg16, vit_b16, gpt2 (see MODELS).  `--layers N` sets the number of
transformer layers of bert_base, vit_b16 and gpt2 (default 12); the other
models have a fixed depth and ignore it.  One line per written file
reports the number of convolutions, matmuls and batch_matmuls.

From Python (e.g. tests), with python/tcl on sys.path:
    import zoo
    text = zoo.generate('resnet50_block', weights='args')
    zoo.MODELS.keys()   # the model names
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
# tasks, and math.erf would need more than the upstream lowering above).
VIT_B16 = dict(image=224, patch=16, hidden=768, heads=12, mlp=3072, layers=12, eps=1e-6)

# GPT-2 small decoder stack on given hidden states (no token embedding, no LM
# head); 256 tokens, causal attention, layer-norm epsilon of HF's GPT-2.  Q, K
# and V are three 768x768 matmuls (the shared self_attention), the same math
# as GPT-2's fused 768x2304 c_attn.
GPT2 = dict(seq=256, hidden=768, heads=12, mlp=3072, layers=12, eps=1e-5)
# Added to masked attention scores before softmax.  Finite (as HF's
# finfo.min) rather than -inf so that an exp approximation that mishandles
# infinities still yields exactly 0.
CAUSAL_MASK_VALUE = -1e9

# ---------------------------------------------------------------------------
# Splat weight policy
# ---------------------------------------------------------------------------

KERNEL_GAIN = 0.9            # output mean ~= gain * input mean (see docstring)
RESIDUAL_BRANCH_GAIN = 0.25  # extra factor on the last conv of a residual branch
BIAS_VALUE = 0.01
GAMMA_VALUE = 1.0
BETA_VALUE = 0.01
EMBEDDING_VALUE = 0.02       # learned embeddings (class token, positions)
WEIGHT_MODES = ('splat', 'args')


def splat_value(kind, index, fan_in=1, gain=1.0):
    """Value of the index-th splat weight of a model.

    The +-5% wobble (5 steps, cycling with index) keeps neighbouring layers
    numerically distinct while the magnitude stays controlled by gain/fan_in.
    """
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
    modes differ.
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
# Layers (shared by all models)
# ---------------------------------------------------------------------------


def identity_dims(rank):
    return tuple(range(rank))


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
    or linear bias, broadcast along the last dim).  Keeping it a single
    generic gives each named op exactly one consumer, the usual
    producer/consumer fusion pattern.
    """
    rank = len(x.shape)
    ins, dims = [x], [identity_dims(rank)]
    if bias is not None:
        ins.append(bias)
        dims.append((rank - 1,))
    if residual is not None:
        ins.append(residual)
        dims.append(identity_dims(rank))

    def body(b, *args):
        acc = args[0]
        for operand in args[1:-1]:
            acc = b.sop('arith.addf', acc, operand)
        return ACTIVATIONS[act](b, acc)

    return b.elementwise(ins, dims, x.shape, body, hint=act or 'biased')


def conv_attrs(stride):
    return (f'dilations = dense<1> : tensor<2xi64>, '
            f'strides = dense<{stride}> : tensor<2xi64>')


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


def dense(b, x, name, n_out, act=None, residual=None, gain=KERNEL_GAIN):
    """Linear layer on a 2-D tensor: linalg.matmul (M x K * K x N) + bias + act (+ residual)."""
    m, k = x.shape
    b.comment(f'{name}: matmul {m}x{k} * {k}x{n_out}')
    weight = b.weight(f'{name}_w', (k, n_out), 'kernel', fan_in=k, gain=gain)
    bias = b.weight(f'{name}_b', (n_out,), 'bias')
    y = b.named('linalg.matmul', [x, weight], b.fill((m, n_out)), hint='mm')
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
# Blocks
# ---------------------------------------------------------------------------


def bottleneck(b, x, name, width, cout, stride):
    """ResNet-50 v1.5 bottleneck: 1x1 -> 3x3 (strided) -> 1x1, + projection if needed."""
    shortcut = x
    if stride != 1 or x.shape[-1] != cout:
        shortcut = conv2d(b, x, f'{name}_proj', cout, 1, stride, act=None)
    y = conv2d(b, x, f'{name}_conv1', width, 1)
    y = conv2d(b, y, f'{name}_conv2', width, 3, stride)
    return conv2d(b, y, f'{name}_conv3', cout, 1, act='relu', residual=shortcut,
                  gain=KERNEL_GAIN * RESIDUAL_BRANCH_GAIN)


def basic_block(b, x, name, cout, stride):
    """ResNet-18/34 BasicBlock: 3x3 (strided) -> 3x3, + 1x1 strided projection if needed."""
    shortcut = x
    if stride != 1 or x.shape[-1] != cout:
        shortcut = conv2d(b, x, f'{name}_proj', cout, 1, stride, act=None)
    y = conv2d(b, x, f'{name}_conv1', cout, 3, stride)
    return conv2d(b, y, f'{name}_conv2', cout, 3, act='relu', residual=shortcut,
                  gain=KERNEL_GAIN * RESIDUAL_BRANCH_GAIN)


def inverted_residual(b, x, name, expansion, cout, stride):
    """MobileNet-V2 block: [1x1 expand relu6] -> 3x3 depthwise relu6 -> 1x1 linear (+ x)."""
    cin = x.shape[-1]
    has_residual = stride == 1 and cin == cout
    y = x
    if expansion != 1:
        y = conv2d(b, y, f'{name}_expand', cin * expansion, 1, act='relu6')
    y = depthwise_conv2d(b, y, f'{name}_dw', 3, stride)
    gain = KERNEL_GAIN * (RESIDUAL_BRANCH_GAIN if has_residual else 1.0)
    return conv2d(b, y, f'{name}_project', cout, 1, act=None,
                  residual=x if has_residual else None, gain=gain)


def classifier(b, x, classes=IMAGENET_CLASSES):
    """Global average pool + fully connected layer: NHWC -> 1 x classes logits."""
    return dense(b, global_avg_pool(b, x), 'fc', classes)


def split_heads(b, x, heads, permutation):
    """S x (H*D) -> S x H x D (expand_shape) -> transposed per `permutation`."""
    s, hidden = x.shape
    expanded = b.expand_shape(x, [[0], [1, 2]], (s, heads, hidden // heads))
    return b.transpose(expanded, permutation)


def self_attention(b, x, name, heads, causal=False):
    """Multi-head self-attention up to (not including) the output projection.

    causal=True (decoders) masks each query's future keys before the softmax.
    """
    s, hidden = x.shape
    q = dense(b, x, f'{name}_query', hidden)
    k = dense(b, x, f'{name}_key', hidden)
    v = dense(b, x, f'{name}_value', hidden)
    b.comment(f'{name}: attention, {heads} heads')
    q_heads = split_heads(b, q, heads, (1, 0, 2))    # H x S x D
    k_heads_t = split_heads(b, k, heads, (1, 2, 0))  # H x D x S
    v_heads = split_heads(b, v, heads, (1, 0, 2))    # H x S x D
    scores = batch_matmul(b, q_heads, k_heads_t)     # H x S x S
    if causal:
        scores = causal_mask(b, scores)
    probs = softmax(b, scores, scale=1.0 / math.sqrt(hidden // heads))
    context = batch_matmul(b, probs, v_heads)        # H x S x D
    merged = b.transpose(context, (1, 0, 2))         # S x H x D
    return b.collapse_shape(merged, [[0], [1, 2]])


def encoder_layer(b, x, name, heads, ffn):
    """BERT post-LN encoder layer: LN(x + attn(x) Wo), then LN(h + FFN(h))."""
    hidden = x.shape[1]
    attention = self_attention(b, x, f'{name}_attn', heads)
    h = dense(b, attention, f'{name}_attn_out', hidden, residual=x)
    h = layer_norm(b, h, f'{name}_ln1')
    f = dense(b, h, f'{name}_ffn_in', ffn, act='gelu')
    f = dense(b, f, f'{name}_ffn_out', hidden, residual=h)
    return layer_norm(b, f, f'{name}_ln2')


def pre_ln_encoder_layer(b, x, name, heads, mlp, eps=LAYER_NORM_EPS, causal=False):
    """Pre-LN transformer layer (ViT, GPT-2): h = x + attn(LN(x)) Wo, h + MLP(LN(h)).

    The residual stream is never normalized, so the two projections that add
    into it use the RESIDUAL_BRANCH_GAIN policy of residual convolutions (GPT-2
    likewise scales their initialization down with depth).
    """
    hidden = x.shape[1]
    branch_gain = KERNEL_GAIN * RESIDUAL_BRANCH_GAIN
    attention = self_attention(b, layer_norm(b, x, f'{name}_ln1', eps), f'{name}_attn', heads,
                               causal)
    h = dense(b, attention, f'{name}_attn_out', hidden, residual=x, gain=branch_gain)
    f = dense(b, layer_norm(b, h, f'{name}_ln2', eps), f'{name}_mlp_in', mlp, act='gelu')
    return dense(b, f, f'{name}_mlp_out', hidden, residual=h, gain=branch_gain)


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------


def build_resnet50(b, layers=None):
    x = b.argument('input', IMAGENET_INPUT)
    y = conv2d(b, x, 'stem', RESNET50_STEM_CHANNELS, 7, 2)
    y = max_pool(b, y)
    for stage, (blocks, width, cout, stride) in enumerate(RESNET50_STAGES, 1):
        for block in range(blocks):
            y = bottleneck(b, y, f's{stage}b{block}', width, cout, stride if block == 0 else 1)
    return classifier(b, y)


def build_resnet50_block(b, layers=None):
    x = b.argument('input', RESNET50_BLOCK_INPUT)
    _, width, cout, stride = RESNET50_STAGES[0]
    return bottleneck(b, x, 's1b0', width, cout, stride)


def build_mobilenet_v2(b, layers=None):
    x = b.argument('input', IMAGENET_INPUT)
    y = conv2d(b, x, 'stem', MOBILENET_V2_STEM_CHANNELS, 3, 2, act='relu6')
    index = 0
    for expansion, cout, repeats, stride in MOBILENET_V2_BLOCKS:
        for r in range(repeats):
            y = inverted_residual(b, y, f'b{index}', expansion, cout, stride if r == 0 else 1)
            index += 1
    y = conv2d(b, y, 'head', MOBILENET_V2_HEAD_CHANNELS, 1, act='relu6')
    return classifier(b, y)


def build_bert_base(b, layers=None):
    cfg = BERT_BASE
    layers = cfg['layers'] if layers is None else layers
    x = b.argument('input', (1, cfg['seq'], cfg['hidden']))
    y = b.collapse_shape(x, [[0, 1], [2]])
    for layer in range(layers):
        y = encoder_layer(b, y, f'l{layer}', cfg['heads'], cfg['ffn'])
    return b.expand_shape(y, [[0, 1], [2]], x.shape)


def build_mlp(b, layers=None):
    y = b.argument('input', MLP_INPUT)
    for layer, width in enumerate(MLP_WIDTHS):
        y = dense(b, y, f'fc{layer}', width, act='relu')
    return y


def build_resnet18(b, layers=None):
    x = b.argument('input', IMAGENET_INPUT)
    y = conv2d(b, x, 'stem', RESNET18_STEM_CHANNELS, 7, 2)
    y = max_pool(b, y)
    for stage, (blocks, cout, stride) in enumerate(RESNET18_STAGES, 1):
        for block in range(blocks):
            y = basic_block(b, y, f's{stage}b{block}', cout, stride if block == 0 else 1)
    return classifier(b, y)


def build_vgg16(b, layers=None):
    y = b.argument('input', IMAGENET_INPUT)
    block, conv = 1, 1    # conv{block}_{conv}, as in the paper
    for item in VGG16_FEATURES:
        if item == 'M':
            y = max_pool(b, y, 2, 2, pad=0)
            block, conv = block + 1, 1
        else:
            y = conv2d(b, y, f'conv{block}_{conv}', item, 3)
            conv += 1
    # NHWC flatten (torchvision flattens NCHW; with a matching weight layout
    # the classifier computes the same function).
    y = b.collapse_shape(y, [[0], [1, 2, 3]])
    for index, width in enumerate(VGG16_CLASSIFIER):
        y = dense(b, y, f'fc{index}', width, act='relu')
    return dense(b, y, f'fc{len(VGG16_CLASSIFIER)}', IMAGENET_CLASSES)


def build_vit_b16(b, layers=None):
    cfg = VIT_B16
    layers = cfg['layers'] if layers is None else layers
    hidden, patch = cfg['hidden'], cfg['patch']
    x = b.argument('input', (1, cfg['image'], cfg['image'], 3))
    patches = conv2d(b, x, 'patch_embed', hidden, patch, patch, act=None, pad=0)
    tokens = b.collapse_shape(patches, [[0, 1, 2], [3]])          # 196 x hidden
    b.comment('class token + position embeddings')
    cls = b.weight('cls_token', (1, hidden), 'embedding')
    y = b.concat([cls, tokens], 0)                                # 197 x hidden
    positions = b.weight('pos_embed', y.shape, 'embedding')
    y = b.elementwise([y, positions], [(0, 1), (0, 1)], y.shape,
                      lambda b, v, p, out: b.sop('arith.addf', v, p), 'embedded')
    for layer in range(layers):
        y = pre_ln_encoder_layer(b, y, f'l{layer}', cfg['heads'], cfg['mlp'], cfg['eps'])
    y = layer_norm(b, y, 'ln_final', cfg['eps'])
    return dense(b, b.extract_slice(y, (0, 0), (1, hidden)), 'head', IMAGENET_CLASSES)


def build_gpt2(b, layers=None):
    cfg = GPT2
    layers = cfg['layers'] if layers is None else layers
    x = b.argument('input', (1, cfg['seq'], cfg['hidden']))
    y = b.collapse_shape(x, [[0, 1], [2]])
    for layer in range(layers):
        y = pre_ln_encoder_layer(b, y, f'l{layer}', cfg['heads'], cfg['mlp'], cfg['eps'],
                                 causal=True)
    y = layer_norm(b, y, 'ln_f', cfg['eps'])
    return b.expand_shape(y, [[0, 1], [2]], x.shape)


@dataclass(frozen=True)
class ModelSpec:
    build: Callable
    description: str
    uses_layers: bool = False


MODELS = {
    'resnet50': ModelSpec(build_resnet50, 'ResNet-50 v1.5, NHWC 1x224x224x3 -> 1x1000'),
    'resnet50_block': ModelSpec(build_resnet50_block,
                                'one ResNet-50 bottleneck block, 1x56x56x64 -> 1x56x56x256'),
    'mobilenet_v2': ModelSpec(build_mobilenet_v2, 'MobileNet-V2, NHWC 1x224x224x3 -> 1x1000'),
    'bert_base': ModelSpec(build_bert_base, 'BERT-base encoder, 1x128x768 -> 1x128x768',
                           uses_layers=True),
    'mlp': ModelSpec(build_mlp, '3 x (256x1024 * 1024x1024 + bias + relu)'),
    'resnet18': ModelSpec(build_resnet18, 'ResNet-18, NHWC 1x224x224x3 -> 1x1000'),
    'vgg16': ModelSpec(build_vgg16, 'VGG-16 (configuration D), NHWC 1x224x224x3 -> 1x1000'),
    'vit_b16': ModelSpec(build_vit_b16, 'ViT-B/16 encoder + head, NHWC 1x224x224x3 -> 1x1000',
                         uses_layers=True),
    'gpt2': ModelSpec(build_gpt2, 'GPT-2 small decoder stack (causal), 1x256x768 -> 1x256x768',
                      uses_layers=True),
}


def generate(name, weights='splat', layers=None):
    """The MLIR text of model `name` (see MODELS) with the given weight mode."""
    if name not in MODELS:
        raise ValueError(f'unknown model {name!r}; known: {", ".join(MODELS)}')
    if layers is not None and layers < 1:
        raise ValueError('layers must be >= 1')
    spec = MODELS[name]
    b = IRBuilder(weights)
    result = spec.build(b, layers)
    header = f'{name}: {spec.description}\nGenerated by python/tcl/zoo.py --weights {weights}'
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
    parser.add_argument('--models', default=','.join(MODELS),
                        help='comma-separated model names (default: all)')
    parser.add_argument('--weights', choices=WEIGHT_MODES, default='splat')
    parser.add_argument('--layers', type=int, default=None,
                        help='transformer layers of bert_base, vit_b16 and gpt2 (default 12)')
    parser.add_argument('--list', action='store_true', help='print the model names, one per line, and exit')
    args = parser.parse_args(argv)

    if args.list:
        for name in MODELS:
            print(name)
        return 0
    if not args.out:
        parser.error('--out is required (or use --list)')
    names = [n for n in args.models.split(',') if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f'unknown model(s): {", ".join(unknown)}; known: {", ".join(MODELS)}')
    if args.layers is not None and args.layers < 1:
        parser.error('--layers must be >= 1')

    os.makedirs(args.out, exist_ok=True)
    for name in names:
        text = generate(name, args.weights, args.layers)
        path = os.path.join(args.out, f'{name}.mlir')
        with open(path, 'w') as f:
            f.write(text)
        counts = op_counts(text)
        print(f'{path}: conv={counts["conv"]} depthwise={counts["depthwise"]} '
              f'matmul={counts["matmul"]} batch_matmul={counts["batch_matmul"]} '
              f'generic={counts["generic"]} weights={args.weights}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
