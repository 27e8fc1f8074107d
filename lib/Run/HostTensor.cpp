//===- HostTensor.cpp - Owned, aligned tensors passed to JIT code ---------===//

#include "tcl/Run/HostTensor.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sys/mman.h>

using namespace tcl;

llvm::Expected<ElementKind> tcl::parseElementKind(llvm::StringRef name) {
  std::optional<ElementKind> kind =
      llvm::StringSwitch<std::optional<ElementKind>>(name)
          .Case("f32", ElementKind::F32)
          .Case("f64", ElementKind::F64)
          .Case("i8", ElementKind::I8)
          .Case("i32", ElementKind::I32)
          .Case("i64", ElementKind::I64)
          .Default(std::nullopt);
  if (!kind)
    return llvm::createStringError("unsupported element type '" + name.str() +
                                   "' (expected f32, f64, i8, i32 or i64)");
  return *kind;
}

unsigned tcl::elementBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::I8:
    return 1;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  }
  llvm_unreachable("unknown ElementKind");
}

static llvm::StringRef elementName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  }
  llvm_unreachable("unknown ElementKind");
}

/// 64-byte alignment: a full cache line and an AVX-512 register.
static constexpr size_t kAlignment = 64;
/// Tensors of at least one huge page are aligned to it and backed by
/// transparent huge pages: the L2 sets a tensor maps to then no longer
/// depend on which physical 4 KiB pages a process happens to get, which
/// made the same schedule measure differently from one process to the next.
static constexpr size_t kHugePage = 2 << 20;

static char *allocateAligned(size_t bytes) {
  size_t alignment = bytes >= kHugePage ? kHugePage : kAlignment;
  size_t rounded =
      (std::max<size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
  void *memory = std::aligned_alloc(alignment, rounded);
  if (!memory)
    llvm::report_fatal_error("out of memory allocating a tensor");
  if (alignment == kHugePage)
    (void)madvise(memory, rounded, MADV_HUGEPAGE); // advice; may be ignored
  // Touch every page now: first-touch faults are slow on these VMs and
  // must not land inside a timed region.
  std::memset(memory, 0, rounded);
  return static_cast<char *>(memory);
}

HostTensor::HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape)
    : elementKind(kind), dims(shape.begin(), shape.end()), count(1),
      storage(nullptr, std::free) {
  for (int64_t dim : dims)
    count *= dim;
  storage.reset(allocateAligned(count * elementBytes(kind)));
  // {allocated, aligned, offset, sizes..., strides...}, all 64-bit words.
  descriptorWords.push_back(reinterpret_cast<intptr_t>(storage.get()));
  descriptorWords.push_back(reinterpret_cast<intptr_t>(storage.get()));
  descriptorWords.push_back(0);
  llvm::append_range(descriptorWords, dims);
  llvm::SmallVector<int64_t> strides(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * dims[i + 1];
  llvm::append_range(descriptorWords, strides);
}

void HostTensor::fillZero() {
  std::memset(storage.get(), 0, count * elementBytes(elementKind));
}

void HostTensor::fillRandom(uint64_t seed, const InputDomain &domain) {
  bool positive = domain.positive;
  double scale = domain.scale;
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> real(positive ? 0.5 : -1.0,
                                              positive ? 1.5 : 1.0);
  std::uniform_int_distribution<int64_t> integer(
      domain.indexBound ? 0 : positive ? 1 : -8,
      domain.indexBound ? std::max<int64_t>(*domain.indexBound - 1, 0) : 7);
  for (int64_t i = 0; i < count; ++i) {
    switch (elementKind) {
    case ElementKind::F32:
      static_cast<float *>(data())[i] =
          static_cast<float>(scale * real(generator));
      break;
    case ElementKind::F64:
      static_cast<double *>(data())[i] = scale * real(generator);
      break;
    case ElementKind::I8:
      static_cast<int8_t *>(data())[i] = static_cast<int8_t>(integer(generator));
      break;
    case ElementKind::I32:
      static_cast<int32_t *>(data())[i] =
          static_cast<int32_t>(integer(generator));
      break;
    case ElementKind::I64:
      static_cast<int64_t *>(data())[i] = integer(generator);
      break;
    }
  }
}

double HostTensor::at(int64_t index) const {
  switch (elementKind) {
  case ElementKind::F32:
    return static_cast<const float *>(data())[index];
  case ElementKind::F64:
    return static_cast<const double *>(data())[index];
  case ElementKind::I8:
    return static_cast<const int8_t *>(data())[index];
  case ElementKind::I32:
    return static_cast<const int32_t *>(data())[index];
  case ElementKind::I64:
    return static_cast<double>(static_cast<const int64_t *>(data())[index]);
  }
  llvm_unreachable("unknown ElementKind");
}

Comparison HostTensor::compare(const HostTensor &reference, double atol,
                               double rtol) const {
  Comparison result;
  if (reference.count != count || reference.elementKind != elementKind) {
    result.mismatches = std::max(count, reference.count);
    return result;
  }
  // Tolerances scale with the largest reference magnitude, not with each
  // element: an output that is a small difference of large partial sums
  // carries the rounding error of those sums, whatever the summation order.
  double scale = 0;
  for (int64_t i = 0; i < count; ++i)
    if (std::isfinite(reference.at(i)))
      scale = std::max(scale, std::fabs(reference.at(i)));
  double tolerance = atol + rtol * scale;
  auto mismatch = [&](int64_t i) {
    ++result.mismatches;
    if (result.firstMismatch < 0)
      result.firstMismatch = i;
  };
  for (int64_t i = 0; i < count; ++i) {
    double actual = at(i), expected = reference.at(i);
    if (!std::isfinite(expected)) {
      ++result.nonFiniteReference;
      continue;
    }
    if (!std::isfinite(actual)) {
      ++result.nonFinite;
      mismatch(i);
      continue;
    }
    double error = std::fabs(actual - expected);
    result.maxAbsError = std::max(result.maxAbsError, error);
    if (expected != 0)
      result.maxRelError =
          std::max(result.maxRelError, error / std::fabs(expected));
    if (error > tolerance)
      mismatch(i);
  }
  return result;
}

std::string HostTensor::typeString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t dim : dims)
    os << dim << "x";
  os << elementName(elementKind);
  return text;
}
