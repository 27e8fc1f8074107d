//===- Tokens.h - The layout of a featurized schedule -----------*- C++ -*-===//
//
// A schedule becomes a sequence of tokens, each kFeatureSize floats: a task
// token, a hardware token, then one token per schedule step that shapes the
// loop nest (tiling, thread split, fusion, packing, peeling, decomposition,
// vectorization), in the order the script applies them. The layout of a
// token is documented in docs/features.md; every value is scaled to about
// [-1, 1] so that no feature dominates a network's first layer.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_FEATURES_TOKENS_H
#define TCL_FEATURES_TOKENS_H

#include <cstddef>

namespace tcl {

/// What a token stands for: its one-hot block.
enum class TokenKind : unsigned {
  Task,
  Hardware,
  Tile,       ///< transform.structured.tile_using_for
  ThreadTile, ///< transform.structured.tile_using_forall
  Fuse,       ///< transform.structured.fuse (tiles a consumer, fuses producers)
  Pack,       ///< transform.structured.pack
  Peel,       ///< transform.loop.peel
  Decompose,  ///< transform.structured.decompose
  Vectorize,  ///< transform.structured.vectorize
};
constexpr unsigned kTokenKinds = 9;

/// Loops a token describes one by one (in the op's loop order); ops with
/// more loops fold the extra ones into the last slot.
constexpr unsigned kLoopSlots = 8;

/// Offsets of the blocks of a token.
namespace token {
constexpr size_t kKind = 0;
/// Per loop: a ratio (tile / extent before the step; for the task token,
/// log2 of the extent / 16).
constexpr size_t kLoopRatio = kKind + kTokenKinds;
/// Per loop: log2 of the extent after the step / 12 (task token: 1 for
/// reduction loops).
constexpr size_t kLoopLog = kLoopRatio + kLoopSlots;
/// Per loop: position in the step's loop nest, (rank + 1) / loops, 0 for a
/// loop the step does not tile.
constexpr size_t kLoopNest = kLoopLog + kLoopSlots;
/// Numbers whose meaning depends on the token's kind (docs/features.md).
constexpr size_t kNumeric = kLoopNest + kLoopSlots;
constexpr size_t kNumericSize = 14;
} // namespace token

constexpr size_t kFeatureSize = token::kNumeric + token::kNumericSize;
/// What the numbers of a token mean. Model files record it, and a model
/// trained on another version is refused: its inputs would keep their size
/// and change their meaning. Bump it with every change to docs/features.md's
/// layout or scaling.
constexpr unsigned kFeatureVersion = 4;
/// Longest sequence: later steps are dropped (no tcl template comes close).
constexpr unsigned kMaxTokens = 16;

} // namespace tcl

#endif // TCL_FEATURES_TOKENS_H
