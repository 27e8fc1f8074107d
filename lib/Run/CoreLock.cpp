//===- CoreLock.cpp - Exclusive use of CPU cores for measurement ----------===//

#include "tcl/Run/CoreLock.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tcl;

static llvm::Error systemError(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 what + ": " + std::strerror(errno));
}

/// World-writable like /tmp itself: collectors of several users share the
/// machine.
llvm::Expected<std::string> tcl::coreLockDirectory() {
  const char *fromEnvironment = std::getenv("TCL_CORE_LOCK_DIR");
  std::string directory =
      fromEnvironment && *fromEnvironment ? fromEnvironment : "/tmp/tcl-core-locks";
  if (mkdir(directory.c_str(), 01777) != 0 && errno != EEXIST)
    return systemError("cannot create " + directory);
  return directory;
}

static llvm::Error lockFile(int descriptor, int operation,
                            const std::string &path) {
  while (flock(descriptor, operation) != 0)
    if (errno != EINTR)
      return systemError("cannot lock " + path);
  return llvm::Error::success();
}

llvm::Expected<CoreLock> CoreLock::acquire(llvm::ArrayRef<unsigned> cores) {
  llvm::Expected<std::string> directory = coreLockDirectory();
  if (!directory)
    return directory.takeError();
  llvm::SmallVector<unsigned> sorted(cores.begin(), cores.end());
  llvm::sort(sorted);
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  CoreLock lock;
  for (unsigned core : sorted) {
    std::string path = *directory + "/core" + std::to_string(core) + ".lock";
    int descriptor = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (descriptor < 0)
      return systemError("cannot open " + path);
    lock.descriptors.push_back(descriptor);
    if (llvm::Error error = lockFile(descriptor, LOCK_EX, path))
      return std::move(error);
  }
  return std::move(lock);
}

static std::string machineLockPath(const std::string &directory) {
  return directory + "/machine.lock";
}

llvm::Expected<MachineLock> MachineLock::open() {
  llvm::Expected<std::string> directory = coreLockDirectory();
  if (!directory)
    return directory.takeError();
  std::string path = machineLockPath(*directory);
  int descriptor = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (descriptor < 0)
    return systemError("cannot open " + path);
  return MachineLock(descriptor);
}

MachineLock::~MachineLock() {
  if (descriptor >= 0)
    close(descriptor);
}

llvm::Error MachineLock::shared() {
  return lockFile(descriptor, LOCK_SH, "the machine lock");
}

llvm::Error MachineLock::exclusive() {
  return lockFile(descriptor, LOCK_EX, "the machine lock");
}

CoreLock::~CoreLock() {
  for (int descriptor : descriptors)
    close(descriptor); // Closing the last descriptor releases the flock.
}

llvm::Error tcl::pinToCores(llvm::ArrayRef<unsigned> cores) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (unsigned core : cores)
    CPU_SET(core, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0)
    return systemError("cannot pin to the requested cores");
  return llvm::Error::success();
}

llvm::SmallVector<unsigned> tcl::allowedCores() {
  llvm::SmallVector<unsigned> cores;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return cores;
  for (unsigned core = 0; core < CPU_SETSIZE; ++core)
    if (CPU_ISSET(core, &set))
      cores.push_back(core);
  return cores;
}
