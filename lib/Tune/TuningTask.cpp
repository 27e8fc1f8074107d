//===- TuningTask.cpp - One task's state during tuning --------------------===//

#include "TuningTask.h"

#include "tcl/Run/Statistics.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>
#include <limits>

using namespace tcl;

std::optional<Assignment> TuningTask::parse(llvm::StringRef text) const {
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::SplitString(text, parts, ",");
  std::vector<std::string> items(parts.begin(), parts.end());
  mlir::MLIRContext *context = featurizer->payload()->getContext();
  // Records come from this space; one that no longer parses (the template
  // changed since it was measured) is skipped quietly.
  mlir::ScopedDiagnosticHandler quiet(context, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  llvm::FailureOr<Assignment> parsed = space().parseAssignment(
      items, std::nullopt,
      [&]() { return mlir::emitError(mlir::UnknownLoc::get(context)); });
  if (failed(parsed))
    return std::nullopt;
  return std::move(*parsed);
}

void TuningTask::addRecord(const RecordRow &record) {
  if (!measured.insert(record.assignment).second)
    ++confirmations;
  // Only vectorized, correct schedules count, as in the dataset.
  if (record.status != "ok" || record.scalarFallback || !record.medianSeconds) {
    // A schedule that failed once (measured again by Tuner::confirmBest) is
    // never chosen, however fast it ran before.
    auto entry = timings.find(record.assignment);
    if (entry != timings.end()) {
      size_t index = entry->second.index;
      valid.erase(valid.begin() + index);
      timings.erase(entry);
      for (auto &[schedule, later] : timings)
        if (later.index > index)
          --later.index;
    }
    failedSchedules.insert(record.assignment);
    lastFailure = record.status == "ok" ? "scalar code from a vectorizing "
                                          "schedule"
                                        : record.status + ": " + record.error;
    return;
  }
  if (failedSchedules.count(record.assignment))
    return;
  auto [entry, first] =
      timings.try_emplace(record.assignment, Timings{valid.size(), {}});
  if (first)
    valid.push_back({record.assignment, 0.0});
  entry->second.seconds.push_back(*record.medianSeconds);
  valid[entry->second.index].second = median(entry->second.seconds);
}

size_t TuningTask::timesMeasured(llvm::StringRef schedule) const {
  auto entry = timings.find(schedule);
  return entry == timings.end() ? 0 : entry->second.seconds.size();
}

std::optional<std::pair<std::string, double>> TuningTask::best() const {
  if (valid.empty())
    return std::nullopt;
  return *std::min_element(valid.begin(), valid.end(),
                           [](const auto &a, const auto &b) {
                             return a.second < b.second;
                           });
}

double TuningTask::bestSeconds() const {
  std::optional<std::pair<std::string, double>> fastest = best();
  return fastest ? fastest->second : std::numeric_limits<double>::infinity();
}

std::vector<Assignment> TuningTask::measuredAssignments() const {
  std::vector<Assignment> result;
  for (const std::string &text : measured)
    if (std::optional<Assignment> parsed = parse(text))
      result.push_back(std::move(*parsed));
  return result;
}

std::vector<std::pair<Assignment, double>>
TuningTask::timedAssignments() const {
  std::vector<std::pair<Assignment, double>> result;
  for (const auto &[text, seconds] : valid)
    if (std::optional<Assignment> parsed = parse(text))
      result.push_back({std::move(*parsed), seconds});
  std::stable_sort(result.begin(), result.end(),
                   [](const auto &a, const auto &b) { return a.second < b.second; });
  return result;
}

OwnedBatch TuningTask::featurize(llvm::ArrayRef<Assignment> schedules) const {
  std::vector<TokenSequence> sequences(schedules.size());
  OwnedBatch batch;
  for (auto [schedule, sequence] : llvm::zip(schedules, sequences)) {
    featurizer->featurizer().featurize(schedule, sequence);
    batch.length = std::max(batch.length, sequence.length);
  }
  batch.tokens.assign(schedules.size() * batch.length * kFeatureSize, 0.0f);
  for (auto [index, sequence] : llvm::enumerate(sequences)) {
    std::memcpy(batch.tokens.data() + index * batch.length * kFeatureSize,
                sequence.values, sequence.length * kFeatureSize * sizeof(float));
    batch.lengths.push_back(sequence.length);
  }
  return batch;
}

void TuningTask::appendTo(Dataset &dataset, llvm::StringRef target) const {
  if (valid.size() < 2)
    return;
  std::vector<Assignment> schedules;
  std::vector<double> seconds;
  for (const auto &[text, latency] : valid) {
    std::optional<Assignment> parsed = parse(text);
    if (!parsed)
      continue;
    schedules.push_back(std::move(*parsed));
    seconds.push_back(latency);
  }
  if (schedules.size() < 2)
    return;
  appendGroup(dataset, target, schedules, seconds);
}

void TuningTask::appendGroup(Dataset &dataset, llvm::StringRef target,
                             llvm::ArrayRef<Assignment> schedules,
                             llvm::ArrayRef<double> seconds) const {
  if (schedules.empty())
    return;
  OwnedBatch batch = featurize(schedules);
  // Re-pad the dataset and the batch to the longer of the two.
  unsigned length = std::max(dataset.length, batch.length);
  auto repad = [&](std::vector<float> &tokens, unsigned from, size_t count) {
    if (from == length)
      return;
    std::vector<float> padded(count * length * kFeatureSize, 0.0f);
    for (size_t i = 0; i < count; ++i)
      std::memcpy(padded.data() + i * length * kFeatureSize,
                  tokens.data() + i * from * kFeatureSize,
                  from * kFeatureSize * sizeof(float));
    tokens = std::move(padded);
  };
  repad(dataset.tokens, dataset.length, dataset.size());
  repad(batch.tokens, batch.length, schedules.size());
  dataset.length = length;

  DatasetGroup group;
  group.taskKey = info.key;
  group.kind = info.kind;
  group.target = target.str();
  group.flops = info.flops;
  group.networks = info.occurrencesByNetwork;
  group.begin = dataset.size();
  group.bestSeconds = *std::min_element(seconds.begin(), seconds.end());
  uint32_t groupIndex = dataset.groups.size();
  dataset.tokens.insert(dataset.tokens.end(), batch.tokens.begin(),
                        batch.tokens.end());
  dataset.lengths.insert(dataset.lengths.end(), batch.lengths.begin(),
                         batch.lengths.end());
  for (double latency : seconds) {
    dataset.seconds.push_back(latency);
    dataset.labels.push_back(static_cast<float>(group.bestSeconds / latency));
    dataset.groupOf.push_back(groupIndex);
  }
  group.end = dataset.size();
  dataset.groups.push_back(std::move(group));
  if (!llvm::is_contained(dataset.targets, target))
    dataset.targets.push_back(target.str());
}
