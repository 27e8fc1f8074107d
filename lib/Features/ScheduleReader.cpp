//===- ScheduleReader.cpp - Reading a template's steps once ---------------===//
//
// The part of featurizing that needs MLIR: the steps of a schedule script,
// the task op's loops and accesses, and the two tokens every schedule of
// the task shares (task and hardware).
//
//===----------------------------------------------------------------------===//

#include "tcl/Features/ScheduleFeaturizer.h"

#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/AffineExprVisitor.h"

#include <cmath>

using namespace mlir;
using namespace tcl;

namespace {
using Step = ScheduleFeaturizer::Step;

/// Turns a script's ops into steps; sizes refer to knobs by index.
class StepReader {
public:
  explicit StepReader(const Space &space) {
    for (auto [index, knob] : llvm::enumerate(space.knobs()))
      knobIndex[knob.name] = index;
  }

  LogicalResult read(Block &block, std::vector<Step> &steps) {
    for (Operation &op : block)
      if (failed(read(&op, steps)))
        return failure();
    return success();
  }

private:
  LogicalResult read(Operation *op, std::vector<Step> &steps) {
    if (auto tile = dyn_cast<transform::TileUsingForOp>(op))
      return addStep(TokenKind::Tile, tile.getMixedSizes(),
                     tile.getInterchange(), op, steps);
    if (auto forall = dyn_cast<transform::TileUsingForallOp>(op)) {
      // A split given as thread counts has no tile sizes to replay; it is
      // still a step the model should see.
      return addStep(TokenKind::ThreadTile, forall.getMixedTileSizes(), {}, op,
                     steps);
    }
    if (auto fuse = dyn_cast<transform::FuseOp>(op))
      return addStep(TokenKind::Fuse, fuse.getMixedTileSizes(), {}, op, steps);
    if (auto pack = dyn_cast<transform::PackOp>(op))
      return addStep(TokenKind::Pack, pack.getMixedPackedSizes(), {}, op, steps);
    if (isa<transform::LoopPeelOp>(op))
      return addStep(TokenKind::Peel, {}, {}, op, steps);
    if (isa<transform::DecomposeOp>(op))
      return addStep(TokenKind::Decompose, {}, {}, op, steps);
    if (isa<transform::VectorizeOp>(op))
      return addStep(TokenKind::Vectorize, {}, {}, op, steps);
    if (auto alternatives = dyn_cast<transform::tune::AlternativesOp>(op))
      return readAlternatives(alternatives, steps);
    // Nested sequences (e.g. the one that suppresses a peel's failure) are
    // part of the schedule.
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(read(block, steps)))
          return failure();
    return success();
  }

  LogicalResult readAlternatives(transform::tune::AlternativesOp op,
                                 std::vector<Step> &steps) {
    Step step;
    step.kind = TokenKind::Tile; // unused: a step with regions is a choice
    if (std::optional<APInt> selected = op.getSelectedRegionAttr()) {
      // Fixed choice: only that region is the schedule.
      Region &region = op->getRegion(selected->getZExtValue());
      return region.empty() ? success() : read(region.front(), steps);
    }
    FailureOr<Step::Size> selector = sizeOf(op.getSelectedRegionParam(), op);
    if (failed(selector) || selector->knob < 0)
      return op.emitError("tcl featurizer: the region selector is not a knob");
    step.selector = selector->knob;
    for (Region &region : op->getRegions()) {
      step.regions.emplace_back();
      if (!region.empty() && failed(read(region.front(), step.regions.back())))
        return failure();
    }
    steps.push_back(std::move(step));
    return success();
  }

  LogicalResult addStep(TokenKind kind, ArrayRef<OpFoldResult> sizes,
                        ArrayRef<int64_t> interchange, Operation *op,
                        std::vector<Step> &steps) {
    Step step;
    step.kind = kind;
    step.interchange.assign(interchange.begin(), interchange.end());
    for (OpFoldResult size : sizes) {
      if (auto attr = dyn_cast<Attribute>(size)) {
        step.sizes.push_back({cast<IntegerAttr>(attr).getInt(), -1});
        continue;
      }
      FailureOr<Step::Size> value = sizeOf(cast<Value>(size), op);
      if (failed(value))
        return failure();
      step.sizes.push_back(*value);
    }
    steps.push_back(std::move(step));
    return success();
  }

  /// A knob's index, or the integer of a `transform.param.constant`.
  FailureOr<Step::Size> sizeOf(Value value, Operation *user) {
    Operation *def = value.getDefiningOp();
    if (auto knob = dyn_cast_if_present<transform::tune::KnobOp>(def)) {
      auto found = knobIndex.find(knob.getName());
      if (found != knobIndex.end())
        return Step::Size{0, static_cast<int>(found->second)};
    }
    if (auto constant = dyn_cast_if_present<transform::ParamConstantOp>(def))
      if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
        return Step::Size{integer.getInt(), -1};
    return user->emitError(
        "tcl featurizer: a size is neither a constant nor a knob of the space");
  }

  llvm::StringMap<unsigned> knobIndex;
};

/// Collects `expr`'s loops and coefficients (d0 * 2 + d3 -> {0:2, 3:1}).
void collectTerms(AffineExpr expr, int64_t scale,
                  std::vector<std::pair<unsigned, int64_t>> &terms) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    terms.push_back({dim.getPosition(), scale});
    return;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return; // constants do not widen a tile
  if (expr.getKind() == AffineExprKind::Add) {
    collectTerms(binary.getLHS(), scale, terms);
    collectTerms(binary.getRHS(), scale, terms);
  } else if (expr.getKind() == AffineExprKind::Mul) {
    if (auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      collectTerms(binary.getLHS(), scale * constant.getValue(), terms);
    else if (auto constant = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      collectTerms(binary.getRHS(), scale * constant.getValue(), terms);
  } else {
    // floordiv / mod: bounded by the dims they read.
    collectTerms(binary.getLHS(), 1, terms);
  }
}

float log2Scaled(double value, double scale) {
  return static_cast<float>(std::log2(std::max(value, 1.0)) / scale);
}
} // namespace

FailureOr<ScheduleFeaturizer>
ScheduleFeaturizer::create(linalg::LinalgOp anchor, const Task &task,
                           Operation *script, const Space &space,
                           const HardwareDescription &hardware) {
  ScheduleFeaturizer featurizer;
  StepReader reader(space);
  for (Region &region : script->getRegions())
    for (Block &block : region)
      if (failed(reader.read(block, featurizer.steps)))
        return failure();

  for (const Knob &knob : space.knobs())
    featurizer.knobValues.push_back(
        knob.integerOptions ? *knob.integerOptions
                            : std::vector<int64_t>(knob.options.size(), 0));
  SmallVector<int64_t> bounds = anchor.getStaticLoopRanges();
  featurizer.bounds.assign(bounds.begin(), bounds.end());
  for (utils::IteratorType type : anchor.getIteratorTypesArray())
    featurizer.isReduction.push_back(type == utils::IteratorType::reduction);
  for (OpOperand &operand : anchor->getOpOperands()) {
    Access access;
    access.isOutput = anchor.isDpsInit(&operand);
    Type element = getElementTypeOrSelf(operand.get().getType());
    access.elementBytes =
        element.isIntOrFloat() ? std::max(1u, element.getIntOrFloatBitWidth() / 8)
                               : 4;
    AffineMap map = anchor.getMatchingIndexingMap(&operand);
    for (AffineExpr result : map.getResults()) {
      access.dims.emplace_back();
      collectTerms(result, 1, access.dims.back());
    }
    featurizer.accesses.push_back(std::move(access));
  }
  AffineMap outputMap = anchor.getIndexingMapsArray().back();
  for (AffineExpr result : outputMap.getResults())
    featurizer.outputLoops.push_back(
        isa<AffineDimExpr>(result) ? cast<AffineDimExpr>(result).getPosition()
                                   : 0);
  featurizer.hardware = hardware;
  unsigned elementBits = 32;
  Type outputElement =
      getElementTypeOrSelf(anchor.getDpsInits()[0].getType());
  if (outputElement.isIntOrFloat())
    elementBits = std::max(8u, outputElement.getIntOrFloatBitWidth());
  featurizer.lanes = std::max<int64_t>(1, hardware.vectorBits / elementBits);
  featurizer.flops = task.flops;

  // Task token.
  std::vector<float> taskToken(kFeatureSize, 0.0f);
  taskToken[token::kKind + static_cast<unsigned>(TokenKind::Task)] = 1;
  for (auto [loop, extent] : llvm::enumerate(featurizer.bounds)) {
    unsigned slot = std::min<unsigned>(loop, kLoopSlots - 1);
    taskToken[token::kLoopRatio + slot] += log2Scaled(extent, 16);
    taskToken[token::kLoopLog + slot] = featurizer.isReduction[loop] ? 1 : 0;
  }
  float *numeric = taskToken.data() + token::kNumeric;
  numeric[0] = log2Scaled(task.flops, 40);
  numeric[1] = log2Scaled(task.bytes, 32);
  numeric[2] = log2Scaled(1 + task.arithmeticIntensity(), 8);
  numeric[3] = elementBits / 64.0f;
  numeric[4] = task.fusableConsumers.size() / 4.0f;
  numeric[5] = featurizer.bounds.size() / 8.0f;
  // The kinds that have schedules (softmax has none), one-hot.
  static constexpr TaskKind kKinds[] = {
      TaskKind::Matmul,       TaskKind::BatchMatmul,     TaskKind::Conv2D,
      TaskKind::GroupedConv2D, TaskKind::DepthwiseConv2D, TaskKind::Pooling,
      TaskKind::Elementwise,  TaskKind::Reduction};
  static_assert(6 + std::size(kKinds) == token::kNumericSize);
  for (auto [index, kind] : llvm::enumerate(kKinds))
    numeric[6 + index] = task.kind == kind ? 1 : 0;

  // Hardware token.
  std::vector<float> hardwareToken(kFeatureSize, 0.0f);
  hardwareToken[token::kKind + static_cast<unsigned>(TokenKind::Hardware)] = 1;
  numeric = hardwareToken.data() + token::kNumeric;
  numeric[0] = hardware.vectorBits / 512.0f;
  numeric[1] = hardware.vectorRegisters / 32.0f;
  numeric[2] = log2Scaled(hardware.caches.l1Bytes, 24);
  numeric[3] = log2Scaled(hardware.caches.l2Bytes, 24);
  numeric[4] = log2Scaled(hardware.caches.l3Bytes, 28);
  numeric[5] = log2Scaled(hardware.threads + 1, 6);
  numeric[6] = hardware.hasFma ? 1 : 0;
  numeric[7] = hardware.isGpu ? 1 : 0;
  numeric[8] = log2Scaled(hardware.multiprocessors + 1, 8);
  numeric[9] = log2Scaled(hardware.sharedMemoryBytes + 1, 24);
  numeric[10] = featurizer.lanes / 16.0f;

  featurizer.prefix = std::move(taskToken);
  featurizer.prefix.insert(featurizer.prefix.end(), hardwareToken.begin(),
                           hardwareToken.end());
  return featurizer;
}
