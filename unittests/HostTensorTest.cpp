//===- HostTensorTest.cpp - Tensors handed to JIT-compiled code -----------===//

#include "tcl/Run/HostTensor.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

#include <cstdint>

using namespace tcl;

TEST(HostTensor, DescriptorFollowsMlirsCInterface) {
  HostTensor tensor(ElementKind::F32, {2, 3, 4});
  auto *words = static_cast<int64_t *>(tensor.descriptor());
  EXPECT_EQ(reinterpret_cast<void *>(words[0]), tensor.data()); // allocated
  EXPECT_EQ(reinterpret_cast<void *>(words[1]), tensor.data()); // aligned
  EXPECT_EQ(words[2], 0);                                       // offset
  EXPECT_EQ(words[3], 2);
  EXPECT_EQ(words[4], 3);
  EXPECT_EQ(words[5], 4);
  EXPECT_EQ(words[6], 12); // row-major strides
  EXPECT_EQ(words[7], 4);
  EXPECT_EQ(words[8], 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.data()) % 64, 0u);
  EXPECT_EQ(tensor.typeString(), "2x3x4xf32");
}

TEST(HostTensor, RandomFillIsSeededAndBounded) {
  HostTensor a(ElementKind::F32, {64}), b(ElementKind::F32, {64}),
      c(ElementKind::F32, {64});
  a.fillRandom(7);
  b.fillRandom(7);
  c.fillRandom(8);
  EXPECT_TRUE(a.compare(b, 0, 0).ok());
  EXPECT_FALSE(a.compare(c, 0, 0).ok());
  for (int64_t i = 0; i < a.numElements(); ++i) {
    EXPECT_GE(a.at(i), -1.0);
    EXPECT_LT(a.at(i), 1.0);
  }
}

TEST(HostTensor, CompareUsesToleranceScaledByTheReference) {
  HostTensor ref(ElementKind::F32, {3}), out(ElementKind::F32, {3});
  float *r = static_cast<float *>(ref.data());
  float *o = static_cast<float *>(out.data());
  r[0] = 100;  o[0] = 100;
  r[1] = 0.5f; o[1] = 0.55f; // 0.05 off: within 1e-3 * 100
  r[2] = -3;   o[2] = -3;
  Comparison near = out.compare(ref, 0, 1e-3);
  EXPECT_TRUE(near.ok());
  EXPECT_NEAR(near.maxAbsError, 0.05, 1e-6);
  o[2] = -3.2f; // 0.2 off: beyond 0.1
  Comparison far = out.compare(ref, 0, 1e-3);
  EXPECT_FALSE(far.ok());
  EXPECT_EQ(far.mismatches, 1);
  EXPECT_EQ(far.firstMismatch, 2);
}

TEST(HostTensor, NonFiniteOutputsNeverMatchAFiniteReference) {
  HostTensor ref(ElementKind::F32, {3}), out(ElementKind::F32, {3});
  float *r = static_cast<float *>(ref.data());
  float *o = static_cast<float *>(out.data());
  r[0] = 1; r[1] = 2; r[2] = 3;
  o[0] = 1; o[1] = std::numeric_limits<float>::infinity(); o[2] = NAN;
  Comparison both = out.compare(ref, 1e9, 1e9); // no tolerance excuses them
  EXPECT_FALSE(both.ok());
  EXPECT_EQ(both.mismatches, 2);
  EXPECT_EQ(both.nonFinite, 2);
  EXPECT_EQ(both.firstMismatch, 1);
}

TEST(HostTensor, ANonFiniteReferenceCannotBeJudged) {
  HostTensor ref(ElementKind::F32, {3}), out(ElementKind::F32, {3});
  float *r = static_cast<float *>(ref.data());
  float *o = static_cast<float *>(out.data());
  // One infinity in the reference must not make the tolerance infinite:
  // the finite elements are still compared on their own scale.
  r[0] = std::numeric_limits<float>::infinity(); r[1] = 1; r[2] = 2;
  o[0] = std::numeric_limits<float>::infinity(); o[1] = 1; o[2] = 5;
  Comparison cmp = out.compare(ref, 0, 1e-3);
  EXPECT_EQ(cmp.nonFiniteReference, 1);
  EXPECT_EQ(cmp.mismatches, 1);
  EXPECT_EQ(cmp.firstMismatch, 2);
  EXPECT_FALSE(cmp.ok());
  o[2] = 2;
  EXPECT_FALSE(out.compare(ref, 0, 1e-3).ok()); // still nothing to judge by
}

TEST(HostTensor, PositiveDomainFillsArePositive) {
  HostTensor a(ElementKind::F32, {256});
  InputDomain positive;
  positive.positive = true;
  positive.scale = 2.0;
  a.fillRandom(3, positive);
  for (int64_t i = 0; i < a.numElements(); ++i) {
    EXPECT_GE(a.at(i), 1.0);
    EXPECT_LT(a.at(i), 3.0);
  }
}

TEST(HostTensor, IndexFillsStayInBounds) {
  HostTensor ids(ElementKind::I64, {512});
  InputDomain bounded;
  bounded.indexBound = 3;
  ids.fillRandom(5, bounded);
  for (int64_t i = 0; i < ids.numElements(); ++i) {
    EXPECT_GE(ids.at(i), 0.0);
    EXPECT_LT(ids.at(i), 3.0);
  }
}

TEST(HostTensor, ElementKindsParseOrExplain) {
  EXPECT_EQ(cantFail(parseElementKind("f32")), ElementKind::F32);
  EXPECT_EQ(elementBytes(ElementKind::I64), 8u);
  llvm::Expected<ElementKind> bad = parseElementKind("bf16");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("bf16"), std::string::npos);
}
