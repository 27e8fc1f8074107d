//===- NeuralCostModel.h - The LibTorch cost models -------------*- C++ -*-===//
//
// Private to lib/Model: the one CostModel behind Mamba, TenSet-MLP and the
// attention network. Its training loop (NeuralCostModel.cpp) serves plain
// training, the tuner's online updates, multi-task training with a readout
// per target, and continual distillation (Distillation.cpp), which adds its
// terms to the same loop.
//
//===----------------------------------------------------------------------===//

#ifndef TCL_LIB_MODEL_NEURALCOSTMODEL_H
#define TCL_LIB_MODEL_NEURALCOSTMODEL_H

#include "tcl/Model/CostModel.h"
#include "tcl/Model/Networks.h"

#include <torch/torch.h>

#include <functional>
#include <random>

namespace tcl {

/// A dataset as tensors: tokens [N, L, F], mask [N, L], labels [N]. The
/// tokens and labels alias the dataset's storage.
struct DatasetTensors {
  torch::Tensor tokens, mask, labels;
};
DatasetTensors tensorsOf(const Dataset &dataset);

/// Has LibTorch's operations run on `threads` threads. Unlike
/// torch::set_num_threads, a no-op when they already do: that call rebuilds
/// LibTorch's pthreadpool every time, and the new pool's threads spin for
/// work for milliseconds. Called per scored batch, they took a fifth of a
/// 2-core machine's time from inference. It also has the OpenMP workers
/// sleep as soon as a parallel region ends (see NeuralCostModel.cpp).
void useThreads(unsigned threads);

class NeuralCostModel : public CostModel {
public:
  NeuralCostModel(ModelOptions options,
                  std::shared_ptr<ScoringNetworkImpl> network);

  int64_t parameterCount() const override;
  llvm::Expected<TrainingReport> train(const Dataset &trainSet,
                                       const Dataset &validation) override;
  llvm::Error update(const Dataset &data, unsigned steps,
                     const UpdateAnchor &anchor) override;
  unsigned onlineUpdateSteps() const override;
  Prediction predictForSampling(const SequenceBatch &batch) override;
  std::vector<float> predict(const SequenceBatch &batch) override;
  llvm::Expected<TrainingReport>
  distill(const CostModel &teacher, const DistillationData &data,
          const DistillationOptions &options) override;

protected:
  llvm::Expected<std::string> serialize() const override;
  llvm::Error deserialize(llvm::StringRef bytes) override;

private:
  /// A loss term added to every training step's ranking loss.
  using ExtraLoss = std::function<torch::Tensor(std::mt19937_64 &)>;

  /// The training loss of [groups, samples] scores against their labels:
  /// ModelOptions::loss, with its gain exponent.
  torch::Tensor rankingLoss(const torch::Tensor &scores,
                            const torch::Tensor &labels) const;
  /// Groups per batch and samples drawn from each for `data`.
  std::pair<unsigned, unsigned> batchShape(const Dataset &data) const;
  /// distill() for `epochs` epochs (the online update's anchored steps).
  TrainingReport distillOrThrow(const NeuralCostModel &teacher,
                                const DistillationData &data,
                                const DistillationOptions &weights,
                                unsigned epochs);
  /// Trains for at most `epochs` epochs on `trainSet`'s ranking loss plus
  /// `extra`. With a validation set, stops early and keeps the best epoch's
  /// weights; without one (the online update), keeps the last.
  TrainingReport trainOrThrow(const Dataset &trainSet,
                              const Dataset *validation, unsigned epochs,
                              const ExtraLoss &extra = {});
  /// Every sample of `data` scored, each with its own target's readout.
  std::vector<float> scoreDataset(const Dataset &data);

  /// Scores of representations [N, E]: the network's readout, or with
  /// per-target heads, head `heads[i]` for row i.
  torch::Tensor readout(const torch::Tensor &representation,
                        const torch::Tensor &heads);
  /// Per-target heads: the index of `target`'s head (the newest head for
  /// a target without one), and heads for targets that have none yet,
  /// each starting as a copy of the network's readout.
  int64_t headOf(llvm::StringRef target) const;
  void addHeads(llvm::ArrayRef<std::string> targets);
  /// Per sample of `data`, the index of its group's target's head.
  torch::Tensor headsOf(const Dataset &data) const;

  std::shared_ptr<ScoringNetworkImpl> network;
  /// Per-target readouts, [heads, E] and [heads], one per entry of
  /// headTargets (perTargetHeads only).
  torch::Tensor headWeights, headBiases;
  std::vector<std::string> headTargets;
};

} // namespace tcl

#endif // TCL_LIB_MODEL_NEURALCOSTMODEL_H
