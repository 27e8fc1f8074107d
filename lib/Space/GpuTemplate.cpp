//===- GpuTemplate.cpp - NVVM schedules of every task kind ----------------===//
//
// One template for all task kinds, in the CUDA style:
//  - up to three parallel loops, innermost last, are tiled into an
//    scf.forall mapped to the grid (x, y, z); the tiles are knobs;
//  - the innermost reduction loop is tiled by a knob into a serial loop
//    inside the block (other reduction loops by 1);
//  - the block's tile is split across a thread block (an scf.forall mapped
//    to threads); the block shape is a knob selecting one of a fixed list,
//    since thread counts are static in the mapping ops;
//  - for two-operand contractions (matmul, batch_matmul), the operand tiles
//    of each reduction step can be staged in shared memory by cooperative,
//    vectorized copies of the whole block;
//  - a contraction's per-thread tile becomes a vector contraction (outer
//    products in registers); other ops stay scalar loops per thread.
// Constraints keep every legal schedule within the chip: tiles divide the
// problem, the block shape divides the tile, shared memory fits the static
// 48 KiB, and the per-thread accumulator tile fits the register file.
//
//===----------------------------------------------------------------------===//

#include "TemplateWriter.h"

#include "tcl/Target/GpuTarget.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tcl;

namespace {
/// A thread block shape (x, y). Thread counts are static attributes of the
/// mapping ops, so each shape is its own region of the template.
struct BlockShape {
  int64_t x, y;
};
constexpr BlockShape kBlockShapes[] = {
    {32, 1}, {64, 1}, {128, 1}, {256, 1}, {8, 4},   {16, 4},
    {8, 8},  {32, 4}, {16, 8},  {16, 16}, {32, 8}, {32, 16},
};
/// Outputs one thread may own: with a reduction they are accumulators in
/// registers (255 per thread, of which the operands take some).
constexpr int64_t kMaxOutputsPerThread = 64;
} // namespace

/// "[a, b, c]" of a list of strings.
static std::string bracketed(llvm::ArrayRef<std::string> items) {
  return "[" + llvm::join(items, ", ") + "]";
}

/// `tile_using_forall` of `target` with `sizes` (each "0", an integer or a
/// knob's SSA name) under `keyword` ("tile_sizes" or "num_threads"), mapped
/// by `mapping`; returns the tiled op's and the forall's names.
static std::pair<std::string, std::string>
tileToForall(TemplateWriter &w, llvm::StringRef target,
             llvm::ArrayRef<std::string> sizes, llvm::StringRef keyword,
             llvm::ArrayRef<std::string> mapping) {
  std::vector<std::string> operandTypes{"!transform.any_op"};
  for (const std::string &size : sizes)
    if (size.front() == '%')
      operandTypes.push_back("!transform.param<i64>");
  std::string tiled = w.fresh("tiled"), forall = w.fresh("forall");
  w.line(llvm::formatv("{0}, {1} = transform.structured.tile_using_forall {2} "
                       "{3} {4} (mapping = {5}) : ({6}) -> (!transform.any_op, "
                       "!transform.any_op)",
                       tiled, forall, target, keyword, bracketed(sizes),
                       bracketed(mapping), llvm::join(operandTypes, ", "))
             .str());
  return {tiled, forall};
}

bool tcl::writeGpuTemplate(TemplateWriter &w, linalg::LinalgOp op,
                           bool isContraction, const GpuTarget &target) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned loops = bounds.size();
  SmallVector<unsigned> parallel, reduction;
  for (auto [loop, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (ShapedType::isDynamic(bounds[loop]))
      return false;
    (type == utils::IteratorType::parallel ? parallel : reduction)
        .push_back(loop);
  }
  // The grid dims: the innermost three parallel loops of extent > 1, x
  // innermost (contiguous output elements in adjacent blocks and threads).
  SmallVector<unsigned> mapped;
  for (unsigned loop : llvm::reverse(parallel))
    if (bounds[loop] > 1 && mapped.size() < 3)
      mapped.push_back(loop);
  if (mapped.empty())
    return false;
  static const char *kAxes[] = {"x", "y", "z"};
  unsigned elementBytes =
      getElementTypeOrSelf(op.getDpsInits()[0].getType()).getIntOrFloatBitWidth() / 8;

  // Block tiles of the mapped loops, innermost x.
  std::vector<std::string> blockSizes(loops, "0");
  std::vector<std::string> blockMapping;
  std::vector<std::string> tileNames;
  for (auto [axis, loop] : llvm::enumerate(mapped)) {
    std::string name = std::string("tile_") + kAxes[axis];
    std::vector<int64_t> options =
        axis == 2 ? dividingOptions(bounds[loop], {1, 2, 4, 8}, 8)
                  : dividingOptions(bounds[loop],
                                    {1, 2, 4, 8, 16, 32, 64, 128, 256}, 256);
    blockSizes[loop] = w.knob(name, options);
    tileNames.push_back(name);
  }
  for (unsigned loop = 0; loop < loops; ++loop)
    if (blockSizes[loop] != "0")
      blockMapping.push_back(
          llvm::formatv("#gpu.block<{0}>",
                        kAxes[std::distance(mapped.begin(),
                                            llvm::find(mapped, loop))])
              .str());
  std::string tileZ = mapped.size() > 2 ? "tile_z" : "1";
  std::string tileY = mapped.size() > 1 ? "tile_y" : "1";

  // The reduction step: the innermost reduction loop by a knob, the others
  // one at a time.
  std::string stepK = "1";
  std::vector<std::string> stepSizes(loops, "0");
  if (!reduction.empty()) {
    for (unsigned loop : reduction)
      stepSizes[loop] = "1";
    stepSizes[reduction.back()] =
        w.knob("tile_k", dividingOptions(bounds[reduction.back()],
                                         {1, 2, 4, 8, 16, 32, 64}, 64));
    stepK = "tile_k";
  }

  // Shared-memory staging of both operands of a contraction.
  bool canStage = isContraction && op.getNumDpsInputs() == 2 &&
                  !reduction.empty();
  std::string stage = canStage ? w.knob("shared", {0, 1}) : "";
  if (canStage)
    w.constrain(llvm::formatv("shared == 0 || ({0} * {1} + {1} * tile_x) * "
                              "{2} * {3} <= {4}",
                              tileY, stepK, tileZ, elementBytes,
                              target.sharedMemoryPerBlock)
                    .str());

  std::vector<int64_t> shapeOptions;
  for (size_t i = 0; i < std::size(kBlockShapes); ++i)
    shapeOptions.push_back(i);
  std::string shape = w.knob("block", shapeOptions);
  // A block shape fits a tile when its thread counts divide the tile; one
  // thread owns at most kMaxOutputsPerThread outputs.
  std::vector<std::string> fits;
  for (auto [index, blockShape] : llvm::enumerate(kBlockShapes)) {
    if (blockShape.y > 1 && mapped.size() < 2)
      continue;
    fits.push_back(llvm::formatv("(block == {0} && tile_x % {1} == 0 && {2} % "
                                 "{3} == 0 && (tile_x / {1}) * ({2} / {3}) * "
                                 "{4} <= {5})",
                                 index, blockShape.x, tileY, blockShape.y,
                                 tileZ, kMaxOutputsPerThread)
                       .str());
  }
  w.constrain(llvm::join(fits, " || "));
  // A staged copy spreads its innermost dim over the whole block, in
  // vectors of up to 128 bits (map_copy_to_threads), and gives up when a
  // vector size it tries leaves more vectors than threads; an innermost dim
  // no longer than the block never does.
  if (canStage) {
    std::vector<std::string> copies{"shared == 0"};
    for (auto [index, blockShape] : llvm::enumerate(kBlockShapes)) {
      int64_t threads = blockShape.x * blockShape.y;
      copies.push_back(llvm::formatv("(block == {0} && {1} <= {2} && tile_x "
                                     "<= {2})",
                                     index, stepK, threads)
                           .str());
    }
    w.constrain(llvm::join(copies, " || "));
  }

  auto [blocked, grid] =
      tileToForall(w, "%op", blockSizes, "tile_sizes", blockMapping);
  std::string stepped = blocked;
  if (!reduction.empty()) {
    std::vector<int64_t> identity;
    for (unsigned loop = 0; loop < loops; ++loop)
      identity.push_back(loop);
    stepped = w.tile(blocked, stepSizes, identity).first;
  }

  // One region per block shape: split the block's tile over its threads,
  // after staging the operands when `shared` says so.
  auto splitAcrossThreads = [&](llvm::StringRef target, BlockShape blockShape) {
    std::vector<std::string> threads(loops, "0");
    std::vector<std::string> threadMapping;
    threads[mapped[0]] = std::to_string(blockShape.x);
    // With one grid dim, two-dimensional shapes are illegal (constrained
    // out above); their regions still exist, as every option needs one.
    if (blockShape.y > 1 && mapped.size() > 1)
      threads[mapped[1]] = std::to_string(blockShape.y);
    for (unsigned loop = 0; loop < loops; ++loop) {
      if (threads[loop] == "0")
        continue;
      threadMapping.push_back(loop == mapped[0] ? "#gpu.thread<x>"
                                                : "#gpu.thread<y>");
    }
    tileToForall(w, target, threads, "num_threads", threadMapping);
  };
  auto stageOperands = [&](BlockShape blockShape) {
    std::string padded = w.fresh("padded");
    std::string zeros = llvm::join(
        llvm::SmallVector<std::string>(3, "0.0 : " + [&] {
          std::string type;
          llvm::raw_string_ostream os(type);
          os << getElementTypeOrSelf(op.getDpsInits()[0].getType());
          return type;
        }()),
        ", ");
    std::vector<std::string> dims;
    for (unsigned loop = 0; loop < loops; ++loop)
      dims.push_back(std::to_string(loop));
    w.line(llvm::formatv("{0}, {0}_pads, {0}_copy = transform.structured.pad "
                         "{1} {{padding_values = [{2}], padding_dimensions = "
                         "[{3}], nofold_flags = [1, 1, 0], copy_back_op = "
                         "\"none\"} : (!transform.any_op) -> (!transform.any_op, "
                         "!transform.any_op, !transform.any_op)",
                         padded, stepped, zeros, llvm::join(dims, ", "))
               .str());
    for (int operand = 0; operand < 2; ++operand) {
      std::string pad = w.fresh("operand_pad");
      w.line(llvm::formatv("{0} = transform.get_producer_of_operand {1}[{2}] : "
                           "(!transform.any_op) -> !transform.any_op",
                           pad, padded, operand)
                 .str());
      std::string copies = w.fresh("copies"), copy = w.fresh("copy");
      w.line(llvm::formatv("{0}, {1} = transform.structured.gpu."
                           "map_copy_to_threads {2} total_num_threads = {3} "
                           "desired_bit_alignment = 128 : (!transform.any_op) "
                           "-> (!transform.any_op, !transform.any_op)",
                           copies, copy, pad, blockShape.x * blockShape.y)
                 .str());
      std::string empty = w.fresh("staging");
      w.line(llvm::formatv("{0} = transform.get_producer_of_operand {1}[0] : "
                           "(!transform.any_op) -> !transform.op<\"tensor.empty\">",
                           empty, copies)
                 .str());
      std::string buffer = w.fresh("shared_buffer");
      w.line(llvm::formatv("{0} = transform.bufferization."
                           "empty_tensor_to_alloc_tensor {1} : "
                           "(!transform.op<\"tensor.empty\">) -> "
                           "!transform.op<\"bufferization.alloc_tensor\">",
                           buffer, empty)
                 .str());
      w.line("transform.annotate " + buffer + " \"memory_space\" = "
             "%workgroup : !transform.op<\"bufferization.alloc_tensor\">, "
             "!transform.param<i64>");
    }
    return padded;
  };

  if (canStage)
    w.line("%workgroup = transform.param.constant 3 : i64 -> "
           "!transform.param<i64>");
  w.line("transform.tune.alternatives<\"block\"> selected_region = " + shape +
         " : !transform.param<i64>");
  for (BlockShape blockShape : kBlockShapes) {
    w.line("{");
    if (canStage) {
      w.line("transform.tune.alternatives<\"shared\"> selected_region = " +
             stage + " : !transform.param<i64>");
      w.line("{");
      splitAcrossThreads(stepped, blockShape);
      w.line("transform.yield");
      w.line("}");
      w.line("{");
      splitAcrossThreads(stageOperands(blockShape), blockShape);
      w.line("transform.yield");
      w.line("}");
    } else {
      splitAcrossThreads(stepped, blockShape);
    }
    w.line("transform.yield");
    w.line("}");
  }

  w.line("transform.apply_patterns to %func { "
         "transform.apply_patterns.canonicalization } : !transform.any_op");
  if (isContraction) {
    w.line(llvm::formatv("%per_thread = transform.structured.match attributes "
                         "{{tcl.task = \"{0}\"} in %func : (!transform.any_op) "
                         "-> !transform.any_op",
                         w.taskKey())
               .str());
    w.line("transform.structured.vectorize %per_thread : !transform.any_op");
    // The vectorizer's broadcast-multiply-reduce back into a contraction,
    // lowered to outer products: FMAs on the per-thread register tile.
    w.line("transform.apply_patterns to %func {");
    w.line("  transform.apply_patterns.vector.reduction_to_contract");
    w.line("  transform.apply_patterns.vector.transfer_permutation_patterns");
    w.line("} : !transform.any_op");
    w.line("transform.apply_patterns to %func {");
    w.line("  transform.apply_patterns.vector.cast_away_vector_leading_one_dim");
    w.line("  transform.apply_patterns.vector.drop_unit_dims_with_shape_cast");
    w.line("} : !transform.any_op");
    w.line("transform.apply_patterns to %func { "
           "transform.apply_patterns.vector.lower_contraction lowering_strategy "
           "= outerproduct } : !transform.any_op");
    w.line("transform.apply_patterns to %func {");
    w.line("  transform.apply_patterns.vector.lower_outerproduct");
    w.line("  transform.apply_patterns.vector.lower_multi_reduction "
           "lowering_strategy = innerreduction");
    w.line("} : !transform.any_op");
  }
  // Staging copies become 128-bit loads and stores where their tile allows;
  // a tile that does not vectorize stays a scalar copy loop.
  w.line("%staging_copies = transform.structured.match ops{[\"tensor.pad\"]} in "
         "%func : (!transform.any_op) -> !transform.any_op");
  w.line("transform.foreach %staging_copies : !transform.any_op {");
  w.line("^bb0(%staging_copy: !transform.any_op):");
  w.line("  transform.sequence %staging_copy : !transform.any_op failures(suppress) {");
  w.line("  ^bb0(%copy: !transform.any_op):");
  w.line("    transform.structured.vectorize %copy : !transform.any_op");
  w.line("    transform.yield");
  w.line("  }");
  w.line("  transform.yield");
  w.line("}");
  w.line("transform.apply_patterns to %func { "
         "transform.apply_patterns.canonicalization } : !transform.any_op");
  return true;
}
