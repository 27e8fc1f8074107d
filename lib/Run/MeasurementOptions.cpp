//===- MeasurementOptions.cpp - Command-line timing options ---------------===//

#include "tcl/Run/MeasurementOptions.h"

using namespace tcl;
namespace cl = llvm::cl;

MeasurementOptions::MeasurementOptions(cl::OptionCategory &category)
    : warmup("warmup", cl::desc("Untimed calls before timing"),
             cl::init(MeasurementPolicy().warmup), cl::cat(category)),
      repeats("repeats",
              cl::desc("Exactly this many single-call samples (0: adaptive, "
                       "see --target-spread)"),
              cl::init(0), cl::cat(category)),
      minRepeats("min-repeats", cl::desc("Fewest samples of adaptive timing"),
                 cl::init(MeasurementPolicy().minRepeats), cl::cat(category)),
      maxRepeats("max-repeats", cl::desc("Most samples of adaptive timing"),
                 cl::init(MeasurementPolicy().maxRepeats), cl::cat(category)),
      targetSpread("target-spread",
                   cl::desc("Adaptive timing stops once the samples' "
                            "(p90 - p10) / median is at most this"),
                   cl::init(MeasurementPolicy().targetSpread),
                   cl::cat(category)),
      maxSeconds("max-measure-seconds",
                 cl::desc("Timed budget of adaptive timing, per measurement"),
                 cl::init(MeasurementPolicy().maxSeconds), cl::cat(category)),
      contentionTolerance(
          "contention-tolerance",
          cl::desc("Keep a sample only if a core-contention probe run before "
                   "and after it is at most this much slower than its "
                   "fastest run on this machine (0: keep every sample)"),
          cl::init(MeasurementPolicy().contentionTolerance), cl::cat(category)),
      maxContendedSeconds(
          "max-contended-seconds",
          cl::desc("Longest wait, per measurement, for the core to become "
                   "quiet before keeping samples regardless"),
          cl::init(MeasurementPolicy().maxContendedSeconds),
          cl::cat(category)) {}

MeasurementPolicy MeasurementOptions::policy() const {
  // Exactly N samples means N samples, contended or not.
  if (repeats > 0)
    return MeasurementPolicy::fixed(warmup, repeats);
  MeasurementPolicy policy;
  policy.contentionTolerance = contentionTolerance;
  policy.maxContendedSeconds = maxContendedSeconds;
  policy.warmup = warmup;
  policy.minRepeats = std::max(1u, unsigned(minRepeats));
  policy.maxRepeats = std::max(policy.minRepeats, unsigned(maxRepeats));
  policy.targetSpread = targetSpread;
  policy.maxSeconds = maxSeconds;
  return policy;
}
