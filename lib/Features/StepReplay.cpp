//===- StepReplay.cpp - Featurizing one schedule --------------------------===//
//
// Replays a schedule's steps on loop extents: each step's token describes
// the tile it leaves (sizes against the problem, data footprint against
// the register file and caches, trip counts, remainders) and the final
// vectorized op (its registers against the target's register file).
//
//===----------------------------------------------------------------------===//

#include "tcl/Features/ScheduleFeaturizer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tcl;

namespace tcl {
/// The state of one replay: the op's current loops, each a piece of one of
/// the task op's loops (packing splits a loop in two).
class StepReplay {
public:
  StepReplay(const ScheduleFeaturizer &featurizer, const Assignment &assignment,
             TokenSequence &sequence)
      : f(featurizer), assignment(assignment), sequence(sequence),
        extents(featurizer.bounds), origins(featurizer.bounds.size()) {
    for (unsigned loop = 0; loop < origins.size(); ++loop)
      origins[loop] = loop;
  }

  void run() {
    std::memset(sequence.values, 0, sizeof(sequence.values));
    std::copy(f.prefix.begin(), f.prefix.end(), sequence.values);
    sequence.length = f.prefix.size() / kFeatureSize;
    replay(f.steps);
  }

private:
  using Step = ScheduleFeaturizer::Step;

  void replay(const std::vector<Step> &steps) {
    for (const Step &step : steps) {
      if (step.selector >= 0) {
        int64_t region = value({0, step.selector});
        if (region >= 0 && region < static_cast<int64_t>(step.regions.size()))
          replay(step.regions[region]);
        continue;
      }
      float *token = nextToken(step.kind);
      if (!token)
        return;
      switch (step.kind) {
      case TokenKind::Tile:
      case TokenKind::ThreadTile:
      case TokenKind::Fuse:
        tile(step, token);
        break;
      case TokenKind::Pack:
        pack(step, token);
        break;
      case TokenKind::Peel:
        token[token::kNumeric + 7] = remainderFraction;
        break;
      case TokenKind::Vectorize:
        vectorize(token);
        break;
      default:
        break;
      }
    }
  }

  int64_t value(const Step::Size &size) const {
    if (size.knob < 0)
      return size.constant;
    const std::vector<int64_t> &values = f.knobValues[size.knob];
    unsigned option = assignment[size.knob];
    return option < values.size() ? values[option] : 0;
  }

  float *nextToken(TokenKind kind) {
    if (sequence.length >= kMaxTokens)
      return nullptr;
    float *token = sequence.values + sequence.length++ * kFeatureSize;
    token[token::kKind + static_cast<unsigned>(kind)] = 1;
    return token;
  }

  static unsigned slot(unsigned loop) {
    return std::min(loop, kLoopSlots - 1);
  }
  static float log2Scaled(double value, double scale) {
    return static_cast<float>(std::log2(std::max(value, 1.0)) / scale);
  }
  /// log2(numerator / denominator), clamped to [-8, 8], over 8.
  static float logRatio(double numerator, double denominator) {
    double ratio = std::log2(std::max(numerator, 1.0) / std::max(denominator, 1.0));
    return static_cast<float>(std::clamp(ratio, -8.0, 8.0) / 8.0);
  }

  /// The extent of each of the task op's loops in the current tile.
  std::vector<int64_t> taskExtents() const {
    std::vector<int64_t> result(f.bounds.size(), 1);
    for (auto [loop, extent] : llvm::zip(origins, extents))
      result[loop] *= extent;
    return result;
  }

  /// Elements of `access` that one tile of `tileExtents` touches.
  static double elementsOf(const ScheduleFeaturizer::Access &access,
                           const std::vector<int64_t> &tileExtents) {
    double elements = 1;
    for (const auto &terms : access.dims) {
      int64_t span = 1;
      for (auto [loop, coefficient] : terms)
        span += std::abs(coefficient) * (tileExtents[loop] - 1);
      elements *= static_cast<double>(span);
    }
    return elements;
  }

  /// Bytes of every operand that one tile of `tileExtents` touches.
  double footprint(const std::vector<int64_t> &tileExtents) const {
    double bytes = 0;
    for (const ScheduleFeaturizer::Access &access : f.accesses)
      bytes += elementsOf(access, tileExtents) * access.elementBytes;
    return bytes;
  }

  /// Extent of the output's innermost (contiguous) dimension in the tile.
  int64_t innermostOutputExtent(const std::vector<int64_t> &tileExtents) const {
    if (f.outputLoops.empty())
      return 1;
    return tileExtents[f.outputLoops.back()];
  }

  void tile(const Step &step, float *token) {
    // The loops this step tiles and their sizes.
    std::vector<int64_t> sizes(extents.size(), 0);
    if (step.kind == TokenKind::Fuse) {
      for (auto [dim, size] : llvm::enumerate(step.sizes)) {
        if (dim >= f.outputLoops.size())
          break;
        for (unsigned loop = 0; loop < origins.size(); ++loop)
          if (origins[loop] == f.outputLoops[dim]) {
            sizes[loop] = value(size);
            break;
          }
      }
    } else {
      for (auto [loop, size] : llvm::enumerate(step.sizes))
        if (loop < sizes.size())
          sizes[loop] = value(size);
    }
    double iterations = 1;
    unsigned tiled = 0, withRemainder = 0;
    std::vector<double> ratio(kLoopSlots, 1.0);
    for (unsigned loop = 0; loop < extents.size(); ++loop) {
      if (sizes[loop] <= 0 || sizes[loop] >= extents[loop])
        continue;
      int64_t before = extents[loop];
      extents[loop] = sizes[loop];
      iterations *= static_cast<double>((before + sizes[loop] - 1) / sizes[loop]);
      ++tiled;
      withRemainder += before % sizes[loop] != 0;
      ratio[slot(origins[loop])] *=
          static_cast<double>(sizes[loop]) / static_cast<double>(before);
    }
    remainderFraction = tiled ? static_cast<float>(withRemainder) / tiled : 0;
    ++level;

    std::vector<int64_t> tileExtents = taskExtents();
    for (unsigned s = 0; s < kLoopSlots; ++s)
      token[token::kLoopRatio + s] = static_cast<float>(ratio[s]);
    for (auto [loop, extent] : llvm::enumerate(tileExtents))
      token[token::kLoopLog + slot(loop)] += log2Scaled(extent, 12);
    // Nesting: the interchange lists loops outermost first; tiled loops
    // take the rank they have among the tiled ones.
    std::vector<int64_t> order = step.interchange;
    if (order.empty())
      for (unsigned loop = 0; loop < extents.size(); ++loop)
        order.push_back(loop);
    unsigned nested = llvm::count_if(sizes, [](int64_t size) { return size > 0; });
    unsigned rank = 0;
    for (int64_t loop : order)
      if (loop >= 0 && loop < static_cast<int64_t>(sizes.size()) &&
          sizes[loop] > 0)
        token[token::kLoopNest + slot(origins[loop])] =
            static_cast<float>(++rank) / static_cast<float>(nested);

    double bytes = footprint(tileExtents);
    double tileFlops = f.flops;
    for (auto [loop, extent] : llvm::enumerate(tileExtents))
      tileFlops *= static_cast<double>(extent) /
                   static_cast<double>(std::max<int64_t>(1, f.bounds[loop]));
    float *numeric = token + token::kNumeric;
    numeric[0] = level / 4.0f;
    numeric[1] = log2Scaled(bytes, 32);
    numeric[2] = logRatio(bytes, f.hardware.registerFileBytes());
    numeric[3] = logRatio(bytes, f.hardware.caches.l1Bytes);
    numeric[4] = logRatio(bytes, f.hardware.caches.l2Bytes);
    numeric[5] = logRatio(bytes, f.hardware.caches.l3Bytes);
    numeric[6] = log2Scaled(iterations, 24);
    numeric[7] = remainderFraction;
    numeric[8] = std::min(16.0f, static_cast<float>(innermostOutputExtent(tileExtents)) /
                                     static_cast<float>(f.lanes)) / 16.0f;
    numeric[9] = step.kind == TokenKind::ThreadTile
                     ? log2Scaled(iterations, 6)
                     : 0.0f;
    numeric[10] = log2Scaled(1 + tileFlops / std::max(bytes, 1.0), 8);
    numeric[11] = log2Scaled(outputReloads(tileExtents), 12);
  }

  /// How many times each output element is read and written back: once
  /// per tile of every reduction loop split so far. Splitting K of a large
  /// matmul makes small, cache-resident tiles that stream the output tile
  /// K / tile_k times; the loop ratio says so only as a number near zero.
  double outputReloads(const std::vector<int64_t> &tileExtents) const {
    double reloads = 1;
    for (auto [loop, extent] : llvm::enumerate(tileExtents))
      if (f.isReduction[loop])
        reloads *= std::ceil(static_cast<double>(f.bounds[loop]) /
                             static_cast<double>(std::max<int64_t>(1, extent)));
    return reloads;
  }

  void pack(const Step &step, float *token) {
    ++level;
    unsigned loops = extents.size();
    for (unsigned loop = 0; loop < loops && loop < step.sizes.size(); ++loop) {
      int64_t size = value(step.sizes[loop]);
      if (size <= 0)
        continue;
      token[token::kLoopRatio + slot(origins[loop])] =
          static_cast<float>(size) / static_cast<float>(std::max<int64_t>(1, extents[loop]));
      token[token::kLoopLog + slot(origins[loop])] = log2Scaled(size, 12);
      // The packed op iterates over whole panels, then within a panel.
      extents[loop] = (extents[loop] + size - 1) / size;
      extents.push_back(size);
      origins.push_back(origins[loop]);
    }
    token[token::kNumeric + 0] = level / 4.0f;
    token[token::kNumeric + 8] =
        std::min(16.0f, static_cast<float>(innermostOutputExtent(taskExtents())) /
                            static_cast<float>(f.lanes)) / 16.0f;
  }

  void vectorize(float *token) {
    std::vector<int64_t> tileExtents = taskExtents();
    double parallel = 1, reduction = 1;
    bool reduces = false;
    for (auto [loop, extent] : llvm::enumerate(tileExtents)) {
      token[token::kLoopLog + slot(loop)] += log2Scaled(extent, 12);
      (f.isReduction[loop] ? reduction : parallel) *= static_cast<double>(extent);
      reduces |= f.isReduction[loop];
    }
    double outputElements = 0;
    for (const ScheduleFeaturizer::Access &access : f.accesses)
      if (access.isOutput)
        outputElements += elementsOf(access, tileExtents);
    double accumulators = std::ceil(outputElements / static_cast<double>(f.lanes));
    int64_t innermost = innermostOutputExtent(tileExtents);
    // A reducing op's register tile stays live across the reduction loops
    // (tiled to reg_k or not), with a row of the other operand's vectors
    // and a broadcast.
    double live = accumulators;
    if (reduces)
      live += std::ceil(static_cast<double>(innermost) / f.lanes) + 1;
    // Register counts enter only against the register file: a model that
    // learned "16 accumulators" on 16-register targets must read a 32-register
    // target's 28 as the same half-empty-or-full question, not as new ground.
    double registerFile = f.hardware.vectorRegisters;
    float *numeric = token + token::kNumeric;
    numeric[0] = logRatio(parallel, registerFile * f.lanes);
    numeric[1] = static_cast<float>(std::min(2.0, accumulators / registerFile) / 2.0);
    numeric[2] = std::min(4.0f, static_cast<float>(innermost) /
                                    static_cast<float>(f.lanes)) / 4.0f;
    numeric[3] = innermost % f.lanes == 0 ? 1.0f : 0.0f;
    numeric[4] = log2Scaled(reduction, 12);
    numeric[5] = log2Scaled(footprint(tileExtents), 32);
    numeric[6] = static_cast<float>(std::min(2.0, live / registerFile) / 2.0);
    numeric[7] = remainderFraction;
    numeric[8] = live > registerFile ? 1.0f : 0.0f;
  }

  const ScheduleFeaturizer &f;
  const Assignment &assignment;
  TokenSequence &sequence;
  std::vector<int64_t> extents;
  std::vector<unsigned> origins;
  unsigned level = 0;
  float remainderFraction = 0;
};
} // namespace tcl

void ScheduleFeaturizer::featurize(const Assignment &assignment,
                                   TokenSequence &sequence) const {
  StepReplay(*this, assignment, sequence).run();
}
