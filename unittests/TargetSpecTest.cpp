//===- TargetSpecTest.cpp - Target strings users type ---------------------===//

#include "tcl/Target/TargetSpec.h"

#include "gtest/gtest.h"

using namespace tcl;

namespace {

std::string parseError(llvm::StringRef text) {
  llvm::Expected<TargetSpec> spec = TargetSpec::parse(text);
  if (spec)
    return "";
  return llvm::toString(spec.takeError());
}

TEST(TargetSpec, ParsesAndSpellsCanonically) {
  TargetSpec spec = llvm::cantFail(TargetSpec::parse("x86_64:x86-64-v3"));
  EXPECT_EQ(spec.cpu, "x86-64-v3");
  EXPECT_EQ(spec.threads, 1u);
  EXPECT_EQ(spec.name(), "x86_64:x86-64-v3:1t");
  spec = llvm::cantFail(TargetSpec::parse("x86_64:x86-64-v4,-avx512f:2t"));
  EXPECT_EQ(spec.features, "-avx512f");
  EXPECT_EQ(spec.threads, 2u);
  EXPECT_EQ(spec.name(), "x86_64:x86-64-v4,-avx512f:2t");
  EXPECT_EQ(llvm::cantFail(spec.resolve()).vectorBits(), 256u);
  EXPECT_EQ(llvm::cantFail(TargetSpec::parse("x86_64:host")).name(),
            "x86_64:host:1t");
}

TEST(TargetSpec, DiagnosesEachPart) {
  EXPECT_NE(parseError("x86-64-v3").find("wrong number"), std::string::npos);
  EXPECT_NE(parseError("arm64:cortex-a72").find("unknown architecture 'arm64'"),
            std::string::npos);
  EXPECT_NE(parseError("x86_64:pentium9").find("unknown CPU 'pentium9'"),
            std::string::npos);
  EXPECT_NE(parseError("x86_64:x86-64-v3,+avx9").find("unknown CPU feature 'avx9'"),
            std::string::npos);
  EXPECT_NE(parseError("x86_64:x86-64-v3:0t").find("thread count '0t'"),
            std::string::npos);
  EXPECT_NE(parseError("x86_64:x86-64-v3:two").find("thread count 'two'"),
            std::string::npos);
}

} // namespace
