//===- Statistics.cpp - Robust summaries of timing samples ----------------===//

#include "tcl/Run/Statistics.h"

#include <algorithm>
#include <chrono>

using namespace tcl;

double tcl::percentile(llvm::ArrayRef<double> values, double fraction) {
  if (values.empty())
    return 0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  double position = fraction * static_cast<double>(sorted.size() - 1);
  size_t lower = static_cast<size_t>(position);
  size_t upper = std::min(lower + 1, sorted.size() - 1);
  double weight = position - static_cast<double>(lower);
  return sorted[lower] * (1 - weight) + sorted[upper] * weight;
}

double tcl::median(llvm::ArrayRef<double> values) {
  return percentile(values, 0.5);
}

Timing tcl::summarize(std::vector<double> samples) {
  Timing timing;
  timing.samples = std::move(samples);
  if (timing.samples.empty())
    return timing;
  timing.median = median(timing.samples);
  timing.min = *std::min_element(timing.samples.begin(), timing.samples.end());
  timing.max = *std::max_element(timing.samples.begin(), timing.samples.end());
  if (timing.median > 0)
    timing.relativeSpread = (percentile(timing.samples, 0.9) -
                             percentile(timing.samples, 0.1)) /
                            timing.median;
  return timing;
}

Timing tcl::measure(const std::function<void()> &body, unsigned warmup,
                    unsigned repeats) {
  for (unsigned i = 0; i < warmup; ++i)
    body();
  std::vector<double> samples;
  samples.reserve(repeats);
  for (unsigned i = 0; i < repeats; ++i) {
    auto start = std::chrono::steady_clock::now();
    body();
    auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double>(stop - start).count());
  }
  return summarize(std::move(samples));
}
