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
#include <string>

namespace tcl {

enum class ElementKind { F32, F64, I8, I32, I64 };

/// Element kind of an MLIR element type name ("f32", "i64", ...).
llvm::Expected<ElementKind> parseElementKind(llvm::StringRef name);
unsigned elementBytes(ElementKind kind);

/// Result of comparing a tensor against a reference.
struct Comparison {
  int64_t mismatches = 0;
  double maxAbsError = 0;
  double maxRelError = 0;
  int64_t firstMismatch = -1;
  bool hasNaN = false;
  bool ok() const { return mismatches == 0 && !hasNaN; }
};

class HostTensor {
public:
  HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  ElementKind kind() const { return elementKind; }
  llvm::ArrayRef<int64_t> shape() const { return dims; }
  int64_t numElements() const { return count; }
  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }

  /// Uniform values in [-1, 1) (floats) or [-8, 8) (integers) from `seed`:
  /// the same seed always gives the same tensor.
  void fillRandom(uint64_t seed);
  void fillZero();
  /// Element `index` of the flattened tensor, as a double.
  double at(int64_t index) const;

  /// Elementwise |this - reference| <= atol + rtol * max|reference|.
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
