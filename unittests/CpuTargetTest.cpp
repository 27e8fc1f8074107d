//===- CpuTargetTest.cpp - CPU names, features and vector widths ----------===//

#include "tcl/Target/CpuTarget.h"

#include "gtest/gtest.h"

using namespace tcl;

TEST(CpuTarget, HostResolvesToAConcreteCpu) {
  CpuTarget host = cantFail(CpuTarget::resolve("host", ""));
  EXPECT_NE(host.cpu, "host");
  EXPECT_FALSE(host.cpu.empty());
  EXPECT_FALSE(host.features.empty());
  EXPECT_GE(host.vectorBits(), 128u);
}

TEST(CpuTarget, MicroarchitectureLevelsGiveTheirVectorWidths) {
  EXPECT_EQ(cantFail(CpuTarget::resolve("x86-64-v2", "")).vectorBits(), 128u);
  EXPECT_EQ(cantFail(CpuTarget::resolve("x86-64-v3", "")).vectorBits(), 256u);
  EXPECT_EQ(cantFail(CpuTarget::resolve("x86-64-v4", "")).vectorBits(), 512u);
  EXPECT_EQ(cantFail(CpuTarget::resolve("x86-64-v4", "-avx512f")).vectorBits(),
            256u);
  EXPECT_EQ(cantFail(CpuTarget::resolve("x86-64-v3", "")).fp32Lanes(), 8u);
}

TEST(CpuTarget, RejectsUnknownCpusAndFeatures) {
  llvm::Expected<CpuTarget> cpu = CpuTarget::resolve("pentium9000", "");
  ASSERT_FALSE(static_cast<bool>(cpu));
  EXPECT_NE(llvm::toString(cpu.takeError()).find("pentium9000"),
            std::string::npos);
  llvm::Expected<CpuTarget> feature = CpuTarget::resolve("host", "-avx9000");
  ASSERT_FALSE(static_cast<bool>(feature));
  EXPECT_NE(llvm::toString(feature.takeError()).find("avx9000"),
            std::string::npos);
  llvm::Expected<CpuTarget> unsigned_ = CpuTarget::resolve("host", "avx2");
  ASSERT_FALSE(static_cast<bool>(unsigned_));
  EXPECT_NE(llvm::toString(unsigned_.takeError()).find("+name or -name"),
            std::string::npos);
  EXPECT_FALSE(static_cast<bool>(CpuTarget::resolve("host", "", 0)));
  llvm::consumeError(CpuTarget::resolve("host", "", 0).takeError());
}

TEST(CpuTarget, CreatesATargetMachineForTheResolvedCpu) {
  CpuTarget target = cantFail(CpuTarget::resolve("x86-64-v3", ""));
  std::unique_ptr<llvm::TargetMachine> machine =
      cantFail(target.createTargetMachine());
  EXPECT_EQ(machine->getTargetCPU(), "x86-64-v3");
}
