//===- Distillation.cpp - Continual cross-target distillation -------------===//
//
// A student, the same network as its teacher and starting from its weights,
// learns a new target from a few of its measurements. Every training step
// adds to the ranking loss on those labels:
//   - score distillation: on a batch of the new target's schedules (mostly
//     unmeasured ones), the student's per-task standardized scores against
//     the teacher's, so the little labelled data refines the teacher's
//     ranking instead of replacing it. Each task counts as far as the
//     teacher already ranks its labelled records right;
//   - representation distillation: the student's representation against the
//     teacher's on the same batch, which keeps the embedding space the
//     tuner's sampler measures distances in;
//   - replay: on a small sample of earlier targets' measurements, the
//     ranking loss on their labels and the same score and representation
//     distillation (Learning without Forgetting), which limits forgetting.
// Nothing is added per target, so the parameter count never grows; the
// model file lists every target seen.
//
//===----------------------------------------------------------------------===//

#include "ModelKinds.h"
#include "NeuralCostModel.h"

#include "tcl/Model/Metrics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace tcl;

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

/// Per task of `labelled`, how far `teacherScores` already order its
/// labelled pairs: 2 * pairwise accuracy - 1, clamped to [0, 1]. A teacher
/// no better than a coin flip on a task earns 0, a perfect one 1. Tasks
/// without a labelled pair are absent.
static llvm::StringMap<double>
teacherReliability(const Dataset &labelled, const torch::Tensor &teacherScores) {
  llvm::ArrayRef<float> scores(teacherScores.data_ptr<float>(),
                               static_cast<size_t>(teacherScores.numel()));
  llvm::StringMap<double> reliability;
  for (const DatasetGroup &group : labelled.groups) {
    OrderedPairs counted = orderedPairs(labelled, group, scores);
    if (counted.pairs)
      reliability[group.taskKey] = std::clamp(
          2.0 * static_cast<double>(counted.correct) / counted.pairs - 1.0,
          0.0, 1.0);
  }
  return reliability;
}

/// Each row of [groups, samples] shifted and scaled to mean 0, deviation 1:
/// a ranking model's scores mean nothing beyond their order and spacing.
static torch::Tensor standardized(const torch::Tensor &scores) {
  torch::Tensor mean = scores.mean(1, /*keepdim=*/true);
  torch::Tensor deviation = scores.std(1, /*unbiased=*/false, /*keepdim=*/true);
  return (scores - mean) / (deviation + 1e-6);
}

llvm::Error DistillationOptions::verify() const {
  if (!(studentShare >= 0 && studentShare <= 1))
    return llvm::createStringError(
        "the student's share of its weights must be in [0, 1]");
  // A negative weight would reward the student for moving away from the
  // labels or the teacher, and train without a word of it.
  std::pair<const char *, double> lossWeights[] = {
      {"score", scoreWeight},
      {"representation", representationWeight},
      {"replay score", replayScoreWeight},
      {"replay representation", replayRepresentationWeight},
      {"replay", replayWeight}};
  for (const auto &[name, weight] : lossWeights)
    if (!(weight >= 0 && std::isfinite(weight))) {
      std::string message;
      llvm::raw_string_ostream(message)
          << "the distillation's " << name
          << " weight must be finite and non-negative, not "
          << llvm::format("%g", weight);
      return llvm::createStringError(message);
    }
  return llvm::Error::success();
}

llvm::Expected<TrainingReport>
NeuralCostModel::distill(const CostModel &teacherModel,
                         const DistillationData &data,
                         const DistillationOptions &weights) {
  const ModelOptions &theirs = teacherModel.options();
  if (!isNeuralKind(theirs.kind) || theirs.kind != modelOptions.kind ||
      theirs.perTargetHeads || modelOptions.perTargetHeads ||
      teacherModel.parameterCount() != parameterCount())
    return llvm::createStringError(
        "the student must be the teacher's network (" + theirs.kind + ", " +
        std::to_string(teacherModel.parameterCount()) +
        " parameters, one readout); it is " + modelOptions.kind + " with " +
        std::to_string(parameterCount()));
  if (llvm::Error error = weights.verify())
    return std::move(error);
  if (!data.labelled || data.labelled->groups.empty())
    return llvm::createStringError(
        "distillation needs labelled records of the new target");
  if (!data.transfer || data.transfer->groups.empty())
    return llvm::createStringError(
        "distillation needs schedules of the new target");
  try {
    // Same kind and size, and no other class implements these kinds.
    return distillOrThrow(static_cast<const NeuralCostModel &>(teacherModel),
                          data, weights, modelOptions.epochs);
  } catch (const c10::Error &error) {
    return llvm::createStringError(std::string("distillation failed: ") +
                                   error.what_without_backtrace());
  }
}

TrainingReport NeuralCostModel::distillOrThrow(
    const NeuralCostModel &teacher, const DistillationData &data,
    const DistillationOptions &weights, unsigned epochs) {
  learnTargetsOf(teacher);
  useThreads(modelOptions.threads);
  // A set of schedules with the teacher's view of it, computed once (the
  // teacher does not change), and per sample how much that view counts.
  struct Anchored {
    DatasetTensors tensors;
    torch::Tensor teacherRepresentation, teacherScores, trust;
  };
  auto anchorOn = [&](const Dataset &set) {
    Anchored anchored{tensorsOf(set), {}, {}, {}};
    torch::NoGradGuard noGrad;
    teacher.network->eval();
    anchored.teacherRepresentation =
        teacher.network->embed(anchored.tensors.tokens, anchored.tensors.mask)
            .contiguous();
    anchored.teacherScores =
        teacher.network->readoutOf(anchored.teacherRepresentation);
    anchored.trust = torch::ones({static_cast<int64_t>(set.size())});
    return anchored;
  };
  Anchored transfer = anchorOn(*data.transfer);
  // On the new target the teacher is trusted per task as far as it
  // already ranks that task's labelled records: a teacher from other
  // hardware is right about some tasks and wrong about others, and
  // holding the student to it where it is wrong undoes what the labels
  // teach. Tasks without labelled pairs get the mean trust.
  {
    torch::NoGradGuard noGrad;
    DatasetTensors labelled = tensorsOf(*data.labelled);
    llvm::StringMap<double> reliability = teacherReliability(
        *data.labelled,
        teacher.network->forward(labelled.tokens, labelled.mask).contiguous());
    double meanTrust = 0;
    for (const auto &entry : reliability)
      meanTrust += entry.second / reliability.size();
    auto trust = transfer.trust.accessor<float, 1>();
    for (const DatasetGroup &group : data.transfer->groups) {
      auto found = reliability.find(group.taskKey);
      double value = found == reliability.end() ? meanTrust : found->second;
      for (size_t i = group.begin; i < group.end; ++i)
        trust[static_cast<int64_t>(i)] = static_cast<float>(value);
    }
  }
  double representationScale = std::max(
      1e-12, transfer.teacherRepresentation.pow(2).mean().item<double>());
  bool replaying = data.replay && !data.replay->groups.empty() &&
                   weights.replayWeight > 0;
  Anchored replay;
  if (replaying)
    replay = anchorOn(*data.replay);

  // Half a ranking batch each for distillation and replay: they steady
  // the student rather than teach it, and a step costs what it scores.
  auto halved = [&](const Dataset &set) {
    auto [groups, perGroup] = batchShape(set);
    return std::pair<unsigned, unsigned>{std::max(1u, groups / 2), perGroup};
  };
  // The student held to the teacher on `index` of `anchored`, drawn as
  // `groups` tasks of `perGroup` schedules; its scores are returned too.
  auto anchorLoss = [&](const Anchored &anchored, const torch::Tensor &index,
                        int64_t groups, int64_t perGroup, double scoreWeight,
                        double representationWeight) {
    torch::Tensor representation =
        network->embed(anchored.tensors.tokens.index_select(0, index),
                       anchored.tensors.mask.index_select(0, index));
    torch::Tensor scores =
        network->readoutOf(representation).view({groups, perGroup});
    // A group's samples share their task, and so their trust.
    torch::Tensor trust = anchored.trust.index_select(0, index);
    torch::Tensor scoreError =
        (standardized(scores) -
         standardized(anchored.teacherScores.index_select(0, index)
                          .view({groups, perGroup})))
            .pow(2)
            .mean(1);
    torch::Tensor representationError =
        (representation - anchored.teacherRepresentation.index_select(0, index))
            .pow(2)
            .mean(1);
    torch::Tensor loss =
        scoreWeight *
            (scoreError * trust.view({groups, perGroup}).select(1, 0)).mean() +
        representationWeight / representationScale *
            (representationError * trust).mean();
    return std::pair<torch::Tensor, torch::Tensor>{loss, scores};
  };
  auto [groups, perGroup] = halved(*data.transfer);
  ExtraLoss extra = [&](std::mt19937_64 &random) {
    torch::Tensor index =
        drawGroupSamples(*data.transfer, groups, perGroup, random);
    torch::Tensor loss = anchorLoss(transfer, index, groups, perGroup,
                                    weights.scoreWeight,
                                    weights.representationWeight)
                             .first;
    if (replaying) {
      // On earlier targets the student learns from their labels and, as
      // in Learning without Forgetting, from the teacher that knew them:
      // labels alone, a few hundred per target, let the rest drift.
      auto [replayGroups, replayPerGroup] = halved(*data.replay);
      torch::Tensor replayIndex = drawGroupSamples(
          *data.replay, replayGroups, replayPerGroup, random);
      auto [anchoring, replayScores] =
          anchorLoss(replay, replayIndex, replayGroups, replayPerGroup,
                     weights.replayScoreWeight,
                     weights.replayRepresentationWeight);
      loss = loss + anchoring +
             weights.replayWeight *
                 rankingLoss(replayScores,
                             replay.tensors.labels.index_select(0, replayIndex)
                                 .view({replayGroups, replayPerGroup}));
    }
    return loss;
  };
  TrainingReport report =
      trainOrThrow(*data.labelled, data.validation, epochs, extra);
  if (weights.studentShare < 1) {
    torch::NoGradGuard noGrad;
    for (auto [own, theirs] :
         llvm::zip(network->parameters(), teacher.network->parameters()))
      own.mul_(weights.studentShare).add_(theirs, 1 - weights.studentShare);
  }
  return report;
}
