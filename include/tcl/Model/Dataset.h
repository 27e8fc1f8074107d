//===- Dataset.h - Featurized measurements for cost models ------*- C++ -*-===//
//
// A cost model learns from the tuning database: every valid record becomes
// a token sequence and a label. Records are grouped by (task, target, the
// machine's CPU), because latencies are only comparable within a group: the
// label is the group's normalized throughput, best latency / latency, in
// (0, 1] (TenSet's choice), so that groups of very different sizes weigh the
// same.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MODEL_DATASET_H
#define TCL_MODEL_DATASET_H

#include "tcl/Features/Tokens.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tcl {

class TuningDatabase;

/// A view of `count` sequences of `length` tokens each (row-major
/// [count][length][kFeatureSize]) and the number of real tokens in each.
struct SequenceBatch {
  const float *tokens = nullptr;
  const uint8_t *lengths = nullptr;
  size_t count = 0;
  unsigned length = 0;
  /// The target the sequences were featurized for, when they share one:
  /// what a model with a readout per target scores them with.
  llvm::StringRef target;
};

/// The schedules of one task measured on one target, on machines of one CPU.
struct DatasetGroup {
  std::string taskKey, kind, target;
  double flops = 0;
  /// Occurrences of the task per network: the weights of top-k scores.
  std::map<std::string, int64_t> networks;
  /// The group's samples: [begin, end) of the dataset.
  size_t begin = 0, end = 0;
  double bestSeconds = 0;
};

struct Dataset {
  /// Tokens per sequence: the longest sequence in the dataset.
  unsigned length = 0;
  std::vector<float> tokens;
  std::vector<uint8_t> lengths;
  /// Measured median latency and label (group best / latency) per sample.
  std::vector<double> seconds;
  std::vector<float> labels;
  std::vector<uint32_t> groupOf;
  std::vector<DatasetGroup> groups;
  /// Targets present, in order of first appearance.
  std::vector<std::string> targets;

  size_t size() const { return labels.size(); }
  SequenceBatch all() const {
    return {tokens.data(), lengths.data(), size(), length,
            targets.size() == 1 ? llvm::StringRef(targets.front())
                                : llvm::StringRef()};
  }
  /// The samples of the groups `keep` accepts, groups kept whole.
  Dataset selectGroups(llvm::function_ref<bool(const DatasetGroup &)> keep) const;
  /// Every group's samples split at random (fixed by `seed`) into
  /// `fraction` and the rest; groups keep their best latency, so labels do
  /// not change.
  std::pair<Dataset, Dataset> splitSamples(double fraction, uint64_t seed) const;
  /// Whole groups split at random (fixed by `seed`) into about `fraction`
  /// of them, at least one when there are two, and the rest.
  std::pair<Dataset, Dataset> splitGroups(double fraction, uint64_t seed) const;
  /// The samples `keep` lists (indices into this dataset, any order), as
  /// if only they had been measured: each group's best latency and labels
  /// are those of its kept samples; groups with none are dropped.
  Dataset select(llvm::ArrayRef<size_t> keep) const;
  /// Whether some group has two samples: whether pairwise accuracy means
  /// anything on this dataset (a validation split of a small pool may not).
  bool hasPairs() const;
  /// Networks that some group's task belongs to.
  std::set<std::string> networks() const;
};

struct DatasetOptions {
  /// Targets to read; empty reads all.
  std::vector<std::string> targets;
  /// Groups with fewer valid records are skipped (nothing to rank).
  unsigned minRecordsPerGroup = 2;
  /// Called with (groups done, groups in all) while featurizing.
  std::function<void(size_t, size_t)> progress;
  /// If set, receives the seconds spent turning schedules into tokens,
  /// apart from reading the database and each task's template: the rate a
  /// tuner featurizes candidates at.
  double *featurizeSeconds = nullptr;
};

/// Featurizes every valid record (status ok, vectorized) of the database.
/// Tasks are featurized on the target each record was measured on.
llvm::Expected<Dataset> loadDataset(TuningDatabase &db,
                                    const DatasetOptions &options = {});

/// The samples of `first` followed by those of `second`, groups kept whole
/// (say, earlier targets' data and a new target's).
Dataset concatenate(const Dataset &first, const Dataset &second);

/// The held-out split TenSet uses: groups whose task occurs in one of
/// `testNetworks` are the test set; training keeps only tasks that occur in
/// none of them, so test tasks are never seen in training.
std::pair<Dataset, Dataset>
splitByNetworks(const Dataset &dataset,
                const std::set<std::string> &testNetworks);

} // namespace tcl

#endif // TCL_MODEL_DATASET_H
