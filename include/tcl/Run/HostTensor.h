//===- HostTensor.h - Owned, aligned tensors passed to JIT code -*- C++ -*-===//
//
// A HostTensor owns 64-byte aligned storage and the strided memref
// descriptor that MLIR's C interface expects ({allocated, aligned, offset,
// sizes[rank], strides[rank]}), for any rank known only at run time.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_RUN_HOSTTENSOR_H
#define TCL_RUN_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tcl {

enum class ElementKind { F32, F64, I8, I32, I64 };

/// Element kind of an MLIR element type name ("f32", "i64", ...).
llvm::Expected<ElementKind> parseElementKind(llvm::StringRef name);
unsigned elementBytes(ElementKind kind);

/// The values a random input may take, so that random inputs keep a model
/// that is finite and in bounds on real data so on tcl's (inferInputDomain).
struct InputDomain {
  /// Floats that reach a square root or a logarithm (a batch-norm variance)
  /// are drawn positive.
  bool positive = false;
  /// Integers used as indices into a dimension of this size (token ids into
  /// an embedding table) are drawn in [0, indexBound).
  std::optional<int64_t> indexBound;
  /// Floats that are a layer's weights (a convolution's filter, a
  /// contraction's second operand) are drawn at PyTorch's initialisation
  /// scale, [-1, 1) x sqrt(3 / fan-in): on unit weights a deep network's
  /// activations grow by about sqrt(fan-in) a layer until they overflow, and
  /// long before that its rounding errors outgrow any tolerance.
  double scale = 1.0;
};

/// Result of comparing a tensor against a reference.
struct Comparison {
  /// Elements beyond the tolerance, NaN or infinite ones included.
  int64_t mismatches = 0;
  /// Elements that are NaN or infinite where the reference is finite.
  int64_t nonFinite = 0;
  /// Reference elements that are NaN or infinite: nothing can be judged
  /// against them, so a comparison that has any does not pass.
  int64_t nonFiniteReference = 0;
  double maxAbsError = 0;
  double maxRelError = 0;
  int64_t firstMismatch = -1;
  bool ok() const { return mismatches == 0 && nonFiniteReference == 0; }
};

class HostTensor {
public:
  HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  ElementKind kind() const { return elementKind; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  int64_t numElements() const { return count; }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  /// Uniform values from `seed`: floats in [-1, 1) times `domain.scale`, or
  /// in [0.5, 1.5) times it when `domain.positive`; integers in [-8, 8), or
  /// [1, 8) when positive, or [0, indexBound). The same arguments always
  /// give the same tensor.
  void fillRandom(uint64_t seed, const InputDomain &domain = {});
  void fillZero();
  /// Element `index` of the flattened tensor, as a double.
  double at(int64_t index) const;

  /// Elementwise |this - reference| <= atol + rtol * max|reference| over
  /// the reference's finite elements; a NaN or infinity where the reference
  /// is finite is a mismatch.
  Comparison compare(const HostTensor &reference, double atol,
                     double rtol) const;

  /// Pointer to the memref descriptor, laid out as MLIR's C interface
  /// expects for this rank; stays valid for the tensor's lifetime.
  void *descriptor() { return descriptorWords.data(); }

  /// "1x56x56x64xf32".
  std::string typeString() const;

private:
  ElementKind elementKind;
  llvm::SmallVector<int64_t> dims;
  int64_t count;
  std::unique_ptr<char, void (*)(void *)> storage;
  llvm::SmallVector<int64_t> descriptorWords;
};

} // namespace tcl

#endif // TCL_RUN_HOSTTENSOR_H
