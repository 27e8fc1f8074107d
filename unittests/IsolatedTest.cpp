//===- IsolatedTest.cpp - Candidates that crash, hang or succeed ----------===//

#include "tcl/Run/Isolated.h"

#include "gtest/gtest.h"

#include <csignal>
#include <thread>

using namespace tcl;

TEST(Isolated, ReturnsTheChildsResult) {
  llvm::Expected<std::string> result =
      runIsolated([] { return std::string(100000, 'x'); }, {});
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->size(), 100000u);
}

TEST(Isolated, ACrashIsReportedNotPropagated) {
  llvm::Expected<std::string> result = runIsolated(
      [] {
        std::raise(SIGSEGV);
        return std::string("unreachable");
      },
      {});
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()),
            "crashed (signal 11, Segmentation fault)");
}

TEST(Isolated, AHangIsKilledAtTheTimeout) {
  IsolationLimits limits;
  limits.timeoutSeconds = 1;
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<std::string> result = runIsolated(
      [] {
        while (true)
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return std::string();
      },
      limits);
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()), "timed out after 1 s");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(Isolated, RunawayMemoryHitsTheLimit) {
  IsolationLimits limits;
  limits.memoryBytes = 512ull << 20;
  llvm::Expected<std::string> result = runIsolated(
      [] {
        // 2 GiB, touched: far over the 512 MiB address-space limit.
        std::vector<char> block(2ull << 30, 1);
        return std::string(1, block.back());
      },
      limits);
  EXPECT_FALSE(bool(result));
  llvm::consumeError(result.takeError());
}
