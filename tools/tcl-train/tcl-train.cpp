//===- tcl-train.cpp - Train and evaluate cost models on a tuning database ===//
//
//   tcl-train DB --model=mamba -o model.tclm
//       featurizes every valid record of DB, trains on 90% of each task's
//       records, stops early on the other 10%, saves the model;
//   tcl-train DB --model=mamba --test-networks=bert_base,gpt2 --json=m.json
//       trains on the tasks of the other networks only and reports TenSet's
//       metrics (pairwise accuracy, top-1, top-5) on the held-out networks;
//   tcl-train DB --evaluate=model.tclm --test-networks=...
//       evaluates a saved model ('default': the one the tuner loads,
//       data/cost-model-cpu.tclm or $TCL_COST_MODEL) instead of training;
//   tcl-train DB --new-target=T --distill=teacher.tclm --pool-sampler=random
//       --pool-fraction=0.1 -o student.tclm
//       continual distillation: the teacher's network learns target T from
//       10% of T's records, held to the teacher on T's schedules and to a
//       replay of the teacher's targets (--fine-tune, --multi-task and plain
//       training are the comparators; see docs/distillation.md);
//   tcl-train DB --evaluate=model.tclm --test-networks=... --new-target=T
//       --replay-tuning=32
//       replays tuning on the held-out tasks' records of T: the tuner's
//       sampler and online update choose which records to reveal, and the
//       best latency found per trial is reported (ReplayTuning.h).
//
//===----------------------------------------------------------------------===//

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Model/CostModel.h"
#include "tcl/Model/Metrics.h"
#include "tcl/Support/Version.h"
#include "tcl/Tune/PoolSampling.h"
#include "tcl/Tune/ReplayTuning.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

using namespace tcl;
namespace cl = llvm::cl;
namespace json = llvm::json;

static cl::OptionCategory category("tcl-train options");

static cl::opt<std::string> databasePath(cl::cat(category), cl::Positional, cl::Required,
                                         cl::desc("<database>"));
static cl::opt<std::string> modelKind(
    cl::cat(category), "model", cl::desc("mamba, tenset-mlp, attention, xgboost or random"),
    cl::init("mamba"));
static cl::opt<std::string> outputPath(cl::cat(category), "o", cl::desc("Save the trained model here"),
                                       cl::init(""));
static cl::opt<std::string> evaluatePath(
    cl::cat(category), "evaluate",
    cl::desc("Evaluate this saved model instead of training ('default': the "
             "model the tuner loads)"),
    cl::init(""));
static cl::list<std::string> testNetworks(
    cl::cat(category), "test-networks", cl::CommaSeparated,
    cl::desc("Hold these networks' tasks out of training and report metrics "
             "on them"));
static cl::list<std::string> targets(cl::cat(category), "targets", cl::CommaSeparated,
                                     cl::desc("Only these targets' records"));
static cl::opt<std::string> loss(cl::cat(category), "loss", cl::desc("lambdarank or mse"),
                                 cl::init("lambdarank"));
static cl::opt<double> gainExponent(
    cl::cat(category), "gain-exponent", cl::init(ModelOptions().gainExponent),
    cl::desc("LambdaRank's gain is the normalized throughput to this power"));
static cl::opt<double> weightAveraging(
    cl::cat(category), "weight-averaging", cl::init(ModelOptions().weightAveraging),
    cl::desc("Decay per step of the moving average of the weights that is "
             "validated and saved (0: the last weights)"));
static cl::opt<std::string> earlyStopping(
    cl::cat(category), "early-stopping", cl::init(ModelOptions().earlyStopping),
    cl::desc("Validation metric early stopping watches: pca or ndcg"));
static cl::opt<unsigned> epochs(cl::cat(category), "epochs", cl::desc("Most epochs"), cl::init(60));
static cl::opt<unsigned> patience(
    cl::cat(category), "patience", cl::desc("Epochs without a better validation score before stopping"),
    cl::init(8));
static cl::opt<unsigned> groupsPerBatch(
    cl::cat(category), "groups-per-batch", cl::init(ModelOptions().groupsPerBatch),
    cl::desc("(task, target) groups in a batch (networks)"));
static cl::opt<unsigned> samplesPerGroup(
    cl::cat(category), "samples-per-group", cl::init(ModelOptions().samplesPerGroup),
    cl::desc("Schedules drawn from each group of a batch: the list LambdaRank "
             "ranks (networks)"));
static cl::opt<double> learningRate(cl::cat(category), "learning-rate", cl::init(1e-3),
                                    cl::desc("Adam's step size (XGBoost: eta)"));
static cl::opt<int64_t> dModel(cl::cat(category), "d-model", cl::init(0),
                               cl::desc("Width of mamba / attention (0: default)"));
static cl::opt<int64_t> dState(cl::cat(category), "d-state", cl::init(0),
                               cl::desc("Mamba's state size (0: default)"));
static cl::opt<int64_t> members(
    cl::cat(category), "members", cl::init(ModelOptions().members),
    cl::desc("Mamba: independent networks whose scores are averaged (0: "
             "default)"));
static cl::opt<int64_t> layers(cl::cat(category), "layers", cl::init(0),
                               cl::desc("Mamba blocks / attention layers (0: default)"));
static cl::opt<bool> bidirectional(
    cl::cat(category), "bidirectional", cl::init(true),
    cl::desc("Mamba: every second block reads the schedule backward "
             "(=false: the causal stack)"));
static cl::opt<int64_t> hidden(cl::cat(category), "hidden", cl::init(0),
                               cl::desc("TenSet-MLP width (0: default)"));
static cl::opt<double> dropout(
    cl::cat(category), "dropout", cl::init(0.1),
    cl::desc("Dropout on the representation the readout scores (networks)"));
static cl::opt<std::string> poolSampler(
    cl::cat(category), "pool-sampler", cl::init("none"),
    cl::desc("Train on a fraction of the training records (--new-target's, "
             "if given): whole tasks, 'tasks' at random or 'heavy-tasks' in "
             "proportion to FLOPs times occurrences (from a teacher, first "
             "what its last target's labels left out), or a fraction of each "
             "task's, 'random' or by 'rdu' (active learning in rounds); "
             "'none': all"));
static cl::opt<double> poolFraction(cl::cat(category), "pool-fraction", cl::init(0.1),
                                    cl::desc("Fraction --pool-sampler keeps"));
static cl::opt<unsigned> poolRounds(
    cl::cat(category), "pool-rounds", cl::init(4),
    cl::desc("Rounds of --pool-sampler=rdu (the first is random, or with "
             "--distill or --fine-tune in the starting model's embedding)"));
static cl::opt<std::string> newTarget(
    cl::cat(category), "new-target",
    cl::desc("The target being learned: the pool sampler picks from its "
             "records, the metrics are on it, other targets' records are "
             "earlier data (--distill's replay, --multi-task's other heads)"),
    cl::init(""));
static cl::opt<std::string> distillFrom(
    cl::cat(category), "distill", cl::desc("Distill this teacher model onto --new-target"),
    cl::init(""));
static cl::opt<std::string> fineTune(
    cl::cat(category), "fine-tune", cl::desc("Train this model further on --new-target"),
    cl::init(""));
static cl::opt<bool> multiTask(
    cl::cat(category), "multi-task",
    cl::desc("A readout per target on a shared network, trained on every "
             "target's records at once (MTL-TLP)"),
    cl::init(false));
/// 1,000 rather than 500: with the two-member network the distilled chain
/// v3 -> v2 -> znver5 forgot 3.05 PCA points of v3 with 500 and 2.24 with
/// 1,000, at the same accuracy on the new targets
/// (docs/results/distillation.md, "More replay").
static cl::opt<unsigned> replayRecords(
    cl::cat(category), "replay", cl::init(1000),
    cl::desc("--distill: records of each earlier target replayed"));
static cl::opt<double> scoreWeight(
    cl::cat(category), "distill-score-weight", cl::init(DistillationOptions().scoreWeight),
    cl::desc("--distill: weight of matching the teacher's scores of the "
             "new target's schedules"));
static cl::opt<double> representationWeight(
    cl::cat(category), "distill-representation-weight",
    cl::init(DistillationOptions().representationWeight),
    cl::desc("--distill: weight of matching the teacher's representations "
             "of the new target's schedules"));
static cl::opt<double> replayScoreWeight(
    cl::cat(category), "replay-score-weight",
    cl::init(DistillationOptions().replayScoreWeight),
    cl::desc("--distill: weight of matching the teacher's scores of the "
             "replay"));
static cl::opt<double> replayRepresentationWeight(
    cl::cat(category), "replay-representation-weight",
    cl::init(DistillationOptions().replayRepresentationWeight),
    cl::desc("--distill: weight of matching the teacher's representations "
             "of the replay"));
static cl::opt<double> replayWeight(
    cl::cat(category), "replay-weight", cl::init(DistillationOptions().replayWeight),
    cl::desc("--distill: weight of the ranking loss on the replay"));
static cl::opt<double> studentShare(
    cl::cat(category), "distill-student-share",
    cl::init(DistillationOptions().studentShare),
    cl::desc("--distill: the student's share of its final weights, the "
             "teacher's the rest (1: the student as trained)"));
static cl::opt<unsigned> replayTrials(
    cl::cat(category), "replay-tuning", cl::init(0),
    cl::desc("After training or loading, replay tuning with this many trials "
             "per held-out task (0: none)"));
static cl::opt<std::string> replaySampler(
    cl::cat(category), "replay-sampler", cl::init(TuneOptions().sampler),
    cl::desc("--replay-tuning: the tuner's sampler, rdu or topk"));
static cl::opt<int> replayUpdateSteps(
    cl::cat(category), "replay-update-steps", cl::init(-1),
    cl::desc("--replay-tuning: gradient steps of the online update per round "
             "(-1: the model's own, 10 for Mamba and 20 for the others)"));
static cl::opt<bool> replayAnchor(
    cl::cat(category), "replay-anchor", cl::init(TuneOptions().anchoredUpdate),
    cl::desc("--replay-tuning: hold the online update to the model as it "
             "started"));
static cl::opt<uint64_t> seed(cl::cat(category), "seed", cl::desc("Seed of initialization, batches and split"),
                              cl::init(0));
static cl::opt<unsigned> threads(cl::cat(category), "num-threads", cl::desc("Threads for training and inference"),
                                 cl::init(2));
static cl::opt<double> validationFraction(
    cl::cat(category), "validation", cl::desc("Share of the training data held out for early "
                           "stopping: of each task's records, or of the "
                           "tasks with --validation-split=tasks"),
    cl::init(0.1));
/// How the validation records are chosen.
enum class ValidationSplit { Auto, Records, Tasks };
static cl::opt<ValidationSplit> validationSplit(
    cl::cat(category), "validation-split", cl::init(ValidationSplit::Auto),
    cl::desc("How --validation holds records out"),
    cl::values(
        clEnumValN(ValidationSplit::Auto, "auto",
                   "a share of each task's records, or whole tasks when that "
                   "leaves most tasks nothing to rank"),
        clEnumValN(ValidationSplit::Records, "records",
                   "a share of each task's records"),
        clEnumValN(ValidationSplit::Tasks, "tasks",
                   "whole tasks: early stopping watches how unseen tasks "
                   "are ranked")));
static cl::opt<std::string> jsonPath(cl::cat(category), "json", cl::desc("Write the metrics as JSON"),
                                     cl::init(""));
static cl::opt<bool> verbose(cl::cat(category), "v", cl::desc("Print every epoch"), cl::init(false));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "tcl-train: " << message << "\n";
  return 1;
}

/// Scores per second at batch 4096: the median over batches of at least
/// a second in all, because other tenants of a shared machine slow some
/// batches down 2x and a mean would report them.
static double inferenceThroughput(CostModel &model, const Dataset &dataset) {
  if (dataset.size() == 0)
    return 0;
  size_t count = std::min<size_t>(dataset.size(), 4096);
  SequenceBatch batch{dataset.tokens.data(), dataset.lengths.data(), count,
                      dataset.length};
  model.predict(batch); // warm-up
  std::vector<double> rates;
  double elapsed = 0;
  while (rates.size() < 9 || elapsed < 1.0) {
    auto start = std::chrono::steady_clock::now();
    model.predict(batch);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    rates.push_back(count / seconds);
    elapsed += seconds;
  }
  std::nth_element(rates.begin(), rates.begin() + rates.size() / 2, rates.end());
  return rates[rates.size() / 2];
}

/// Whether `path` can be written, asked before the training whose result
/// goes there: a missing directory found only at the end would lose the
/// trained model.
static llvm::Error checkWritable(llvm::StringRef path) {
  auto cannot = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write '" + path + "': " + why);
  };
  if (llvm::sys::fs::is_directory(path))
    return cannot("it is a directory");
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (parent.empty())
    parent = ".";
  if (!llvm::sys::fs::is_directory(parent))
    return cannot("no directory '" + parent + "'");
  if (llvm::sys::fs::access(parent, llvm::sys::fs::AccessMode::Write))
    return cannot("'" + parent + "' is not writable");
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "tcl cost-model trainer\n");
  int modes = !evaluatePath.empty() + !distillFrom.empty() + !fineTune.empty() +
              multiTask;
  if (modes > 1)
    return fail("--evaluate, --distill, --fine-tune and --multi-task exclude "
                "each other");
  if ((!distillFrom.empty() || !fineTune.empty() || multiTask) &&
      newTarget.empty())
    return fail("--distill, --fine-tune and --multi-task need --new-target");
  // Without a sampler every record is trained on: a fraction given alone
  // would be ignored, and the model reported as trained on it.
  if (poolSampler == "none" &&
      (poolFraction.getNumOccurrences() || poolRounds.getNumOccurrences()))
    return fail("--pool-fraction and --pool-rounds need --pool-sampler "
                "(tasks, heavy-tasks, random or rdu)");
  if (poolSampler != "none" && !(poolFraction > 0 && poolFraction <= 1))
    return fail("--pool-fraction must be in (0, 1]");
  if (replayTrials && testNetworks.empty())
    return fail("--replay-tuning replays the tasks of --test-networks");
  if (replaySampler != "rdu" && replaySampler != "topk")
    return fail("--replay-sampler must be rdu or topk, not '" + replaySampler +
                "'");
  DistillationOptions weights;
  weights.scoreWeight = scoreWeight;
  weights.representationWeight = representationWeight;
  weights.replayScoreWeight = replayScoreWeight;
  weights.replayRepresentationWeight = replayRepresentationWeight;
  weights.replayWeight = replayWeight;
  weights.studentShare = studentShare;
  if (!distillFrom.empty())
    if (llvm::Error error = weights.verify())
      return fail(llvm::toString(std::move(error)));
  for (const std::string *path : {&outputPath.getValue(), &jsonPath.getValue()})
    if (!path->empty())
      if (llvm::Error error = checkWritable(*path))
        return fail(llvm::toString(std::move(error)));
  if (!llvm::sys::fs::exists(databasePath))
    return fail("'" + databasePath + "': no such database");
  auto db = TuningDatabase::open(databasePath, /*create=*/false);
  if (!db)
    return fail(llvm::toString(db.takeError()));

  DatasetOptions datasetOptions;
  datasetOptions.targets.assign(targets.begin(), targets.end());
  if (llvm::errs().is_displayed())
    datasetOptions.progress = [](size_t done, size_t all) {
      llvm::errs() << "\rtcl-train: featurizing task " << done << "/" << all;
      if (done == all)
        llvm::errs() << "\n";
    };
  double featurizeSeconds = 0;
  datasetOptions.featurizeSeconds = &featurizeSeconds;
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<Dataset> dataset = loadDataset(**db, datasetOptions);
  if (!dataset)
    return fail(llvm::toString(dataset.takeError()));
  double loadSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (dataset->size() == 0)
    return fail("'" + databasePath + "' has no valid records to learn from");
  std::set<std::string> known = dataset->networks();
  for (const std::string &network : testNetworks)
    if (!known.count(network))
      return fail("no network '" + network + "' in the database (it has: " +
                  llvm::join(known, ", ") + ")");
  std::set<std::string> held(testNetworks.begin(), testNetworks.end());
  auto [trainPart, testPart] = splitByNetworks(*dataset, held);
  llvm::errs() << llvm::format(
      "tcl-train: %zu records, %zu groups, %u tokens/schedule, loaded in %.1f s, "
      "featurized at %.0f schedules/s; training on %zu records, testing on %zu\n",
      dataset->size(), dataset->groups.size(), dataset->length, loadSeconds,
      dataset->size() / std::max(featurizeSeconds, 1e-9), trainPart.size(),
      testPart.size());

  // What is learned (`learning`) and what came before (`earlier`).
  Dataset learning = std::move(trainPart), earlier;
  if (!newTarget.empty()) {
    if (!llvm::is_contained(dataset->targets, newTarget.getValue()))
      return fail("no records of target '" + newTarget + "' (the database has: " +
                  llvm::join(dataset->targets, ", ") + ")");
    auto isNew = [](const DatasetGroup &group) { return group.target == newTarget; };
    earlier = learning.selectGroups([&](const DatasetGroup &group) { return !isNew(group); });
    learning = learning.selectGroups(isNew);
    testPart = testPart.selectGroups(isNew);
  }

  std::unique_ptr<CostModel> model;
  TrainingReport report;
  auto loadPath = [](llvm::StringRef path) {
    return path == "default" ? CostModel::defaultPath() : path.str();
  };
  auto loadModel = [&](llvm::StringRef path) {
    return CostModel::load(loadPath(path));
  };
  // --distill and --fine-tune continue their starting model's network:
  // options that describe a new one would be ignored, and a user asking for
  // another network would get the teacher's without a word.
  llvm::StringRef startFrom = !distillFrom.empty() ? distillFrom : fineTune;
  std::unique_ptr<CostModel> startModel;
  if (!startFrom.empty()) {
    auto loaded = loadModel(startFrom);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    startModel = std::move(*loaded);
    const std::string &kind = startModel->options().kind;
    if (modelKind.getNumOccurrences() && modelKind != kind)
      return fail(llvm::Twine("--model=") + modelKind.getValue() +
                  " asks for another network than '" + startFrom + "', a " +
                  kind + " model: --distill and --fine-tune continue its "
                  "network");
    const cl::Option *shapes[] = {&dModel,        &dState, &members, &layers,
                                  &bidirectional, &hidden, &dropout};
    for (const cl::Option *shape : shapes)
      if (shape->getNumOccurrences())
        return fail(llvm::Twine("--") + shape->ArgStr +
                    " describes a network, and '" + startFrom +
                    "' brings its own (--distill and --fine-tune continue it)");
  }

  size_t trainRecords = learning.size();
  if (!evaluatePath.empty()) {
    auto loaded = loadModel(evaluatePath);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    model = std::move(*loaded);
  } else {
    ModelOptions options;
    options.kind = modelKind;
    options.loss = loss;
    options.gainExponent = gainExponent;
    options.weightAveraging = weightAveraging;
    options.epochs = epochs;
    options.patience = patience;
    options.earlyStopping = earlyStopping;
    options.learningRate = learningRate;
    options.groupsPerBatch = groupsPerBatch;
    options.samplesPerGroup = samplesPerGroup;
    options.dModel = dModel;
    options.dState = dState;
    options.members = members;
    options.layers = layers;
    options.bidirectional = bidirectional;
    options.hidden = hidden;
    options.dropout = dropout;
    options.perTargetHeads = multiTask;
    options.seed = seed;
    options.threads = threads;
    options.verbose = verbose;
    if (learning.size() == 0)
      return fail("every task is in a test network; nothing to train on");
    Dataset labelled = learning;
    if (poolSampler != "none") {
      PoolSamplingOptions pool;
      pool.sampler = poolSampler;
      pool.fraction = poolFraction;
      pool.rounds = poolRounds;
      pool.model = options;
      pool.seed = seed;
      pool.verbose = verbose;
      // A student picks what to learn from in its teacher's embedding, and
      // complements the tasks its teacher learned its last target from.
      if (!startFrom.empty()) {
        pool.warmStart = loadPath(startFrom);
        if (const std::set<std::string> *tasks = startModel->lastTargetTasks())
          pool.teacherLabelled = *tasks;
        else if (poolSampler == "heavy-tasks")
          llvm::errs() << "tcl-train: '" << startFrom
                       << "' does not record the tasks it learned its last "
                          "target from (saved before they were); heavy-tasks "
                          "draws as without a teacher\n";
      }
      auto chosen = samplePool(learning, pool);
      if (!chosen)
        return fail(llvm::toString(chosen.takeError()));
      labelled = learning.select(*chosen);
      // As many gradient steps as on the whole pool: a model trained on a
      // tenth of the data for the same epochs would be judged undertrained,
      // not short of data. An epoch is at least one batch.
      auto batches = [&](size_t records) {
        return std::max<size_t>(
            1, records / (static_cast<size_t>(options.groupsPerBatch) *
                          options.samplesPerGroup));
      };
      // Multi-task training also learns from all of the earlier data.
      size_t alsoTrained = multiTask ? earlier.size() : 0;
      double scale = static_cast<double>(batches(alsoTrained + learning.size())) /
                     batches(alsoTrained + labelled.size());
      options.epochs = static_cast<unsigned>(std::lround(options.epochs * scale));
      options.patience =
          static_cast<unsigned>(std::lround(options.patience * scale));
      llvm::errs() << llvm::format("tcl-train: %s kept %zu records (%.1f%%) "
                                   "of the training networks\n",
                                   poolSampler.c_str(), labelled.size(),
                                   100.0 * labelled.size() / learning.size());
    }
    trainRecords = labelled.size();
    if (startModel) {
      model = std::move(startModel);
      if (llvm::Error error = model->setTrainingOptions(options))
        return fail(llvm::toString(std::move(error)));
    } else {
      auto created = CostModel::create(options);
      if (!created)
        return fail(llvm::toString(created.takeError()));
      model = std::move(*created);
    }
    if (multiTask) {
      labelled = concatenate(earlier, labelled);
      trainRecords = labelled.size();
    }
    auto [validation, train] = labelled.splitSamples(validationFraction, seed);
    // A small share of each task leaves it one validation record or none:
    // nothing to rank, so early stopping would watch the training records
    // and keep the most overfit epoch. Whole tasks are held out instead,
    // which asks what the test networks ask: how unseen tasks are ranked.
    bool wholeTasks =
        validationSplit == ValidationSplit::Tasks ||
        (validationSplit == ValidationSplit::Auto &&
         validation.size() < 2 * std::max<size_t>(1, validation.groups.size()));
    if (wholeTasks)
      std::tie(validation, train) = labelled.splitGroups(validationFraction, seed);
    llvm::errs() << llvm::format(
        wholeTasks ? "tcl-train: validation: %zu records, whole tasks held "
                     "out: %zu\n"
                   : "tcl-train: validation: %zu records of %zu training "
                     "tasks\n",
        validation.size(), validation.groups.size());
    llvm::Expected<TrainingReport> trained = TrainingReport();
    if (!distillFrom.empty()) {
      auto teacher = loadModel(distillFrom);
      if (!teacher)
        return fail(llvm::toString(teacher.takeError()));
      // A few records of each target the teacher knows, at random.
      std::vector<size_t> replayed;
      std::mt19937_64 random(seed);
      for (const std::string &target : (*teacher)->targets()) {
        std::vector<size_t> records;
        for (const DatasetGroup &group : earlier.groups)
          if (group.target == target)
            for (size_t i = group.begin; i < group.end; ++i)
              records.push_back(i);
        std::shuffle(records.begin(), records.end(), random);
        records.resize(std::min<size_t>(records.size(), replayRecords));
        replayed.insert(replayed.end(), records.begin(), records.end());
      }
      Dataset replay = earlier.select(replayed);
      DistillationData data{&train, &validation, &learning, &replay};
      llvm::errs() << llvm::format(
          "tcl-train: distilling onto %s from %zu labelled records, %zu "
          "schedules and a replay of %zu records\n",
          newTarget.c_str(), labelled.size(), learning.size(), replay.size());
      trained = model->distill(**teacher, data, weights);
    } else {
      trained = model->train(train, validation);
    }
    if (!trained)
      return fail(llvm::toString(trained.takeError()));
    report = *trained;
    if (!outputPath.empty())
      if (llvm::Error error = model->save(outputPath))
        return fail(llvm::toString(std::move(error)));
  }

  const Dataset &evaluated = testPart.size() ? testPart : learning;
  RankingMetrics metrics =
      evaluateRanking(evaluated, model->predict(evaluated.all()), held);
  double throughput = inferenceThroughput(*model, *dataset);
  llvm::outs() << llvm::format(
      "%-11s %10s %9s %8s %12s %7s %7s %7s\n", "model", "parameters",
      "train (s)", "epochs", "scores/s", "PCA", "top-1", "top-5");
  llvm::outs() << llvm::format("%-11s %10lld %9.1f %8u %12.0f %7.4f %7.4f %7.4f\n",
                               model->options().kind.c_str(),
                               static_cast<long long>(model->parameterCount()),
                               report.seconds, report.epochs, throughput,
                               metrics.pairwiseAccuracy, metrics.top1, metrics.top5);
  for (const auto &[name, top] : metrics.topByNetwork)
    llvm::outs() << llvm::format("  %-36s top-1 %.4f  top-5 %.4f\n", name.c_str(),
                                 top.first, top.second);

  std::vector<ReplayPoint> replay;
  if (replayTrials) {
    ReplayOptions options;
    options.trialsPerTask = replayTrials;
    options.tuner.sampler = replaySampler;
    if (replayUpdateSteps >= 0)
      options.tuner.updateSteps = static_cast<unsigned>(replayUpdateSteps);
    options.tuner.anchoredUpdate = replayAnchor;
    options.tuner.seed = seed;
    auto points = replayTuning(*model, testPart, options);
    if (!points)
      return fail(llvm::toString(points.takeError()));
    replay = std::move(*points);
    llvm::outs() << llvm::format(
        "replayed tuning of %zu tasks (%s, %u update steps%s): best found / "
        "best record\n",
        testPart.groups.size(), replaySampler.c_str(),
        options.tuner.updateStepsFor(*model),
        replayAnchor ? ", anchored" : "");
    for (const ReplayPoint &point : replay) {
      if (point.trials & (point.trials - 1) && point.trials != replayTrials)
        continue; // powers of two and the last
      llvm::outs() << llvm::format("  %3u trials  mean %.4f", point.trials,
                                   point.meanBestFound);
      for (const auto &[network, ratio] : point.networkBestFound)
        llvm::outs() << llvm::format("  %s %.4f", network.c_str(), ratio);
      llvm::outs() << "\n";
    }
  }

  if (!jsonPath.empty()) {
    json::Array replayJson;
    for (const ReplayPoint &point : replay) {
      json::Object networks;
      for (const auto &[network, ratio] : point.networkBestFound)
        networks[network] = ratio;
      replayJson.push_back(json::Object{{"trials", static_cast<int64_t>(point.trials)},
                                        {"mean_best_found", point.meanBestFound},
                                        {"networks", std::move(networks)}});
    }
    json::Object perNetwork;
    for (const auto &[name, top] : metrics.topByNetwork)
      perNetwork[name] = json::Object{{"top1", top.first}, {"top5", top.second}};
    json::Object perTask;
    for (const auto &[name, task] : metrics.byTask) {
      json::Object shares;
      for (const auto &[network, share] : task.networkShare)
        shares[network] = share;
      perTask[name] = json::Object{{"top1", task.top1},
                                   {"pca", task.pairwiseAccuracy},
                                   {"pairs", task.pairs},
                                   {"samples", task.samples},
                                   {"network_share", std::move(shares)}};
    }
    json::Array heldOut;
    for (const std::string &network : testNetworks)
      heldOut.push_back(network);
    json::Object out{{"model", model->options().kind},
                     {"parameters", model->parameterCount()},
                     {"train_seconds", report.seconds},
                     {"epochs", static_cast<int64_t>(report.epochs)},
                     {"best_epoch", static_cast<int64_t>(report.bestEpoch)},
                     {"validation_score", report.validationScore},
                     {"early_stopping", model->options().earlyStopping},
                     {"scores_per_second", throughput},
                     {"featurize_per_second", dataset->size() / std::max(featurizeSeconds, 1e-9)},
                     {"load_seconds", loadSeconds},
                     {"test_networks", std::move(heldOut)},
                     {"train_records", static_cast<int64_t>(trainRecords)},
                     {"new_target", newTarget.getValue()},
                     {"targets_seen", json::Array(model->targets())},
                     {"pool_sampler", poolSampler.getValue()},
                     {"test_records", static_cast<int64_t>(evaluated.size())},
                     {"pca", metrics.pairwiseAccuracy},
                     {"top1", metrics.top1},
                     {"top5", metrics.top5},
                     {"rmse", metrics.rmse},
                     {"per_network", std::move(perNetwork)},
                     {"per_task", std::move(perTask)},
                     {"replay", std::move(replayJson)}};
    std::error_code error;
    llvm::raw_fd_ostream file(jsonPath, error);
    if (error)
      return fail("cannot write '" + jsonPath + "': " + error.message());
    file << json::Value(std::move(out)) << "\n";
  }
  return 0;
}
