//===- ElementwiseWorkload.cpp - An elementwise generic as oneDNN calls ---===//
//
// A framework that calls oneDNN for an elementwise expression, such as a
// layer norm's affine step or a softmax's numerator, runs one binary or
// eltwise primitive per pass over the data and fuses the rest of the
// expression into it as post-ops. This builds that from a linalg.generic
// body. The yielded value is followed back along one chain of operations
// over the whole iteration domain; the chain's first operation is the
// primitive, the others its post-ops. An operand of smaller footprint (a
// broadcast tensor, or a subexpression of one such as rsqrt(var + eps)) is
// computed first, by primitives of its own, into a buffer of its shape, and
// read by a binary post-op that broadcasts it.
//
//===----------------------------------------------------------------------===//

#include "Workload.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cfloat>
#include <optional>

using namespace mlir;
using namespace tcl;

namespace {
using algorithm = dnnl::algorithm;
using dt = dnnl::memory::data_type;

llvm::Error unsupported(const llvm::Twine &why) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "oneDNN has no baseline for this elementwise op: " + why);
}

std::optional<float> constantOf(Value value) {
  FloatAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return static_cast<float>(attr.getValueAsDouble());
  return std::nullopt;
}

/// One operation of a chain: an eltwise algorithm with its alpha and beta,
/// or a binary algorithm with its second operand.
struct ChainOp {
  algorithm kind;
  float alpha = 0, beta = 0;
  std::optional<dnnl::memory> operand;
  /// The operand is the left side of a subtraction or division.
  bool operandFirst = false;
};

/// A binary post-op always has the chain on its left: operand - x becomes
/// -x + operand, operand / x becomes x^-1 * operand.
llvm::SmallVector<ChainOp, 2> withChainFirst(const ChainOp &op) {
  if (!op.operandFirst)
    return {op};
  if (op.kind == algorithm::binary_sub)
    return {{algorithm::eltwise_linear, -1, 0, std::nullopt},
            {algorithm::binary_add, 0, 0, op.operand}};
  return {{algorithm::eltwise_pow, 1, -1, std::nullopt},
          {algorithm::binary_mul, 0, 0, op.operand}};
}

/// A value computed in one pass: a tensor, then operations applied to it.
struct Chain {
  Value source;
  std::vector<ChainOp> ops;
};

class ElementwiseBuilder {
public:
  ElementwiseBuilder(linalg::GenericOp op, const dnnl::engine &engine)
      : op(op), engine(engine), domain(op.getStaticLoopRanges()) {}

  llvm::Expected<Workload> build();

private:
  /// The loops over which `value` varies, one bit per loop.
  uint64_t footprint(Value value);
  llvm::Expected<Chain> chainFor(Value value);
  /// Both operands are tensors: continue the chain of the one that spans
  /// the other's footprint and read the other with a binary post-op.
  llvm::Expected<Chain> chainForBinary(Operation *def, algorithm kind);
  /// One operand is a constant: an eltwise post-op.
  llvm::Expected<Chain> chainForScalar(Operation *def, Value tensor,
                                       float constant, bool constantFirst);
  /// A buffer holding `value` over its footprint.
  llvm::Expected<dnnl::memory> materialize(Value value);
  llvm::Error emit(const Chain &chain, const dnnl::memory &destination);
  /// `ops` applied to `source` into `destination`, fused into as few
  /// primitives as oneDNN runs with a JIT kernel.
  void emitOps(const dnnl::memory &source, llvm::ArrayRef<ChainOp> ops,
               const dnnl::memory &destination);
  /// The layout of an operand of shape `shape` read through `map`, as dims
  /// of the iteration domain (1 where it is broadcast).
  dnnl::memory::desc operandDesc(AffineMap map, ArrayRef<int64_t> shape) const;

  linalg::GenericOp op;
  const dnnl::engine &engine;
  SmallVector<int64_t> domain;
  llvm::DenseMap<Value, dnnl::memory> tensors;
  Workload work;
};

dnnl::memory::desc ElementwiseBuilder::operandDesc(AffineMap map,
                                                   ArrayRef<int64_t> shape) const {
  dnnl::memory::dims dims(domain.size(), 1), strides(domain.size(), 1);
  int64_t stride = 1;
  for (int64_t j = static_cast<int64_t>(shape.size()) - 1; j >= 0; --j) {
    unsigned loop = map.getDimPosition(j);
    dims[loop] = shape[j];
    strides[loop] = stride;
    stride *= shape[j];
  }
  return dnnl::memory::desc(dims, dt::f32, strides);
}

uint64_t ElementwiseBuilder::footprint(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (argument.getOwner() != op.getBody())
      return 0;
    uint64_t mask = 0;
    for (AffineExpr result :
         op.getMatchingIndexingMap(&op->getOpOperand(argument.getArgNumber()))
             .getResults())
      mask |= uint64_t(1) << cast<AffineDimExpr>(result).getPosition();
    return mask;
  }
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != op.getBody())
    return 0;
  uint64_t mask = 0;
  for (Value operand : def->getOperands())
    mask |= footprint(operand);
  return mask;
}

llvm::Expected<dnnl::memory> ElementwiseBuilder::materialize(Value value) {
  auto known = tensors.find(value);
  if (known != tensors.end())
    return known->second;
  dnnl::memory memory;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (argument.getOwner() != op.getBody())
      return unsupported("a block argument from outside the body");
    OpOperand &operand = op->getOpOperand(argument.getArgNumber());
    memory = filledMemory(
        operandDesc(op.getMatchingIndexingMap(&operand),
                    cast<ShapedType>(operand.get().getType()).getShape()),
        engine);
  } else {
    llvm::Expected<Chain> chain = chainFor(value);
    if (!chain)
      return chain.takeError();
    uint64_t mask = footprint(value);
    dnnl::memory::dims dims(domain.size(), 1);
    for (size_t loop = 0; loop < domain.size(); ++loop)
      if (mask & (uint64_t(1) << loop))
        dims[loop] = domain[loop];
    dnnl::memory::dims strides(dims.size(), 1);
    for (int64_t loop = static_cast<int64_t>(dims.size()) - 2; loop >= 0; --loop)
      strides[loop] = strides[loop + 1] * dims[loop + 1];
    memory = dnnl::memory(dnnl::memory::desc(dims, dt::f32, strides), engine);
    if (llvm::Error error = emit(*chain, memory))
      return std::move(error);
  }
  tensors[value] = memory;
  return memory;
}

llvm::Expected<Chain> ElementwiseBuilder::chainForScalar(Operation *def,
                                                         Value tensor,
                                                         float constant,
                                                         bool constantFirst) {
  llvm::Expected<Chain> chain = chainFor(tensor);
  if (!chain)
    return chain;
  auto eltwise = [&](algorithm kind, float alpha,
                     float beta) -> llvm::Expected<Chain> {
    chain->ops.push_back({kind, alpha, beta, std::nullopt});
    return std::move(*chain);
  };
  // eltwise_linear is alpha * x + beta, eltwise_pow alpha * x^beta,
  // eltwise_clip_v2 clamps to [alpha, beta].
  return llvm::TypeSwitch<Operation *, llvm::Expected<Chain>>(def)
      .Case([&](arith::AddFOp) {
        return eltwise(algorithm::eltwise_linear, 1, constant);
      })
      .Case([&](arith::SubFOp) {
        return constantFirst ? eltwise(algorithm::eltwise_linear, -1, constant)
                             : eltwise(algorithm::eltwise_linear, 1, -constant);
      })
      .Case([&](arith::MulFOp) {
        return eltwise(algorithm::eltwise_linear, constant, 0);
      })
      .Case([&](arith::DivFOp) {
        return constantFirst ? eltwise(algorithm::eltwise_pow, constant, -1)
                             : eltwise(algorithm::eltwise_linear, 1 / constant, 0);
      })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *) {
        return constant == 0 ? eltwise(algorithm::eltwise_relu, 0, 0)
                             : eltwise(algorithm::eltwise_clip_v2, constant,
                                       FLT_MAX);
      })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *) {
        return eltwise(algorithm::eltwise_clip_v2, -FLT_MAX, constant);
      })
      .Case([&](math::PowFOp) -> llvm::Expected<Chain> {
        if (constantFirst)
          return unsupported("a constant raised to a tensor's power");
        return constant == 2 ? eltwise(algorithm::eltwise_square, 0, 0)
                             : eltwise(algorithm::eltwise_pow, 1, constant);
      })
      .Default([&](Operation *other) -> llvm::Expected<Chain> {
        return unsupported("'" + other->getName().getStringRef() + "'");
      });
}

llvm::Expected<Chain> ElementwiseBuilder::chainForBinary(Operation *def,
                                                         algorithm kind) {
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  if (lhs == rhs && kind == algorithm::binary_mul) {
    llvm::Expected<Chain> chain = chainFor(lhs);
    if (chain)
      chain->ops.push_back({algorithm::eltwise_square, 0, 0, std::nullopt});
    return chain;
  }
  uint64_t left = footprint(lhs), right = footprint(rhs);
  bool continueLeft;
  if (left == right)
    // Continue an expression rather than a plain tensor: the tensor is read
    // by the post-op as it is, the expression would need a pass of its own.
    continueLeft = !isa<BlockArgument>(lhs) || isa<BlockArgument>(rhs);
  else if ((left | right) == left)
    continueLeft = true;
  else if ((left | right) == right)
    continueLeft = false;
  else
    return unsupported("operands broadcast against each other");

  llvm::Expected<Chain> chain = chainFor(continueLeft ? lhs : rhs);
  if (!chain)
    return chain;
  llvm::Expected<dnnl::memory> other = materialize(continueLeft ? rhs : lhs);
  if (!other)
    return other.takeError();
  bool ordered = kind == algorithm::binary_sub || kind == algorithm::binary_div;
  chain->ops.push_back({kind, 0, 0, *other, ordered && !continueLeft});
  return chain;
}

llvm::Expected<Chain> ElementwiseBuilder::chainFor(Value value) {
  if (tensors.count(value) || isa<BlockArgument>(value)) {
    if (auto argument = dyn_cast<BlockArgument>(value);
        argument && argument.getOwner() != op.getBody())
      return unsupported("a block argument from outside the body");
    return Chain{value, {}};
  }
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != op.getBody())
    return unsupported("a value from outside the body that is not a constant");

  if (def->getNumOperands() == 2) {
    std::optional<float> lhs = constantOf(def->getOperand(0)),
                         rhs = constantOf(def->getOperand(1));
    if (lhs && rhs)
      return unsupported("an operation on two constants");
    if (lhs || rhs)
      return chainForScalar(def, def->getOperand(lhs ? 1 : 0), lhs ? *lhs : *rhs,
                            lhs.has_value());
  }
  auto unary = [&](algorithm kind, float alpha = 0,
                   float beta = 0) -> llvm::Expected<Chain> {
    llvm::Expected<Chain> chain = chainFor(def->getOperand(0));
    if (chain)
      chain->ops.push_back({kind, alpha, beta, std::nullopt});
    return chain;
  };
  return llvm::TypeSwitch<Operation *, llvm::Expected<Chain>>(def)
      .Case([&](math::ExpOp) { return unary(algorithm::eltwise_exp); })
      .Case([&](math::LogOp) { return unary(algorithm::eltwise_log); })
      .Case([&](math::TanhOp) { return unary(algorithm::eltwise_tanh); })
      .Case([&](math::SqrtOp) { return unary(algorithm::eltwise_sqrt); })
      .Case([&](math::RsqrtOp) { return unary(algorithm::eltwise_pow, 1, -0.5); })
      .Case([&](math::AbsFOp) { return unary(algorithm::eltwise_abs); })
      .Case([&](arith::NegFOp) { return unary(algorithm::eltwise_linear, -1, 0); })
      .Case([&](arith::AddFOp) { return chainForBinary(def, algorithm::binary_add); })
      .Case([&](arith::SubFOp) { return chainForBinary(def, algorithm::binary_sub); })
      .Case([&](arith::MulFOp) { return chainForBinary(def, algorithm::binary_mul); })
      .Case([&](arith::DivFOp) { return chainForBinary(def, algorithm::binary_div); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>(
          [&](Operation *) { return chainForBinary(def, algorithm::binary_max); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>(
          [&](Operation *) { return chainForBinary(def, algorithm::binary_min); })
      .Default([&](Operation *other) -> llvm::Expected<Chain> {
        return unsupported("'" + other->getName().getStringRef() + "'");
      });
}

llvm::Error ElementwiseBuilder::emit(const Chain &chain,
                                     const dnnl::memory &destination) {
  llvm::Expected<dnnl::memory> source = materialize(chain.source);
  if (!source)
    return source.takeError();
  if (chain.ops.empty()) {
    work.add("reorder", dnnl::reorder(*source, destination),
             {{DNNL_ARG_FROM, *source}, {DNNL_ARG_TO, destination}});
    return llvm::Error::success();
  }
  emitOps(*source, chain.ops, destination);
  return llvm::Error::success();
}

void ElementwiseBuilder::emitOps(const dnnl::memory &source,
                                 llvm::ArrayRef<ChainOp> ops,
                                 const dnnl::memory &destination) {
  // The first operation is the primitive, the others its post-ops. A binary
  // primitive takes its operands in either order when they have the same
  // shape (src0 cannot be broadcast).
  if (ops.front().operandFirst &&
      ops.front().operand->get_desc().dims() != source.get_desc().dims()) {
    llvm::SmallVector<ChainOp> expanded = withChainFirst(ops.front());
    expanded.append(ops.begin() + 1, ops.end());
    return emitOps(source, expanded, destination);
  }
  std::unordered_map<int, dnnl::memory> arguments;
  dnnl::post_ops postOps;
  for (const ChainOp &op : ops.drop_front())
    for (const ChainOp &next : withChainFirst(op)) {
      if (next.operand) {
        arguments[DNNL_ARG_ATTR_MULTIPLE_POST_OP(postOps.len()) |
                  DNNL_ARG_SRC_1] = *next.operand;
        postOps.append_binary(next.kind, next.operand->get_desc());
      } else {
        postOps.append_eltwise(1.0f, next.kind, next.alpha, next.beta);
      }
    }
  dnnl::primitive_attr attributes;
  attributes.set_post_ops(postOps);
  const ChainOp &first = ops.front();
  // An eltwise primitive writes in its source's layout; a transposing
  // result is reordered after it.
  bool sameLayout = source.get_desc() == destination.get_desc();
  dnnl::memory::desc resultDesc =
      first.operand || sameLayout ? destination.get_desc() : source.get_desc();
  std::optional<dnnl::binary::primitive_desc> binary;
  std::optional<dnnl::eltwise_forward::primitive_desc> eltwise;
  if (first.operand)
    binary.emplace(
        first.operandFirst
            ? dnnl::binary::desc(first.kind, first.operand->get_desc(),
                                 source.get_desc(), resultDesc)
            : dnnl::binary::desc(first.kind, source.get_desc(),
                                 first.operand->get_desc(), resultDesc),
        attributes, engine);
  else
    eltwise.emplace(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                    first.kind, source.get_desc(), first.alpha,
                                    first.beta),
        attributes, engine);
  llvm::StringRef implementation = binary ? binary->impl_info_str()
                                          : eltwise->impl_info_str();
  // oneDNN's JIT kernels take only some post-ops (some broadcasts; none
  // after an eltwise primitive); the reference kernel it falls back to is
  // ~100x slower than one more pass. A user would then split the
  // expression, so that the next binary operation starts a primitive of
  // its own with what follows as its post-ops.
  if (ops.size() > 1 && implementation.starts_with("ref")) {
    size_t split = 1;
    if (!first.operand)
      while (split + 1 < ops.size() && !ops[split].operand)
        ++split;
    dnnl::memory intermediate(resultDesc, engine);
    emitOps(source, ops.take_front(split), intermediate);
    emitOps(intermediate, ops.drop_front(split), destination);
    return;
  }
  dnnl::memory result = resultDesc == destination.get_desc()
                            ? destination
                            : dnnl::memory(resultDesc, engine);
  if (binary) {
    arguments[DNNL_ARG_SRC_0] = first.operandFirst ? *first.operand : source;
    arguments[DNNL_ARG_SRC_1] = first.operandFirst ? source : *first.operand;
    arguments[DNNL_ARG_DST] = result;
    work.add("binary", dnnl::binary(*binary), std::move(arguments));
  } else {
    arguments[DNNL_ARG_SRC] = source;
    arguments[DNNL_ARG_DST] = result;
    work.add("eltwise", dnnl::eltwise_forward(*eltwise), std::move(arguments));
  }
  if (result != destination)
    work.add("reorder", dnnl::reorder(result, destination),
             {{DNNL_ARG_FROM, result}, {DNNL_ARG_TO, destination}});
}

llvm::Expected<Workload> ElementwiseBuilder::build() {
  if (op.getNumDpsInits() != 1)
    return unsupported("more than one result");
  if (op.getNumReductionLoops() != 0)
    return unsupported("a reduction loop");
  if (domain.empty() || domain.size() > DNNL_MAX_NDIMS ||
      llvm::any_of(domain, ShapedType::isDynamic))
    return unsupported("no loops, too many, or dynamic ones");
  for (OpOperand &operand : op->getOpOperands()) {
    if (!getElementTypeOrSelf(operand.get().getType()).isF32())
      return unsupported("only f32 is compared");
    if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return unsupported("an indexing map that is not a projected permutation");
  }
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap resultMap = op.getMatchingIndexingMap(init);
  if (!resultMap.isPermutation())
    return unsupported("a result that does not cover every loop");
  Value result = op.getBody()->getTerminator()->getOperand(0);
  if (constantOf(result))
    return unsupported("a fill");
  if (footprint(result) != (uint64_t(1) << domain.size()) - 1)
    return unsupported("a result broadcast from its operands");

  dnnl::memory destination(
      operandDesc(resultMap, cast<ShapedType>(init->get().getType()).getShape()),
      engine);
  llvm::Expected<Chain> chain = chainFor(result);
  if (!chain)
    return chain.takeError();
  if (llvm::Error error = emit(*chain, destination))
    return std::move(error);
  return std::move(work);
}

} // namespace

llvm::Expected<Workload> tcl::makeElementwiseWorkload(linalg::GenericOp op,
                                                      const dnnl::engine &engine) {
  return ElementwiseBuilder(op, engine).build();
}
