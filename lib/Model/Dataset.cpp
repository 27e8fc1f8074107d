//===- Dataset.cpp - Featurized measurements for cost models --------------===//

#include "tcl/Model/Dataset.h"

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Features/TaskFeaturizer.h"
#include "tcl/Support/Context.h"
#include "tcl/Target/TargetSpec.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <tuple>

using namespace tcl;

/// Appends sample `index` of `from` to `to`, re-laid out to `to.length`.
static void appendSample(const Dataset &from, size_t index, Dataset &to) {
  const float *source = from.tokens.data() + index * from.length * kFeatureSize;
  size_t offset = to.tokens.size();
  to.tokens.resize(offset + to.length * kFeatureSize, 0.0f);
  std::memcpy(to.tokens.data() + offset, source,
              std::min(from.length, to.length) * kFeatureSize * sizeof(float));
  to.lengths.push_back(from.lengths[index]);
  to.seconds.push_back(from.seconds[index]);
  to.labels.push_back(from.labels[index]);
  to.groupOf.push_back(to.groups.size() - 1);
}

static Dataset emptyLike(const Dataset &dataset) {
  Dataset result;
  result.length = dataset.length;
  return result;
}

/// A selection's targets: those of `from` that some kept group has, in
/// `from`'s order.
static Dataset withTargetsOf(const Dataset &from, Dataset result) {
  for (const std::string &target : from.targets)
    if (llvm::any_of(result.groups, [&](const DatasetGroup &group) {
          return group.target == target;
        }))
      result.targets.push_back(target);
  return result;
}

Dataset Dataset::selectGroups(
    llvm::function_ref<bool(const DatasetGroup &)> keep) const {
  Dataset result = emptyLike(*this);
  for (const DatasetGroup &group : groups) {
    if (!keep(group))
      continue;
    result.groups.push_back(group);
    result.groups.back().begin = result.size();
    for (size_t i = group.begin; i < group.end; ++i)
      appendSample(*this, i, result);
    result.groups.back().end = result.size();
  }
  return withTargetsOf(*this, std::move(result));
}

std::pair<Dataset, Dataset> Dataset::splitSamples(double fraction,
                                                  uint64_t seed) const {
  Dataset first = emptyLike(*this), second = emptyLike(*this);
  std::mt19937_64 random(seed);
  for (const DatasetGroup &group : groups) {
    std::vector<size_t> order;
    for (size_t i = group.begin; i < group.end; ++i)
      order.push_back(i);
    std::shuffle(order.begin(), order.end(), random);
    size_t cut = static_cast<size_t>(fraction * order.size() + 0.5);
    std::sort(order.begin(), order.begin() + cut);
    std::sort(order.begin() + cut, order.end());
    for (auto [part, from, to] :
         {std::tuple{&first, size_t(0), cut}, std::tuple{&second, cut, order.size()}}) {
      if (from == to)
        continue;
      part->groups.push_back(group);
      part->groups.back().begin = part->size();
      for (size_t i = from; i < to; ++i)
        appendSample(*this, order[i], *part);
      part->groups.back().end = part->size();
    }
  }
  return {withTargetsOf(*this, std::move(first)),
          withTargetsOf(*this, std::move(second))};
}

std::pair<Dataset, Dataset> Dataset::splitGroups(double fraction,
                                                 uint64_t seed) const {
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::mt19937_64 random(seed);
  std::shuffle(order.begin(), order.end(), random);
  size_t cut = static_cast<size_t>(fraction * order.size() + 0.5);
  if (order.size() >= 2)
    cut = std::clamp<size_t>(cut, 1, order.size() - 1);
  std::vector<bool> first(groups.size(), false);
  for (size_t i = 0; i < cut; ++i)
    first[order[i]] = true;
  auto in = [&](bool wanted) {
    return selectGroups([&](const DatasetGroup &group) {
      return first[static_cast<size_t>(&group - groups.data())] == wanted;
    });
  };
  return {in(true), in(false)};
}

Dataset Dataset::select(llvm::ArrayRef<size_t> keep) const {
  std::vector<std::vector<size_t>> byGroup(groups.size());
  for (size_t sample : keep)
    byGroup[groupOf[sample]].push_back(sample);
  Dataset result = emptyLike(*this);
  for (auto [group, samples] : llvm::zip(groups, byGroup)) {
    if (samples.empty())
      continue;
    llvm::sort(samples);
    samples.erase(std::unique(samples.begin(), samples.end()), samples.end());
    result.groups.push_back(group);
    DatasetGroup &kept = result.groups.back();
    kept.begin = result.size();
    kept.bestSeconds = seconds[samples.front()];
    for (size_t sample : samples)
      kept.bestSeconds = std::min(kept.bestSeconds, seconds[sample]);
    for (size_t sample : samples) {
      appendSample(*this, sample, result);
      result.labels.back() =
          static_cast<float>(kept.bestSeconds / result.seconds.back());
    }
    kept.end = result.size();
  }
  return withTargetsOf(*this, std::move(result));
}

bool Dataset::hasPairs() const {
  return llvm::any_of(groups, [](const DatasetGroup &group) {
    return group.end - group.begin >= 2;
  });
}

std::set<std::string> Dataset::networks() const {
  std::set<std::string> names;
  for (const DatasetGroup &group : groups)
    for (const auto &entry : group.networks)
      names.insert(entry.first);
  return names;
}

llvm::Expected<Dataset> tcl::loadDataset(TuningDatabase &db,
                                         const DatasetOptions &options) {
  llvm::Expected<std::vector<TaskRow>> tasks = db.tasks();
  if (!tasks)
    return tasks.takeError();
  llvm::Expected<std::vector<RecordRow>> records = db.records();
  if (!records)
    return records.takeError();
  std::map<std::string, const TaskRow *> taskByKey;
  for (const TaskRow &task : *tasks)
    taskByKey[task.key] = &task;

  // Valid records by (task, target, the machine's CPU), in database order:
  // latencies compare only on one machine, and the CPU's caches are part of
  // the features.
  using GroupKey = std::tuple<std::string, std::string, std::string>;
  std::map<GroupKey, std::vector<const RecordRow *>> byGroup;
  std::vector<GroupKey> groupOrder;
  for (const RecordRow &record : *records) {
    if (record.status != "ok" || record.scalarFallback || !record.medianSeconds ||
        *record.medianSeconds <= 0)
      continue;
    if (!options.targets.empty() &&
        !llvm::is_contained(options.targets, record.target))
      continue;
    GroupKey key(record.taskKey, record.target, record.machine.hostCpu);
    auto [it, inserted] = byGroup.try_emplace(key);
    if (inserted)
      groupOrder.push_back(key);
    it->second.push_back(&record);
  }

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  Dataset dataset;
  dataset.length = 0;
  std::vector<TokenSequence> sequences;
  std::vector<uint32_t> sequenceGroup;
  std::vector<double> seconds;
  for (auto [index, key] : llvm::enumerate(groupOrder)) {
    if (options.progress)
      options.progress(index, groupOrder.size());
    const std::vector<const RecordRow *> &rows = byGroup[key];
    if (rows.size() < options.minRecordsPerGroup)
      continue;
    const auto &[taskKey, targetName, machineCpu] = key;
    const TaskRow *task = taskByKey[taskKey];
    if (!task)
      return llvm::createStringError("record of unknown task " + taskKey);
    llvm::Expected<TargetSpec> spec = TargetSpec::parse(targetName);
    if (!spec)
      return spec.takeError();
    llvm::Expected<CpuTarget> target = spec->resolve();
    if (!target)
      return target.takeError();
    auto featurizer =
        TaskFeaturizer::create(*context, task->payload, task->key, *target,
                               machineCpu);
    if (!featurizer)
      return featurizer.takeError();
    if (!llvm::is_contained(dataset.targets, targetName))
      dataset.targets.push_back(targetName);

    DatasetGroup group;
    group.taskKey = task->key;
    group.kind = task->kind;
    group.target = targetName;
    group.flops = task->flops;
    group.networks = task->networks;
    group.begin = sequences.size();
    group.bestSeconds = std::numeric_limits<double>::infinity();
    auto featurizeStart = std::chrono::steady_clock::now();
    for (const RecordRow *row : rows) {
      sequences.emplace_back();
      if (llvm::Error error =
              (*featurizer)->featurize(row->assignment, sequences.back()))
        return llvm::createStringError("task " + task->key + " on " +
                                       targetName + ": " +
                                       llvm::toString(std::move(error)));
      dataset.length = std::max(dataset.length, sequences.back().length);
      seconds.push_back(*row->medianSeconds);
      sequenceGroup.push_back(dataset.groups.size());
      group.bestSeconds = std::min(group.bestSeconds, *row->medianSeconds);
    }
    if (options.featurizeSeconds)
      *options.featurizeSeconds += std::chrono::duration<double>(
                                       std::chrono::steady_clock::now() - featurizeStart)
                                       .count();
    group.end = sequences.size();
    dataset.groups.push_back(std::move(group));
  }
  if (options.progress)
    options.progress(groupOrder.size(), groupOrder.size());

  // Pack to the longest sequence, so that models never see the unused tail.
  dataset.tokens.resize(sequences.size() * dataset.length * kFeatureSize);
  for (auto [index, sequence] : llvm::enumerate(sequences)) {
    std::memcpy(dataset.tokens.data() + index * dataset.length * kFeatureSize,
                sequence.values, dataset.length * kFeatureSize * sizeof(float));
    dataset.lengths.push_back(sequence.length);
    dataset.seconds.push_back(seconds[index]);
    dataset.groupOf.push_back(sequenceGroup[index]);
    dataset.labels.push_back(static_cast<float>(
        dataset.groups[sequenceGroup[index]].bestSeconds / seconds[index]));
  }
  return dataset;
}

Dataset tcl::concatenate(const Dataset &first, const Dataset &second) {
  Dataset result;
  result.length = std::max(first.length, second.length);
  for (const Dataset *part : {&first, &second}) {
    for (const DatasetGroup &group : part->groups) {
      result.groups.push_back(group);
      result.groups.back().begin = result.size();
      for (size_t i = group.begin; i < group.end; ++i)
        appendSample(*part, i, result);
      result.groups.back().end = result.size();
    }
    for (const std::string &target : part->targets)
      if (!llvm::is_contained(result.targets, target))
        result.targets.push_back(target);
  }
  return result;
}

std::pair<Dataset, Dataset>
tcl::splitByNetworks(const Dataset &dataset,
                     const std::set<std::string> &testNetworks) {
  auto inTest = [&](const DatasetGroup &group) {
    return llvm::any_of(group.networks, [&](const auto &entry) {
      return testNetworks.count(entry.first) > 0;
    });
  };
  return {dataset.selectGroups([&](const DatasetGroup &group) { return !inTest(group); }),
          dataset.selectGroups(inTest)};
}
