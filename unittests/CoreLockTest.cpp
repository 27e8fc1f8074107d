//===- CoreLockTest.cpp - Exclusive use of cores for measurement ----------===//

#include "tcl/Run/CoreLock.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tcl;

namespace {

TEST(CoreLock, AnotherProcessWaitsUntilTheHolderReleases) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tcl-locks", directory));
  setenv("TCL_CORE_LOCK_DIR", directory.c_str(), 1);
  // The child is forked before the parent locks (a forked child would share
  // the parent's lock), and starts competing once told the lock is held.
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    char byte;
    if (read(ready[0], &byte, 1) != 1)
      _exit(2);
    llvm::Expected<CoreLock> lock = CoreLock::acquire({1});
    _exit(lock ? 0 : 1);
  }
  std::optional<CoreLock> held;
  {
    llvm::Expected<CoreLock> lock = CoreLock::acquire({0, 1});
    ASSERT_TRUE(bool(lock)) << llvm::toString(lock.takeError());
    held.emplace(std::move(*lock));
  }
  ASSERT_EQ(write(ready[1], "x", 1), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, WNOHANG), 0) << "the child did not wait";
  held.reset();
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  close(ready[0]);
  close(ready[1]);
  unsetenv("TCL_CORE_LOCK_DIR");
  llvm::sys::fs::remove_directories(directory);
}

TEST(CoreLock, PinningRestrictsTheAllowedCores) {
  llvm::SmallVector<unsigned> before = allowedCores();
  ASSERT_FALSE(before.empty());
  ASSERT_FALSE(bool(pinToCores({before.front()})));
  EXPECT_EQ(allowedCores(), llvm::SmallVector<unsigned>{before.front()});
  ASSERT_FALSE(bool(pinToCores(before)));
  EXPECT_EQ(allowedCores(), before);
}

} // namespace
