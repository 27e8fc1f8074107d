//===- Tuner.cpp - Cost-model-guided tuning of a model's tasks ------------===//
//
// The loop of tuneModule: the task scheduler picks a task; evolutionary
// search proposes candidates scored by the cost model; the sampler picks a
// batch; the batch is measured in isolated processes and stored; the model
// learns from everything measured so far. Everything the tuner knows is in
// the database, so a rerun resumes where the last run stopped.
//
//===----------------------------------------------------------------------===//

#include "tcl/Tune/Tuner.h"

#include "Progress.h"
#include "TuningTask.h"

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Measure/Baseline.h"
#include "tcl/Measure/Record.h"
#include "tcl/Measure/TaskList.h"
#include "tcl/Passes/Passes.h"
#include "tcl/Model/CostModel.h"
#include "tcl/Run/CoreLock.h"
#include "tcl/Run/ElidedResources.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Support/Context.h"
#include "tcl/Target/Machine.h"
#include "tcl/Target/TargetSpec.h"
#include "tcl/Task/StaticShapes.h"
#include "tcl/Tune/BatchPicking.h"
#include "tcl/Tune/Exploration.h"
#include "tcl/Tune/TaskScheduler.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <csignal>
#include <ctime>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace tcl;

/// Baselines the tuner stores beside oneDNN's: the default schedule's time.
static constexpr llvm::StringLiteral kDefaultLibrary = "tcl-default";

namespace {

class Tuner {
public:
  Tuner(const TuneOptions &options, llvm::raw_ostream &log)
      : options(options), log(log), machine(currentMachine()),
        allowed(allowedCores()) {}

  llvm::Expected<TuneResult> run(ModuleOp module);

private:
  llvm::Error setUp(ModuleOp module);
  llvm::Error loadModel();
  /// The default schedule's and oneDNN's times stored for the tasks.
  llvm::Error readBaselines();
  /// Those `task` lacks, measured and stored: once per target and machine.
  llvm::Error measureBaselines(TuningTask &task);
  /// Whether oneDNN has a primitive for `task` and tcl-onednn is at hand.
  bool hasOnednn(const TuningTask &task) const;
  /// oneDNN's time for `task`, measured now, as a row to store.
  BaselineRow measureOnednn(const TuningTask &task);
  /// oneDNN measured again for every task that has a time, which becomes
  /// the faster of the two. A burst of load on a shared machine while a
  /// run measured its baselines made oneDNN's sum 6-9% slower than in the
  /// runs beside it; an end-to-end report, which compares the tuned network
  /// with that sum, measures it twice, minutes apart. Sums of the faster
  /// times still differ by up to 11% between runs (docs/results/tuning.md),
  /// so benchmarks/tuning.py also compares runs in one unit.
  llvm::Error remeasureOnednn();
  /// The evaluator of `task`, created with its baselines on first use.
  llvm::Error prepareEvaluator(TuningTask &task);
  /// One round of `task`: search, sample, measure. Returns how many
  /// candidates were measured (0: the space is exhausted).
  llvm::Expected<unsigned> round(TuningTask &task, unsigned budget);
  /// Measures `task`'s fastest schedule again until it has
  /// TuneOptions::confirmations more measurements, whichever schedule is
  /// fastest after each. Returns how many measurements it took.
  llvm::Expected<unsigned> confirmBest(TuningTask &task);
  /// The batch to measure: the sampler's picks from the search's pool plus
  /// a random share. A task's `firstRound` takes the model's top picks.
  std::vector<Assignment> pickBatch(TuningTask &task, unsigned count,
                                    bool firstRound);
  /// Measures `batch`, stores every outcome, and adds it to `task`.
  llvm::Error measure(TuningTask &task, llvm::ArrayRef<Assignment> batch);
  /// Builds, checks and times `schedule` of `task` in an isolated process:
  /// the record to store under `assignment` (the schedule as text),
  /// whatever its outcome. A confirmation passes the text its earlier
  /// records carry, which a resumed database may spell otherwise.
  RecordRow measureOne(TuningTask &task, const Assignment &schedule,
                       llvm::StringRef assignment);
  /// Measures every `workers`-th schedule of `batch` from `worker` on.
  llvm::Error measureHere(TuningTask &task, llvm::ArrayRef<Assignment> batch,
                          unsigned worker, unsigned workers,
                          TuningDatabase &into);
  /// The online update on everything measured for the tuned tasks.
  llvm::Error updateModel();
  unsigned updateSteps() const { return options.updateStepsFor(*model); }
  /// Whether the model as loaded, rather than the updated one, scores
  /// `task`'s next round: a task with nothing measured gains nothing from
  /// the updates on other tasks' records, and may have lost to them what
  /// pre-training taught about it.
  bool scoresWithInitialModel(const TuningTask &task) const {
    return task.measured.empty() && initialModel;
  }
  /// Random schedules of every task, which the online update is held to
  /// the initial model's view of (UpdateAnchor).
  void drawAnchorSchedules();
  /// The best schedules of the module as one Transform library.
  llvm::FailureOr<OwningOpRef<ModuleOp>> scheduleLibrary(ModuleOp module,
                                                         TuneResult &result);
  llvm::Error measureEndToEnd(ModuleOp module, TuneResult &result);
  TunedTask summarize(const TuningTask &task) const;
  EvaluationOptions evaluationFor(unsigned worker) const;

  const TuneOptions &options;
  llvm::raw_ostream &log;
  MachineInfo machine;
  llvm::SmallVector<unsigned> allowed;
  TargetSpec spec;
  std::optional<CpuTarget> target;
  std::string targetName;
  /// The cost model file, or a kind to start untrained.
  std::string modelPath;
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<TuningDatabase> db;
  std::unique_ptr<CostModel> model;
  /// The model as loaded, and the schedules on which updates are held to it
  /// (TuneOptions::anchoredUpdate); none for an untrained model.
  std::unique_ptr<CostModel> initialModel;
  Dataset anchorSchedules;
  std::vector<std::unique_ptr<TuningTask>> tasks;
  std::mt19937_64 random;
  unsigned measuredThisRun = 0;
  /// Records the last online update learned from (a round's history line).
  size_t lastUpdateRecords = 0;
  /// This run's time so far, by phase.
  TuningTime spent;
};

/// Adds the wall time of its scope to a phase's total.
class PhaseTimer {
public:
  explicit PhaseTimer(double &total)
      : total(total), start(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           start)
                 .count();
  }

private:
  double &total;
  std::chrono::steady_clock::time_point start;
};

} // namespace

EvaluationOptions Tuner::evaluationFor(unsigned worker) const {
  EvaluationOptions evaluation = options.evaluation;
  evaluation.cpu = spec.cpu;
  evaluation.features = spec.features;
  evaluation.threads = spec.threads;
  evaluation.check = true;
  evaluation.cores.clear();
  for (unsigned i = 0; i < std::min<size_t>(spec.threads, allowed.size()); ++i)
    evaluation.cores.push_back(allowed[(worker * spec.threads + i) % allowed.size()]);
  return evaluation;
}

llvm::Error Tuner::loadModel() {
  if (llvm::is_contained(costModelKinds(), modelPath)) {
    ModelOptions modelOptions;
    modelOptions.kind = modelPath;
    modelOptions.seed = options.seed;
    modelOptions.threads = std::max<unsigned>(1, allowed.size());
    auto created = CostModel::create(modelOptions);
    if (!created)
      return created.takeError();
    model = std::move(*created);
    return llvm::Error::success();
  }
  auto loaded = CostModel::load(modelPath);
  if (!loaded)
    return loaded.takeError();
  model = std::move(*loaded);
  // A trained model's online updates are held to what it knows now.
  if (options.anchoredUpdate && updateSteps() > 0) {
    auto copy = model->clone();
    if (!copy)
      return copy.takeError();
    initialModel = std::move(*copy);
  }
  return llvm::Error::success();
}

void Tuner::drawAnchorSchedules() {
  std::mt19937_64 draw(options.seed);
  for (const std::unique_ptr<TuningTask> &task : tasks) {
    std::set<std::string> seen;
    std::vector<Assignment> schedules;
    for (unsigned attempt = 0; schedules.size() < options.anchorSchedules &&
                               attempt < 4 * options.anchorSchedules;
         ++attempt) {
      std::optional<Assignment> sample = task->space().sample(draw());
      if (!sample)
        break;
      if (seen.insert(task->space().format(*sample)).second)
        schedules.push_back(std::move(*sample));
    }
    task->appendGroup(anchorSchedules, targetName, schedules,
                      std::vector<double>(schedules.size(), 1.0));
  }
}

llvm::Error Tuner::setUp(ModuleOp module) {
  llvm::Expected<TargetSpec> parsed = TargetSpec::parse(options.target);
  if (!parsed)
    return parsed.takeError();
  spec = *parsed;
  targetName = spec.name();
  llvm::Expected<CpuTarget> resolved = spec.resolve();
  if (!resolved)
    return resolved.takeError();
  target = *resolved;
  // A model distilled for this target; for "host", also the one for the
  // CPU it resolves to: on a Zen 5, x86_64:host:1t is x86_64:znver5:1t.
  std::vector<std::string> modelTargets = {targetName};
  if (spec.cpu == "host" && spec.features.empty())
    modelTargets.push_back(
        TargetSpec{target->cpu, "", spec.threads}.name());
  modelPath = options.model.empty() ? CostModel::defaultPath(modelTargets)
                                    : options.model;
  if (options.batchSize == 0)
    return llvm::createStringError("the batch size must be at least 1");
  if (options.firstBatchSize == 0)
    return llvm::createStringError("the first batch size must be at least 1");
  if (options.poolFactor == 0)
    return llvm::createStringError("the pool factor must be at least 1");
  if (options.sampler != "rdu" && options.sampler != "topk")
    return llvm::createStringError("unknown sampler '" + options.sampler +
                                   "' (expected rdu or topk)");

  TaskList list;
  list.add(module, options.network, options.minTaskFlops);
  if (options.progress)
    for (const std::string &why : list.notOutlined())
      log << "tcl-tune: not tuned, keeps the default schedule: task " << why
          << "\n";
  if (list.tasks().empty())
    return llvm::createStringError(
        "the module has no tunable linalg op (with at least " +
        llvm::formatv("{0}", options.minTaskFlops) + " FLOPs)");

  auto opened = TuningDatabase::open(options.database);
  if (!opened)
    return opened.takeError();
  db = std::move(*opened);
  if (llvm::Error error = storeTasks(*db, list.tasks()))
    return error;
  if (llvm::Error error =
          db->addTarget({targetName, spec.cpu, spec.features, spec.threads}))
    return error;
  if (llvm::Error error = loadModel())
    return error;

  context = createContext();
  for (const OutlinedTask &outlined : list.tasks()) {
    auto featurizer =
        TaskFeaturizer::create(*context, outlined.payload, outlined.key,
                               *target, machine.hostCpu);
    if (!featurizer)
      return featurizer.takeError();
    double weight = outlined.occurrencesByNetwork.at(options.network);
    auto task = std::make_unique<TuningTask>(outlined, weight,
                                             std::move(*featurizer));
    // Resume: what this target and machine measured before counts.
    auto records = db->records(outlined.key);
    if (!records)
      return records.takeError();
    for (const RecordRow &record : *records)
      if (record.target == targetName &&
          record.machine.label() == machine.label())
        task->addRecord(record);
    tasks.push_back(std::move(task));
  }
  if (initialModel)
    drawAnchorSchedules();
  return readBaselines();
}

llvm::Error Tuner::readBaselines() {
  auto rows = db->baselines();
  if (!rows)
    return rows.takeError();
  std::map<std::string, TuningTask *> byKey;
  for (const std::unique_ptr<TuningTask> &task : tasks)
    byKey[task->info.key] = task.get();
  for (const BaselineRow &row : *rows) {
    auto it = byKey.find(row.taskKey);
    if (it == byKey.end() || row.target != targetName ||
        row.machine.label() != machine.label())
      continue;
    std::optional<double> seconds =
        row.status == "ok" ? row.medianSeconds : std::nullopt;
    if (row.library == kDefaultLibrary) {
      it->second->defaultMeasured = true;
      it->second->defaultSeconds = seconds;
    } else if (row.library == "onednn") {
      it->second->onednnMeasured = true;
      it->second->onednnSeconds = seconds;
    }
  }
  return llvm::Error::success();
}

llvm::Error Tuner::measureBaselines(TuningTask &task) {
  if (!task.defaultMeasured) {
    CandidateResult result =
        task.evaluator->evaluate(ModuleOp(), /*fallback=*/"default");
    BaselineRow row;
    row.taskKey = task.info.key;
    row.target = targetName;
    row.machine = machine;
    row.library = kDefaultLibrary.str();
    row.primitive = "default schedule";
    row.status = result.ok ? "ok" : "failed";
    if (result.ok) {
      row.medianSeconds = result.timing.median;
      row.minSeconds = result.timing.min;
      row.spread = result.timing.relativeSpread;
      task.defaultSeconds = result.timing.median;
    }
    row.samples = result.timing.samples.size();
    row.error = result.failure;
    row.createdAt = std::time(nullptr);
    if (llvm::Error error = db->addBaseline(row))
      return error;
    task.defaultMeasured = true;
  }
  if (!task.onednnMeasured && hasOnednn(task)) {
    BaselineRow row = measureOnednn(task);
    if (row.status == "ok")
      task.onednnSeconds = row.medianSeconds;
    if (llvm::Error error = db->addBaseline(row))
      return error;
    task.onednnMeasured = true;
  }
  return llvm::Error::success();
}

bool Tuner::hasOnednn(const TuningTask &task) const {
  std::optional<TaskKind> kind = symbolizeTaskKind(task.info.kind);
  return !options.onednnTool.empty() && kind && hasOnednnBaseline(*kind);
}

BaselineRow Tuner::measureOnednn(const TuningTask &task) {
  BaselineRow row = measureOnednnBaseline(options.onednnTool, task.info.payload,
                                          *target, evaluationFor(0).cores);
  row.taskKey = task.info.key;
  row.target = targetName;
  row.machine = machine;
  return row;
}

llvm::Error Tuner::remeasureOnednn() {
  PhaseTimer timer(spent.measuring);
  for (const std::unique_ptr<TuningTask> &task : tasks) {
    if (!task->onednnSeconds || !hasOnednn(*task))
      continue;
    BaselineRow row = measureOnednn(*task);
    if (row.status != "ok" || !row.medianSeconds ||
        *row.medianSeconds >= *task->onednnSeconds)
      continue;
    task->onednnSeconds = row.medianSeconds;
    if (llvm::Error error = db->addBaseline(row))
      return error;
  }
  return llvm::Error::success();
}

llvm::StringRef TuneOptions::samplerAfter(unsigned roundsWithoutGain) const {
  bool stalled = stallRounds > 0 && roundsWithoutGain >= stallRounds;
  return stalled ? "topk" : llvm::StringRef(sampler);
}

unsigned TuneOptions::updateStepsFor(const CostModel &model) const {
  return updateSteps.value_or(model.onlineUpdateSteps());
}

std::vector<Assignment> Tuner::pickBatch(TuningTask &task, unsigned count,
                                         bool firstRound) {
  const Space &space = task.space();
  std::set<std::string> chosen;
  std::vector<Assignment> batch;
  auto take = [&](const Assignment &assignment) {
    std::string text = space.format(assignment);
    if (task.measured.count(text) || !chosen.insert(text).second)
      return false;
    batch.push_back(assignment);
    return true;
  };

  unsigned randomCount =
      std::min<unsigned>(count, std::lround(count * options.randomShare));
  unsigned modelCount = count - randomCount;
  CostModel &scorer = scoresWithInitialModel(task) ? *initialModel : *model;
  auto score = [&](llvm::ArrayRef<Assignment> schedules) {
    return scorer.predict(task.featurize(schedules).view());
  };
  // One parse of the task's valid schedules serves the seeds, the diversity
  // reference and the knobs' influence.
  std::vector<std::pair<Assignment, double>> timed = task.timedAssignments();
  auto fastest = [&](size_t count) {
    std::vector<Assignment> result;
    for (const auto &entry : llvm::ArrayRef(timed).take_front(count))
      result.push_back(entry.first);
    return result;
  };
  std::vector<Assignment> seeds = fastest(16);
  std::vector<ScoredSchedule> pool =
      evolve(space, seeds, score, task.measured,
             std::max(modelCount, modelCount * options.poolFactor),
             options.evolution, random);

  std::vector<Assignment> candidates;
  for (const ScoredSchedule &candidate : pool)
    candidates.push_back(candidate.assignment);
  // Diversity is measured against what this task already has.
  std::vector<Assignment> measured = fastest(256);
  RduOptions rdu = options.rdu;
  rdu.seed = random();
  for (size_t index :
       pickToMeasure(scorer, task.featurize(candidates).view(),
                     task.featurize(measured).view(), modelCount,
                     options.samplerAfter(task.roundsWithoutGain), rdu,
                     /*exploit=*/firstRound))
    take(candidates[index]);
  // The random share: options this task has never measured first, those
  // of the knobs that have mattered most first, then draws from the whole
  // space, which also fill what the pool could not.
  if (batch.size() < count) {
    std::vector<UntriedOption> untried =
        untriedOptionNeighbours(space, seeds, task.measuredAssignments());
    orderForExploration(untried, knobInfluence(space, timed),
                        random);
    for (const UntriedOption &option : untried) {
      if (batch.size() >= count)
        break;
      take(option.schedule);
    }
  }
  for (unsigned attempt = 0; batch.size() < count && attempt < 64 * count;
       ++attempt) {
    std::optional<Assignment> draw = space.sample(random());
    if (!draw)
      break;
    take(*draw);
  }
  return batch;
}

llvm::Error Tuner::measureHere(TuningTask &task,
                               llvm::ArrayRef<Assignment> batch,
                               unsigned worker, unsigned workers,
                               TuningDatabase &into) {
  for (size_t index = worker; index < batch.size(); index += workers)
    if (llvm::Error error = into.addRecord(measureOne(
            task, batch[index], task.space().format(batch[index]))))
      return error;
  return llvm::Error::success();
}

RecordRow Tuner::measureOne(TuningTask &task, const Assignment &schedule,
                            llvm::StringRef assignment) {
  OwningOpRef<ModuleOp> script = task.featurizer->script().clone();
  task.space().concretize(*script, schedule);
  CandidateResult result = task.evaluator->evaluate(*script);
  return makeRecord(task.info.key, targetName, machine, assignment,
                    *script, result);
}

llvm::Error Tuner::measure(TuningTask &task, llvm::ArrayRef<Assignment> batch) {
  llvm::Expected<int64_t> before = db->lastRecordId();
  if (!before)
    return before.takeError();
  unsigned workers = std::max(1u, std::min<unsigned>(options.workers, batch.size()));
  if (workers == 1) {
    if (llvm::Error error = measureHere(task, batch, 0, 1, *db))
      return error;
  } else {
    // Workers are processes: they build at once, and the core and machine
    // locks keep their timings apart. Each stores its records; the tuner
    // reads them back below.
    std::vector<pid_t> children;
    for (unsigned worker = 0; worker < workers; ++worker) {
      pid_t child = fork();
      if (child < 0)
        return llvm::createStringError("cannot fork a measuring worker");
      if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        task.evaluator->setCores(evaluationFor(worker).cores);
        auto own = TuningDatabase::open(options.database);
        llvm::Error error = own ? measureHere(task, batch, worker, workers, **own)
                                : own.takeError();
        if (error) {
          llvm::errs() << "tcl-tune: worker " << worker << ": "
                       << llvm::toString(std::move(error)) << "\n";
          llvm::errs().flush();
          _exit(1);
        }
        _exit(0);
      }
      children.push_back(child);
    }
    bool failedWorker = false;
    for (pid_t child : children) {
      int status = 0;
      waitpid(child, &status, 0);
      failedWorker |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    if (failedWorker)
      return llvm::createStringError(
          "a measuring worker failed (see above); what it "
          "measured is kept");
  }
  auto records = db->records(task.info.key);
  if (!records)
    return records.takeError();
  std::set<std::string> wanted;
  for (const Assignment &assignment : batch)
    wanted.insert(task.space().format(assignment));
  for (const RecordRow &record : *records)
    if (record.target == targetName && wanted.count(record.assignment) &&
        record.machine.label() == machine.label() &&
        !task.measured.count(record.assignment)) {
      task.addRecord(record);
      ++measuredThisRun;
    }
  return llvm::Error::success();
}

llvm::Error Tuner::prepareEvaluator(TuningTask &task) {
  if (task.evaluator)
    return llvm::Error::success();
  auto evaluator =
      CandidateEvaluator::create(task.featurizer->payload(), evaluationFor(0));
  if (failed(evaluator))
    return llvm::createStringError("task " + task.info.key +
                                   ": cannot compute its reference outputs");
  task.evaluator = std::move(*evaluator);
  PhaseTimer timer(spent.measuring);
  return measureBaselines(task);
}

llvm::Expected<unsigned> Tuner::round(TuningTask &task, unsigned budget) {
  if (llvm::Error error = prepareEvaluator(task))
    return std::move(error);
  bool firstRound = task.measured.empty();
  unsigned size = firstRound ? options.firstBatchSize : options.batchSize;
  std::vector<Assignment> batch;
  {
    PhaseTimer timer(spent.searching);
    batch = pickBatch(task, std::min(budget, size), firstRound);
  }
  if (batch.empty()) {
    task.exhausted = true;
    return 0;
  }
  size_t before = task.measured.size();
  double bestBefore = task.bestSeconds();
  PhaseTimer timer(spent.measuring);
  if (llvm::Error error = measure(task, batch))
    return std::move(error);
  task.roundsWithoutGain =
      task.bestSeconds() < bestBefore ? 0 : task.roundsWithoutGain + 1;
  return static_cast<unsigned>(task.measured.size() - before);
}

llvm::Expected<unsigned> Tuner::confirmBest(TuningTask &task) {
  unsigned taken = 0;
  while (task.confirmations < 4 * options.confirmations) {
    std::optional<std::pair<std::string, double>> best = task.best();
    if (!best || task.timesMeasured(best->first) > options.confirmations)
      break;
    std::optional<Assignment> schedule = task.parse(best->first);
    if (!schedule)
      break;
    if (llvm::Error error = prepareEvaluator(task))
      return std::move(error);
    PhaseTimer timer(spent.measuring);
    RecordRow record = measureOne(task, *schedule, best->first);
    if (llvm::Error error = db->addRecord(record))
      return std::move(error);
    task.addRecord(record);
    ++taken;
  }
  return taken;
}

llvm::Error Tuner::updateModel() {
  if (updateSteps() == 0)
    return llvm::Error::success();
  PhaseTimer timer(spent.updating);
  Dataset data;
  for (const std::unique_ptr<TuningTask> &task : tasks)
    task->appendTo(data, targetName);
  if (data.groups.empty())
    return llvm::Error::success();
  UpdateAnchor anchor;
  anchor.initial = initialModel.get();
  anchor.schedules = &anchorSchedules;
  lastUpdateRecords = data.size();
  return model->update(data, updateSteps(), anchor);
}

TunedTask Tuner::summarize(const TuningTask &task) const {
  TunedTask tuned;
  tuned.key = task.info.key;
  tuned.kind = task.info.kind;
  tuned.weight = task.weight;
  tuned.flops = task.info.flops;
  tuned.trials = task.measured.size();
  if (auto best = task.best()) {
    tuned.bestAssignment = best->first;
    tuned.bestSeconds = best->second;
  }
  tuned.defaultSeconds = task.defaultSeconds;
  tuned.onednnSeconds = task.onednnSeconds;
  tuned.lastFailure = task.lastFailure;
  tuned.defaultWins = options.keepDefault;
  return tuned;
}

llvm::FailureOr<OwningOpRef<ModuleOp>>
Tuner::scheduleLibrary(ModuleOp module, TuneResult &result) {
  OwningOpRef<ModuleOp> annotated = module.clone();
  FailureOr<OwningOpRef<ModuleOp>> script = buildCpuSpace(*annotated, *target);
  if (failed(script))
    return failure();
  std::set<std::string> tuned;
  std::vector<std::string> items;
  for (const TunedTask &task : result.tasks) {
    if (task.keepsDefault())
      continue;
    tuned.insert("tcl_" + task.key);
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(task.bestAssignment).split(parts, ',');
    items.insert(items.end(), parts.begin(), parts.end());
  }
  // Tasks without a tuned schedule keep the default one: their templates
  // (one per occurrence, @tcl_<key> and @tcl_<key>_<i>) leave the library.
  auto isTuned = [&](llvm::StringRef name) {
    return tuned.count(name.rsplit('_').first.str()) || tuned.count(name.str());
  };
  llvm::SmallVector<Operation *> untuned;
  (*script)->walk([&](Operation *op) {
    if (auto include = dyn_cast<transform::IncludeOp>(op)) {
      if (!isTuned(include.getTarget().getLeafReference()))
        untuned.push_back(op);
    } else if (auto sequence = dyn_cast<transform::NamedSequenceOp>(op)) {
      if (sequence.getSymName().starts_with("tcl_") &&
          !isTuned(sequence.getSymName()))
        untuned.push_back(op);
    }
  });
  for (Operation *op : untuned)
    op->erase();
  FailureOr<Space> space = Space::fromScript(**script);
  if (failed(space))
    return failure();
  FailureOr<Assignment> assignment = space->parseAssignment(
      items, std::nullopt, [&]() { return (*script)->emitError(); });
  if (failed(assignment))
    return failure();
  space->concretize(**script, *assignment);
  return std::move(*script);
}

/// The least time the end-to-end run of a tuned network may take to
/// compile and run.
static constexpr unsigned kEndToEndTimeoutSeconds = 900;

llvm::Error Tuner::measureEndToEnd(ModuleOp module, TuneResult &result) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  OwningOpRef<ModuleOp> copy =
      parseSourceString<ModuleOp>(text, ParserConfig(context.get()));
  if (!copy)
    return llvm::createStringError(
        "cannot copy the module for the end-to-end run");
  if (options.fillElidedSeed)
    fillElidedResources(*copy, *options.fillElidedSeed);
  // The whole network compiles every tuned op at once: BERT-base's 85 ops
  // with unrolled register tiles take over 100 s to compile on one core,
  // which the per-candidate limit is not sized for.
  EvaluationOptions evaluation = evaluationFor(0);
  evaluation.limits.timeoutSeconds =
      std::max(evaluation.limits.timeoutSeconds, kEndToEndTimeoutSeconds);
  auto evaluator = CandidateEvaluator::create(*copy, evaluation);
  if (failed(evaluator))
    return llvm::createStringError(
        "cannot run the module end to end (its entry function "
        "is '" +
        options.evaluation.entry + "')");
  // The library was built in the caller's context: reparse it here.
  std::string scheduleText;
  llvm::raw_string_ostream scheduleOs(scheduleText);
  result.schedule->print(scheduleOs);
  OwningOpRef<ModuleOp> schedule =
      parseSourceString<ModuleOp>(scheduleText, ParserConfig(context.get()));
  if (!schedule)
    return llvm::createStringError("the schedule library does not parse back");
  CandidateResult tuned = (*evaluator)->evaluate(*schedule);
  if (tuned.unjudged())
    llvm::errs() << "tcl-tune: warning: the end-to-end outputs are not "
                    "checked: the naive-loops reference has NaN or infinite "
                    "values on these random inputs; the times stand\n";
  else if (!tuned.ok)
    return llvm::createStringError("the tuned module failed end to end: " +
                                   tuned.failure);
  result.tunedSeconds = tuned.timing.median;
  CandidateResult untuned = (*evaluator)->evaluate(ModuleOp(), "default");
  if (untuned.ok || untuned.unjudged())
    result.defaultSeconds = untuned.timing.median;
  // Tasks oneDNN has no primitive for count at the time tcl gives them.
  double onednn = 0;
  bool any = false;
  for (const TunedTask &task : result.tasks) {
    std::optional<double> seconds =
        task.onednnSeconds ? task.onednnSeconds : task.chosenSeconds();
    any |= task.onednnSeconds.has_value();
    if (seconds)
      onednn += task.weight * *seconds;
  }
  if (any)
    result.onednnSumSeconds = onednn;
  return llvm::Error::success();
}

llvm::Expected<TuneResult> Tuner::run(ModuleOp module) {
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error error = setUp(module))
    return std::move(error);

  std::vector<double> weights;
  unsigned done = 0;
  for (const std::unique_ptr<TuningTask> &task : tasks) {
    weights.push_back(task->weight);
    done += task->measured.size();
  }
  TaskSchedulerOptions schedulerOptions;
  schedulerOptions.seed = options.seed;
  TaskScheduler scheduler(weights, schedulerOptions);
  for (auto [index, task] : llvm::enumerate(tasks))
    if (!task->measured.empty())
      scheduler.record(index, task->measured.size(), task->bestSeconds());
  random.seed(llvm::hash_combine(options.seed, done));
  if (options.progress)
    log << llvm::formatv("tcl-tune: {0} tasks on {1}; {2} of {3} trials "
                         "already in {4}; model {5} ({6}), sampler {7}\n",
                         tasks.size(), targetName, done, options.trials,
                         options.database, model->options().kind,
                         modelPath,
                         options.sampler);
  // Measurements the model has not learned from yet, such as a previous
  // run's. The update waits for a round that the updated model scores: the
  // model as loaded scores every task's first round (pickBatch), so updates
  // during the first rounds would be computed for nothing.
  bool modelBehind = done > 0;

  std::unique_ptr<llvm::raw_fd_ostream> history;
  if (!options.historyPath.empty()) {
    std::error_code error;
    history = std::make_unique<llvm::raw_fd_ostream>(
        options.historyPath, error, llvm::sys::fs::OF_Append);
    if (error)
      return llvm::createStringError("cannot write '" + options.historyPath +
                                     "': " + error.message());
  }
  while (done < options.trials) {
    auto roundStart = std::chrono::steady_clock::now();
    TuningTime before = spent;
    size_t index = scheduler.next();
    if (index == tasks.size())
      break;
    TuningTask &task = *tasks[index];
    lastUpdateRecords = 0;
    if (modelBehind && !scoresWithInitialModel(task)) {
      if (llvm::Error error = updateModel())
        return std::move(error);
      modelBehind = false;
    }
    llvm::Expected<unsigned> measured = round(task, options.trials - done);
    if (!measured)
      return measured.takeError();
    if (*measured == 0 && task.exhausted) {
      scheduler.retire(index);
      continue;
    }
    done += *measured;
    scheduler.record(index, *measured, task.bestSeconds());
    modelBehind = true;
    if (history) {
      llvm::json::Object line{
          {"task", task.info.key},
          {"measured", static_cast<int64_t>(*measured)},
          {"trials", static_cast<int64_t>(done)},
          {"seconds", std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - roundStart)
                          .count()},
          {"estimated_s", scheduler.estimatedTotal()},
          {"searching_s", spent.searching - before.searching},
          {"measuring_s", spent.measuring - before.measuring},
          {"updating_s", spent.updating - before.updating},
          {"update_records", static_cast<int64_t>(lastUpdateRecords)}};
      if (task.best())
        line["task_best_s"] = task.best()->second;
      *history << llvm::json::Value(std::move(line)) << "\n";
      history->flush();
    }
    if (options.progress) {
      TunedTask summary = summarize(task);
      RoundReport report;
      report.task = &summary;
      report.taskIndex = index;
      report.taskCount = tasks.size();
      report.trialsDone = done;
      report.trialsWanted = options.trials;
      report.estimatedSeconds = scheduler.estimatedTotal();
      report.elapsedSeconds = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - start)
                                  .count();
      report.measuredThisRun = measuredThisRun;
      printRound(log, report);
    }
  }

  unsigned confirmations = 0;
  for (const std::unique_ptr<TuningTask> &task : tasks) {
    llvm::Expected<unsigned> taken = confirmBest(*task);
    if (!taken)
      return taken.takeError();
    confirmations += *taken;
  }
  if (options.progress && confirmations)
    log << llvm::formatv("tcl-tune: {0} measurements of the fastest schedules "
                         "again before choosing them\n",
                         confirmations);
  if (options.endToEnd)
    if (llvm::Error error = remeasureOnednn())
      return std::move(error);
  TuneResult result;
  for (const std::unique_ptr<TuningTask> &task : tasks)
    result.tasks.push_back(summarize(*task));
  result.measured = measuredThisRun;
  result.time = spent;
  FailureOr<OwningOpRef<ModuleOp>> library = scheduleLibrary(module, result);
  if (failed(library))
    return llvm::createStringError(
        "cannot write the tuned schedules as a Transform library");
  result.schedule = std::move(*library);
  if (options.endToEnd)
    if (llvm::Error error = measureEndToEnd(module, result))
      return std::move(error);
  result.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (history) {
    llvm::json::Object line{{"final", true},
                            {"trials", static_cast<int64_t>(done)},
                            {"measured", static_cast<int64_t>(result.measured)},
                            {"confirmations", static_cast<int64_t>(confirmations)},
                            {"seconds", result.seconds},
                            {"estimated_s", scheduler.estimatedTotal()}};
    auto add = [&](const char *name, std::optional<double> value) {
      if (value)
        line[name] = *value;
    };
    add("end_to_end_tuned_s", result.tunedSeconds);
    add("end_to_end_default_s", result.defaultSeconds);
    add("onednn_sum_s", result.onednnSumSeconds);
    *history << llvm::json::Value(std::move(line)) << "\n";
  }
  if (options.progress)
    printSummary(log, result);
  return result;
}

llvm::Expected<TuneResult> tcl::tuneModule(ModuleOp module,
                                           const TuneOptions &options,
                                           llvm::raw_ostream &log) {
  if (failed(prepareTasks(module, options.allowUnsupported)))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the module has ops that cannot be tuned (diagnosed above)");
  if (options.channelsLast && failed(rewriteChannelsLast(module)))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the channels-last rewrite of the convolutions did not converge");
  Tuner tuner(options, log);
  return tuner.run(module);
}
