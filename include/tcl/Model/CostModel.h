//===- CostModel.h - Ranking schedules without running them -----*- C++ -*-===//
//
// One interface for every cost model, learned or not, so that the trainer,
// the tuner and the benchmarks compare them in one harness (Halide's
// CostModel plays the same role). A model scores featurized schedules,
// higher = faster; only the order of scores within a task matters.
//
//   mamba       selective state-space model over the tokens (tcl's model)
//   tenset-mlp  TenSet's MLP: per-token MLP, summed, residual head
//   attention   TLP-style Transformer over program and hardware tokens
//   xgboost     gradient-boosted trees on the flattened tokens (Ansor)
//   random      uniform scores: the floor every model must beat
//
//===----------------------------------------------------------------------===//

#ifndef TCL_MODEL_COSTMODEL_H
#define TCL_MODEL_COSTMODEL_H

#include "tcl/Model/Dataset.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tcl {

class CostModel;

/// Everything that shapes a model and its training; saved with the model.
struct ModelOptions {
  std::string kind = "mamba";
  /// Network sizes (see Networks.h); 0 keeps the kind's default.
  int64_t dModel = 0, dState = 0, layers = 0, hidden = 0;
  /// Mamba: independent members whose scores are averaged (NetworkConfig);
  /// 0 keeps the kind's default.
  int64_t members = 0;
  /// Mamba: alternate forward and backward blocks (NetworkConfig).
  bool bidirectional = true;
  /// Dropout on the representation the readout scores, in training.
  double dropout = 0.1;
  /// One readout per target on a shared representation (MTL-TLP's
  /// multi-task design): the continual-learning comparator whose parameters
  /// grow with every target. Networks only.
  bool perTargetHeads = false;
  /// "lambdarank" (ranking within each task; TenSet's best) or "mse".
  std::string loss = "lambdarank";
  /// LambdaRank's gain of a schedule is its label (normalized throughput)
  /// to this power: above 1, swaps among the near-best schedules cost more
  /// than swaps among slow ones, which is what a tuner's top-1 needs
  /// (docs/results/cost_models.md: 4 raised every network's top-1).
  double gainExponent = 4;
  /// Decay per step of an exponential moving average of the weights
  /// (Polyak averaging); validation and the saved model use the average.
  /// 0 keeps the last step's weights; 0.99 averages about 100 steps, two
  /// to three epochs of the shipped dataset.
  double weightAveraging = 0.99;
  double learningRate = 1e-3;
  unsigned epochs = 60;
  /// Groups (task, target) per batch and samples drawn from each.
  unsigned groupsPerBatch = 16, samplesPerGroup = 32;
  /// What early stopping watches on the validation set: "pca" (pairwise
  /// accuracy, TenSet's) or "ndcg" (normalizedDcg with the loss's gain
  /// exponent: the near-best schedules' order, what a tuner's top-1 needs).
  std::string earlyStopping = "pca";
  /// Epochs without a better validation score before training stops.
  unsigned patience = 8;
  uint64_t seed = 0;
  /// Threads LibTorch / XGBoost may use.
  unsigned threads = 2;
  /// Print one line per epoch.
  bool verbose = false;
};

/// What training did, for the benchmark's table.
struct TrainingReport {
  unsigned epochs = 0, bestEpoch = 0;
  double seconds = 0;
  /// The best validation score (ModelOptions::earlyStopping's metric).
  double validationScore = 0;
};

/// What continual distillation learns from: a new target's measured
/// schedules and its unmeasured ones, and a small replay of earlier
/// targets' measurements that keeps the student from forgetting them.
struct DistillationData {
  /// The new target's labelled schedules (ranking loss) and the part of
  /// them that decides when to stop.
  const Dataset *labelled = nullptr, *validation = nullptr;
  /// Schedules of the new target, labelled or not, on which the student
  /// matches the teacher's scores and representations.
  const Dataset *transfer = nullptr;
  /// Earlier targets' measurements (ranking loss, and the teacher's scores
  /// and representations as on the transfer set); may be empty.
  const Dataset *replay = nullptr;
};

/// Weights of the distillation loss's terms, beside the ranking loss on the
/// new target's labels (weight 1).
struct DistillationOptions {
  /// Per task, the student's scores against the teacher's on the new
  /// target's schedules (both standardized: only the order and spacing of a
  /// task's scores matter).
  double scoreWeight = 0.5;
  /// The student's representation against the teacher's on the new
  /// target's schedules, relative to the teacher's mean squared
  /// representation. Lighter than on the replay: the teacher learned its
  /// embedding on other hardware, and the labels should be able to move the
  /// new target's schedules away from it. Distilled onto a tenth of znver5
  /// as whole tasks from Zen 3 targets, 0.1 instead of 0.5 raised top-1 on
  /// ResNet-50's held-out records from 0.78 to 0.82 (mean of three seeds);
  /// over the five-seed benchmark it left data efficiency as it was and
  /// kept forgetting within 3 points on every seed
  /// (docs/results/distillation.md).
  double representationWeight = 0.1;
  /// The same two on the replay of earlier targets, where they keep what
  /// the teacher knew about them (Learning without Forgetting).
  double replayScoreWeight = 0.5;
  double replayRepresentationWeight = 0.5;
  /// Ranking loss on the replay of earlier targets; 0 turns the replay off.
  double replayWeight = 1.0;
  /// The student's share of its final weights, the teacher's the rest
  /// (weight-space ensembling, WiSE-FT): 1 keeps the student as trained.
  /// It keeps the size and trades the new target for the old ones: at 0.5
  /// over five seeds of v3 -> v2 -> znver5 the chain forgot 0.61 PCA
  /// points of v3 instead of 2.32, and ranked znver5 7 points of top-1
  /// worse (docs/results/distillation.md).
  double studentShare = 1.0;

  /// An error unless every weight is finite and non-negative and the
  /// student's share is in [0, 1].
  llvm::Error verify() const;
};

/// What holds a tuner's online update to what the model knew before tuning.
/// An update learns from a few measurements of the tasks being tuned; left
/// to them alone, it forgets what pre-training taught about the tasks it has
/// not measured yet: replaying tuning of held-out networks, TenSet-MLP's
/// first picks for a task fell from 0.80 to 0.71 of its best record once
/// earlier tasks' updates had run (docs/results/tuning_replay.md). With an
/// anchor, the update is continual distillation from the model as it was
/// loaded, on schedules of every tuned task, measured or not.
struct UpdateAnchor {
  /// The model before any update (the teacher); null: no anchor.
  const CostModel *initial = nullptr;
  /// Schedules of the tuned tasks, one group per task; labels unused.
  const Dataset *schedules = nullptr;
  /// The distillation terms' weights (the replay's are unused). The update
  /// holds the representation of the tuned tasks' schedules as firmly as a
  /// replay's: the initial model is this target's own, not other hardware's.
  DistillationOptions weights{/*scoreWeight=*/0.5,
                              /*representationWeight=*/0.5};
};

/// Scores with what the tuner's sampler needs beyond them.
struct Prediction {
  /// One per sequence, higher = faster.
  std::vector<float> scores;
  /// Per sequence, the standard deviation of its score under the model's
  /// dropout (MC-dropout, in closed form); empty for models without one.
  std::vector<float> uncertainty;
  /// [count][embeddingSize], row-major: where the model places each
  /// schedule; schedules the model sees as alike are close.
  std::vector<float> embeddings;
  size_t embeddingSize = 0;
};

class CostModel {
public:
  virtual ~CostModel();

  /// Builds an untrained model; an error names an unknown kind or bad size.
  static llvm::Expected<std::unique_ptr<CostModel>>
  create(const ModelOptions &options);
  /// Loads a model `save` wrote; errors name the file and what is wrong.
  static llvm::Expected<std::unique_ptr<CostModel>> load(llvm::StringRef path);
  /// The model the tuner uses unless told otherwise: $TCL_COST_MODEL if
  /// set, else the model distilled for the first of `targets` that has one
  /// shipped in data/ (modelFileName), else the pre-trained CPU model there.
  static std::string defaultPath(llvm::ArrayRef<std::string> targets = {});
  /// Name of the file in data/ that holds the model for `target`:
  /// cost-model-<target with ':' as '-'>.tclm.
  static std::string modelFileName(llvm::StringRef target);

  const ModelOptions &options() const { return modelOptions; }
  /// Takes the training settings of `options` (loss and its gains, weight
  /// averaging, learning rate, epochs, early stopping, batch shape, seed,
  /// threads, verbosity) and keeps the model's own kind and sizes: how a
  /// loaded model is trained further. Fails on settings that make no sense.
  llvm::Error setTrainingOptions(const ModelOptions &options);
  /// Targets the model was trained on.
  const std::vector<std::string> &targets() const { return trainedTargets; }
  /// Per target, the tasks whose labelled records the model learned that
  /// target from (when it first learned it): what the next step of a
  /// continual chain has not been labelled on. Files saved before this was
  /// recorded have none.
  const std::map<std::string, std::set<std::string>> &labelledTasks() const {
    return labelledTaskKeys;
  }
  /// The tasks the model learned its last target from; null when it has no
  /// target or its file did not record them.
  const std::set<std::string> *lastTargetTasks() const;
  virtual int64_t parameterCount() const = 0;

  /// Learns from `train`; `validation` (may be empty) decides when to stop
  /// and which epoch's weights to keep.
  virtual llvm::Expected<TrainingReport> train(const Dataset &train,
                                               const Dataset &validation) = 0;
  /// One score per sequence of `batch`.
  virtual std::vector<float> predict(const SequenceBatch &batch) = 0;
  /// Scores, uncertainties and embeddings. By default: `predict`, no
  /// uncertainty, and the mean of each sequence's token features as its
  /// embedding (for models without a representation of their own).
  virtual Prediction predictForSampling(const SequenceBatch &batch);
  /// Learns from `data` (say, what a tuning run has measured so far) for
  /// about `steps` gradient steps (boosting rounds), starting from the
  /// current state and without early stopping: the tuner's online update.
  /// Models that cannot continue training (XGBoost) retrain on `data`.
  /// With an `anchor`, networks are also held to the model as it was
  /// (UpdateAnchor); models without a representation ignore it.
  virtual llvm::Error update(const Dataset &data, unsigned steps,
                             const UpdateAnchor &anchor = {}) = 0;
  /// The `steps` of an online update that suit this model, the tuner's
  /// default (TuneOptions::updateSteps).
  virtual unsigned onlineUpdateSteps() const { return 20; }
  /// Continual distillation: learns a new target from `data` while this
  /// model (a copy of `teacher`, same kind and sizes) is held to the
  /// teacher's scores and representations and to earlier targets' replay.
  /// Models without a representation (XGBoost, random) cannot; an error
  /// says so.
  virtual llvm::Expected<TrainingReport>
  distill(const CostModel &teacher, const DistillationData &data,
          const DistillationOptions &options);
  llvm::Error save(llvm::StringRef path) const;
  /// A copy: the same options, targets and state.
  llvm::Expected<std::unique_ptr<CostModel>> clone() const;

protected:
  explicit CostModel(ModelOptions options) : modelOptions(std::move(options)) {}

  /// How well `scores` rank `validation`, by the metric early stopping
  /// watches (higher is better).
  double validationScore(const Dataset &validation,
                         llvm::ArrayRef<float> scores) const;

  /// The model's state as bytes, and the inverse (after `create`).
  virtual llvm::Expected<std::string> serialize() const = 0;
  virtual llvm::Error deserialize(llvm::StringRef bytes) = 0;

  /// Adds the targets of `trainSet` the model has not learned yet, each
  /// with the tasks it is learned from here: those of `trainSet` and of
  /// `validation`, whose labels were measured as well.
  void learnTargetsOf(const Dataset &trainSet,
                      const Dataset *validation = nullptr);
  /// Adds what `other` learned of targets this model has not learned.
  void learnTargetsOf(const CostModel &other);

  ModelOptions modelOptions;
  std::vector<std::string> trainedTargets;
  std::map<std::string, std::set<std::string>> labelledTaskKeys;
};

/// Kinds `create` accepts, in the order benchmarks list them.
llvm::ArrayRef<llvm::StringLiteral> costModelKinds();

} // namespace tcl

#endif // TCL_MODEL_COSTMODEL_H
