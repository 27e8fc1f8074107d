//===- ContentionProbe.cpp - Is another tenant sharing our core? ----------===//

#include "tcl/Run/ContentionProbe.h"
#include "tcl/Run/CoreLock.h"

#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>
#include <unistd.h>

using namespace tcl;

namespace {
/// Four floats, in the baseline SSE registers every x86-64 has.
typedef float Lanes __attribute__((vector_size(16)));

/// 16 KiB: resident in any L1 data cache, so the loop's speed is the core's
/// load, store and arithmetic throughput, with no memory in it.
constexpr int kBufferLanes = 1024;
constexpr int kPasses = 16;
/// How long the fastest run stays the reference.
constexpr std::time_t kReferenceLifetimeSeconds = 600;

alignas(64) Lanes probeBuffer[kBufferLanes];
/// Where each run's result goes, so that the loop cannot be left out.
volatile float probeSink;
} // namespace

/// A load, a multiply, an add and a store per four floats, over and over the
/// same buffer. Measured against a 0.6 ms matmul kernel on the EPYC VM, this
/// loop ran 2.4x slower exactly when the kernel did (99% of its slow runs
/// had a slow probe; 1% of the kernel's runs beside a quiet probe were
/// slow), where a register-only multiply-add loop barely noticed: what the
/// neighbour takes is the load/store bandwidth the kernels live on. Not
/// inlined, so that the timed work is this loop whatever the call site.
__attribute__((noinline)) static float loadMultiplyAddStore() {
  const Lanes scale = {0.9999f, 0.9999f, 0.9999f, 0.9999f};
  const Lanes offset = {1e-4f, 1e-4f, 1e-4f, 1e-4f};
  for (int pass = 0; pass < kPasses; ++pass)
    for (int i = 0; i < kBufferLanes; ++i)
      probeBuffer[i] = probeBuffer[i] * scale + offset;
  return probeBuffer[kBufferLanes / 2][1];
}

double CoreContentionProbe::runOnce() {
  auto start = std::chrono::steady_clock::now();
  probeSink = loadMultiplyAddStore();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

CoreContentionProbe::CoreContentionProbe(double tolerance)
    : tolerance(tolerance), reference(std::numeric_limits<double>::infinity()),
      fastestHere(std::numeric_limits<double>::infinity()) {
  // A first estimate of our own: the fastest of a few runs (a few
  // microseconds each) skips single interrupts, not a contended phase.
  for (int i = 0; i < 16; ++i)
    fastestHere = std::min(fastestHere, runOnce());
  reference = fastestHere;
  llvm::Expected<std::string> directory = coreLockDirectory();
  if (!directory) {
    llvm::consumeError(directory.takeError());
    return;
  }
  referencePath = *directory + "/contention-probe-reference";
  if (std::FILE *file = std::fopen(referencePath.c_str(), "r")) {
    double shared = 0;
    long long written = 0;
    if (std::fscanf(file, "%lf %lld", &shared, &written) == 2 && shared > 0 &&
        std::time(nullptr) - written < kReferenceLifetimeSeconds)
      reference = std::min(reference, shared); // else expired: start afresh
    std::fclose(file);
  }
}

CoreContentionProbe::~CoreContentionProbe() {
  // Share the reference if this process ran as fast (re-observing it keeps
  // it alive) or faster. Written whole, then renamed over the old file, so
  // readers see one or the other.
  if (referencePath.empty() || fastestHere > reference * 1.02)
    return;
  std::string temporary = referencePath + "." + std::to_string(getpid());
  std::FILE *file = std::fopen(temporary.c_str(), "w");
  if (!file)
    return;
  std::fprintf(file, "%.9g %lld\n", reference,
               static_cast<long long>(std::time(nullptr)));
  bool written = std::fclose(file) == 0;
  if (!written || std::rename(temporary.c_str(), referencePath.c_str()) != 0)
    std::remove(temporary.c_str());
}

bool CoreContentionProbe::quiet() {
  // The faster of two runs: one interrupt does not make a phase.
  double now = std::min(runOnce(), runOnce());
  fastestHere = std::min(fastestHere, now);
  reference = std::min(reference, now);
  return now <= reference * (1 + tolerance);
}
