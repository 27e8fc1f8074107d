//===- Distillation.cpp - Continual cross-target distillation -------------===//
//
// A student, the same network as its teacher and starting from its weights,
// learns a new target from a few of its measurements. Every training step
// adds to the ranking loss on those labels:
//   - score distillation: on a batch of the new target's schedules (mostly
//     unmeasured ones), the student's per-task standardized scores against
//     the teacher's, so the little labelled data refines the teacher's
//     ranking instead of replacing it;
//   - representation distillation: the student's representation against the
//     teacher's on the same batch, which keeps the embedding space the
//     tuner's sampler measures distances in;
//   - replay: the ranking loss on a small sample of earlier targets'
//     measurements, which limits forgetting.
// Nothing is added per target, so the parameter count never grows; the
// model file lists every target seen.
//
//===----------------------------------------------------------------------===//

#include "ModelKinds.h"
#include "NeuralCostModel.h"

using namespace tcl;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// `groups` groups of `data` drawn at random, and `perGroup` samples drawn
/// from each (with replacement): sample indices, group by group.
static torch::Tensor drawGroupSamples(const Dataset &data, unsigned groups,
                                      unsigned perGroup,
                                      std::mt19937_64 &random) {
  std::vector<int64_t> indices;
  std::uniform_int_distribution<size_t> pickGroup(0, data.groups.size() - 1);
  for (unsigned g = 0; g < groups; ++g) {
    const DatasetGroup &group = data.groups[pickGroup(random)];
    std::uniform_int_distribution<size_t> pick(group.begin, group.end - 1);
    for (unsigned s = 0; s < perGroup; ++s)
      indices.push_back(static_cast<int64_t>(pick(random)));
  }
  return torch::tensor(indices, torch::kLong);
}

/// Each row of [groups, samples] shifted and scaled to mean 0, deviation 1:
/// a ranking model's scores mean nothing beyond their order and spacing.
static torch::Tensor standardized(const torch::Tensor &scores) {
  torch::Tensor mean = scores.mean(1, /*keepdim=*/true);
  torch::Tensor deviation = scores.std(1, /*unbiased=*/false, /*keepdim=*/true);
  return (scores - mean) / (deviation + 1e-6);
}

llvm::Expected<TrainingReport>
NeuralCostModel::distill(const CostModel &teacherModel,
                         const DistillationData &data,
                         const DistillationOptions &weights) {
  const ModelOptions &theirs = teacherModel.options();
  if (!isNeuralKind(theirs.kind) || theirs.kind != modelOptions.kind ||
      theirs.perTargetHeads || modelOptions.perTargetHeads ||
      teacherModel.parameterCount() != parameterCount())
    return makeError("the student must be the teacher's network (" +
                     theirs.kind + ", " +
                     std::to_string(teacherModel.parameterCount()) +
                     " parameters, one readout); it is " + modelOptions.kind +
                     " with " + std::to_string(parameterCount()));
  if (!data.labelled || data.labelled->groups.empty())
    return makeError("distillation needs labelled records of the new target");
  if (!data.transfer || data.transfer->groups.empty())
    return makeError("distillation needs schedules of the new target");
  // Same kind and size, and no other class implements these kinds.
  const auto &teacher = static_cast<const NeuralCostModel &>(teacherModel);
  for (const std::string &target : teacher.targets())
    if (!llvm::is_contained(trainedTargets, target))
      trainedTargets.push_back(target);

  try {
    torch::set_num_threads(modelOptions.threads);
    DatasetTensors transfer = tensorsOf(*data.transfer);
    // The teacher's view of the transfer set, once: it does not change.
    torch::Tensor teacherRepresentation, teacherScores;
    {
      torch::NoGradGuard noGrad;
      teacher.network->eval();
      teacherRepresentation =
          teacher.network->embed(transfer.tokens, transfer.mask).contiguous();
      teacherScores = teacher.network->readoutOf(teacherRepresentation);
    }
    double representationScale = std::max(
        1e-12, teacherRepresentation.pow(2).mean().item<double>());
    bool replaying = data.replay && !data.replay->groups.empty() &&
                     weights.replayWeight > 0;
    DatasetTensors replay;
    if (replaying)
      replay = tensorsOf(*data.replay);

    // Half a ranking batch each for distillation and replay: they steady
    // the student rather than teach it, and a step costs what it scores.
    auto halved = [&](const Dataset &set) {
      auto [groups, perGroup] = batchShape(set);
      return std::pair<unsigned, unsigned>{std::max(1u, groups / 2), perGroup};
    };
    auto [groups, perGroup] = halved(*data.transfer);
    ExtraLoss extra = [&](std::mt19937_64 &random) {
      torch::Tensor index =
          drawGroupSamples(*data.transfer, groups, perGroup, random);
      torch::Tensor representation =
          network->embed(transfer.tokens.index_select(0, index),
                         transfer.mask.index_select(0, index));
      torch::Tensor scores =
          network->readoutOf(representation).view({groups, perGroup});
      torch::Tensor loss =
          weights.scoreWeight *
              torch::mse_loss(standardized(scores),
                              standardized(teacherScores.index_select(0, index)
                                               .view({groups, perGroup}))) +
          weights.representationWeight / representationScale *
              torch::mse_loss(representation,
                              teacherRepresentation.index_select(0, index));
      if (replaying) {
        auto [replayGroups, replayPerGroup] = halved(*data.replay);
        torch::Tensor replayIndex = drawGroupSamples(
            *data.replay, replayGroups, replayPerGroup, random);
        torch::Tensor replayScores =
            network
                ->forward(replay.tokens.index_select(0, replayIndex),
                          replay.mask.index_select(0, replayIndex))
                .view({replayGroups, replayPerGroup});
        loss = loss + weights.replayWeight *
                          lambdaRankLoss(replayScores,
                                         replay.labels.index_select(0, replayIndex)
                                             .view({replayGroups, replayPerGroup}));
      }
      return loss;
    };
    return trainOrThrow(*data.labelled, data.validation, modelOptions.epochs,
                        extra);
  } catch (const c10::Error &error) {
    return makeError(std::string("distillation failed: ") +
                     error.what_without_backtrace());
  }
}
