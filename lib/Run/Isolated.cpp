//===- Isolated.cpp - Run untrusted work in a child process ---------------===//

#include "tcl/Run/Isolated.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tcl;

char IsolationError::ID = 0;

static llvm::Error childFailure(IsolationError::Kind kind,
                                const llvm::Twine &message) {
  return llvm::make_error<IsolationError>(kind, message.str());
}

llvm::Expected<std::string>
tcl::runIsolated(llvm::function_ref<std::string()> body,
                 const IsolationLimits &limits) {
  int fds[2];
  if (pipe(fds) != 0)
    return llvm::createStringError("pipe: " +
                                   llvm::Twine(std::strerror(errno)));
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return llvm::createStringError("fork: " +
                                   llvm::Twine(std::strerror(errno)));
  }
  if (child == 0) {
    // The child never outlives the process waiting for it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    close(fds[0]);
    if (limits.memoryBytes) {
      struct rlimit limit = {limits.memoryBytes, limits.memoryBytes};
      setrlimit(RLIMIT_AS, &limit);
    }
    std::string result = body();
    const char *data = result.data();
    size_t left = result.size();
    while (left > 0) {
      ssize_t written = write(fds[1], data, left);
      if (written <= 0)
        _exit(3);
      data += written;
      left -= written;
    }
    close(fds[1]);
    // Skip static destructors and atexit handlers of the parent's objects.
    _exit(0);
  }
  close(fds[1]);
  std::string output;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(limits.timeoutSeconds);
  bool timedOut = false;
  char buffer[65536];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    struct pollfd descriptor = {fds[0], POLLIN, 0};
    int ready = poll(&descriptor, 1, static_cast<int>(std::min<long>(left, 1000)));
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0)
      continue;
    ssize_t count = read(fds[0], buffer, sizeof(buffer));
    if (count <= 0)
      break; // EOF: the child closed its end (finished or died).
    output.append(buffer, count);
  }
  close(fds[0]);
  if (timedOut)
    kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  if (timedOut)
    return childFailure(IsolationError::Kind::TimedOut,
                        "timed out after " + llvm::Twine(limits.timeoutSeconds) +
                            " s");
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    if (signal == SIGKILL && limits.memoryBytes)
      return childFailure(IsolationError::Kind::Crashed,
                          "killed (signal 9; out of memory?)");
    return childFailure(IsolationError::Kind::Crashed,
                        "crashed (signal " + llvm::Twine(signal) + ", " +
                            strsignal(signal) + ")");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return childFailure(IsolationError::Kind::Exited,
                        "exited with status " +
                            llvm::Twine(WEXITSTATUS(status)) +
                            (limits.memoryBytes ? " (out of memory?)" : ""));
  return output;
}
