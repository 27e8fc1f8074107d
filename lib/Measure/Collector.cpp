//===- Collector.cpp - Measure a dataset of schedules ---------------------===//

#include "tcl/Measure/Collector.h"

#include "tcl/DB/TuningDatabase.h"
#include "tcl/Measure/Baseline.h"
#include "tcl/Measure/Record.h"
#include "tcl/Measure/TaskList.h"
#include "tcl/Run/CoreLock.h"
#include "tcl/Space/CpuSpace.h"
#include "tcl/Space/Space.h"
#include "tcl/Support/Context.h"
#include "tcl/Support/Duration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <csignal>
#include <ctime>
#include <limits>
#include <map>
#include <set>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace tcl;

namespace {

using CollectedTask = OutlinedTask;

/// One unit of work: a task on a target.
struct Pair {
  size_t task, target;
};

/// Every task of every model, outlined once per key, in first-seen order.
llvm::Expected<std::vector<CollectedTask>>
loadTasks(const CollectionOptions &options, MLIRContext &context,
          llvm::raw_ostream &log) {
  TaskList list;
  for (const std::string &path : options.models) {
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    OwningOpRef<ModuleOp> model = parseSourceFile<ModuleOp>(path, sourceMgr,
                                                            &context);
    if (!model)
      return llvm::createStringError("cannot read model '" + path + "'");
    std::string network = llvm::sys::path::stem(path).str();
    size_t unoutlinable = list.notOutlined().size();
    unsigned skipped = list.add(*model, network, options.minTaskFlops);
    log << llvm::formatv("tcl-collect: {0}: {1} occurrences left out (softmax, "
                         "under {2} FLOPs, or not outlinable)\n",
                         network, skipped, options.minTaskFlops);
    for (const std::string &why :
         llvm::drop_begin(list.notOutlined(), unoutlinable))
      log << "tcl-collect: " << network << ": not outlinable: task " << why
          << "\n";
  }
  return list.tasks();
}

/// The tasks named by `keys` (every task when empty) as the database holds
/// them; an unknown key is an error.
llvm::Expected<std::vector<CollectedTask>>
loadStoredTasks(TuningDatabase &db, llvm::ArrayRef<std::string> keys) {
  llvm::Expected<std::vector<TaskRow>> rows = db.tasks();
  if (!rows)
    return rows.takeError();
  std::map<std::string, const TaskRow *> byKey;
  for (const TaskRow &row : *rows)
    byKey[row.key] = &row;
  std::vector<CollectedTask> tasks;
  auto add = [&](const TaskRow &row) {
    tasks.push_back({row.key, row.kind, row.flops, row.payload, row.networks});
  };
  if (keys.empty())
    for (const TaskRow &row : *rows)
      add(row);
  for (const std::string &key : keys) {
    auto found = byKey.find(key);
    if (found == byKey.end())
      return llvm::createStringError("no task '" + key + "' in the database");
    add(*found->second);
  }
  return tasks;
}

/// Cores a worker's candidates use on a target with `threads` threads.
std::vector<unsigned> coresFor(unsigned worker, unsigned threads,
                               llvm::ArrayRef<unsigned> allowed) {
  std::vector<unsigned> cores;
  for (unsigned i = 0; i < std::min<size_t>(threads, allowed.size()); ++i)
    cores.push_back(allowed[(worker * threads + i) % allowed.size()]);
  return cores;
}

/// Knob assignments as "name=value" items, for diversity distances.
llvm::SmallVector<llvm::StringRef> items(llvm::StringRef assignment) {
  llvm::SmallVector<llvm::StringRef> result;
  assignment.split(result, ',');
  return result;
}

/// Number of knobs set differently.
unsigned distance(llvm::ArrayRef<llvm::StringRef> a,
                  llvm::ArrayRef<llvm::StringRef> b) {
  unsigned differ = std::max(a.size(), b.size()) - std::min(a.size(), b.size());
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    differ += a[i] != b[i];
  return differ;
}

/// Measures one worker's share of the pairs.
class Worker {
public:
  Worker(unsigned index, const CollectionOptions &options,
         const std::vector<CollectedTask> &tasks)
      : index(index), options(options), tasks(tasks), context(createContext()),
        machine(currentMachine()), allowed(allowedCores()) {}

  llvm::Error run(llvm::ArrayRef<Pair> pairs) {
    auto opened = TuningDatabase::open(options.database);
    if (!opened)
      return opened.takeError();
    db = std::move(*opened);
    if (options.remeasure) {
      for (size_t i = index; i < pairs.size(); i += options.workers)
        if (llvm::Error error = remeasurePair(pairs[i]))
          return error;
      return llvm::Error::success();
    }
    unsigned rounds = (options.schedulesPerTask + options.roundSize - 1) /
                      std::max(1u, options.roundSize);
    for (unsigned round = 1; round <= rounds; ++round) {
      unsigned quota = std::min(options.schedulesPerTask, round * options.roundSize);
      for (size_t i = index; i < pairs.size(); i += options.workers)
        if (llvm::Error error = measurePair(pairs[i], quota))
          return error;
    }
    return llvm::Error::success();
  }

private:
  /// What measuring any schedule of a task on a target needs.
  struct PreparedPair {
    std::string targetName;
    OwningOpRef<ModuleOp> payload;
    /// The task's space: a Transform script with free knobs.
    OwningOpRef<ModuleOp> script;
    std::optional<Space> space;
    std::unique_ptr<CandidateEvaluator> evaluator;
  };

  /// Parses the payload and builds the space and the evaluator.
  llvm::Expected<PreparedPair> prepare(const Pair &pair) {
    const CollectedTask &task = tasks[pair.task];
    const TargetSpec &spec = options.targets[pair.target];
    PreparedPair prepared;
    prepared.targetName = spec.name();
    llvm::Expected<CpuTarget> target = spec.resolve();
    if (!target)
      return target.takeError();

    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(task.payload, task.key + ".mlir"),
        llvm::SMLoc());
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
    prepared.payload = parseSourceFile<ModuleOp>(sourceMgr, context.get());
    if (!prepared.payload)
      return llvm::createStringError("task " + task.key +
                                     ": the payload does not parse");
    OwningOpRef<ModuleOp> annotated = prepared.payload->clone();
    auto script = buildCpuSpace(*annotated, *target);
    if (failed(script))
      return llvm::createStringError("task " + task.key +
                                     ": cannot build its space");
    prepared.script = std::move(*script);
    FailureOr<Space> space = Space::fromScript(*prepared.script);
    if (failed(space))
      return llvm::createStringError("task " + task.key +
                                     ": cannot read its space");
    prepared.space = std::move(*space);

    EvaluationOptions evaluation = options.evaluation;
    evaluation.cpu = spec.cpu;
    evaluation.features = spec.features;
    evaluation.threads = spec.threads;
    evaluation.cores = coresFor(index, spec.threads, allowed);
    evaluation.check = true;
    auto evaluator = CandidateEvaluator::create(*prepared.payload, evaluation);
    if (failed(evaluator))
      return llvm::createStringError("task " + task.key +
                                     ": cannot compute its reference");
    prepared.evaluator = std::move(*evaluator);
    return std::move(prepared);
  }

  /// Measures `assignment` and returns its record.
  RecordRow measure(const Pair &pair, PreparedPair &prepared,
                    const Assignment &assignment) {
    OwningOpRef<ModuleOp> schedule = prepared.script->clone();
    prepared.space->concretize(*schedule, assignment);
    CandidateResult result = prepared.evaluator->evaluate(*schedule);
    return makeRecord(tasks[pair.task].key, prepared.targetName, machine,
                      prepared.space->format(assignment), *schedule, result);
  }

  llvm::Error measurePair(const Pair &pair, unsigned quota) {
    const CollectedTask &task = tasks[pair.task];
    std::string targetName = options.targets[pair.target].name();
    // Before the quota check, so that rerunning a finished collection fills
    // in the baselines a newer tcl-onednn can measure.
    if (llvm::Error error = measureBaseline(pair))
      return error;
    auto measured = db->measuredAssignments(task.key, targetName, machine);
    if (!measured)
      return measured.takeError();
    if (measured->size() >= quota || exhausted.count({pair.task, pair.target}))
      return llvm::Error::success();

    llvm::Expected<PreparedPair> prepared = prepare(pair);
    if (!prepared)
      return prepared.takeError();
    uint64_t legal = prepared->space->countLegal(options.schedulesPerTask);
    std::vector<std::string> seen = std::move(*measured);
    std::set<std::string> seenSet(seen.begin(), seen.end());
    uint64_t pairSeed = llvm::hash_combine(options.seed, task.key, targetName);
    while (seen.size() < std::min<uint64_t>(quota, legal)) {
      std::optional<Assignment> pick =
          pickDiverse(*prepared->space, seen, seenSet, pairSeed);
      if (!pick) {
        exhausted.insert({pair.task, pair.target});
        break;
      }
      RecordRow record = measure(pair, *prepared, *pick);
      if (llvm::Error error = db->addRecord(record))
        return error;
      seen.push_back(record.assignment);
      seenSet.insert(record.assignment);
    }
    return llvm::Error::success();
  }

  /// Measures the stale schedules of a task on a target again, each record
  /// replacing the stale ones. A schedule the task's space no longer admits
  /// keeps its records, and is reported.
  llvm::Error remeasurePair(const Pair &pair) {
    const CollectedTask &task = tasks[pair.task];
    std::string targetName = options.targets[pair.target].name();
    auto stale =
        db->staleAssignments(task.key, targetName, options.remeasure->before);
    if (!stale)
      return stale.takeError();
    if (stale->empty())
      return llvm::Error::success();
    // This machine's baseline, for the records it is about to make.
    if (llvm::Error error = measureBaseline(pair))
      return error;
    llvm::Expected<PreparedPair> prepared = prepare(pair);
    if (!prepared)
      return prepared.takeError();
    for (const std::string &text : *stale) {
      llvm::SmallVector<llvm::StringRef> parts = items(text);
      std::vector<std::string> knobs(parts.begin(), parts.end());
      FailureOr<Assignment> assignment = prepared->space->parseAssignment(
          knobs, std::nullopt, [&] {
            return prepared->script->emitError()
                   << "task " << task.key << " on " << targetName
                   << ": cannot re-measure '" << text
                   << "', its records are kept: ";
          });
      if (failed(assignment))
        continue;
      RecordRow record = measure(pair, *prepared, *assignment);
      if (llvm::Error error =
              db->replaceStaleRecords(record, options.remeasure->before))
        return error;
    }
    return llvm::Error::success();
  }

  /// Uniform draws; keeps the one farthest from what is measured. The seeds
  /// depend only on how many schedules are measured, so a resumed
  /// collection draws what the killed one would have drawn next.
  std::optional<Assignment> pickDiverse(const Space &space,
                                        llvm::ArrayRef<std::string> seen,
                                        const std::set<std::string> &seenSet,
                                        uint64_t pairSeed) {
    std::optional<Assignment> best;
    unsigned bestDistance = 0;
    unsigned fresh = 0;
    unsigned draws = std::max(1u, options.diversityDraws);
    for (unsigned attempt = 0; attempt < 64 * draws && fresh < draws; ++attempt) {
      std::optional<Assignment> candidate =
          space.sample(llvm::hash_combine(pairSeed, seen.size(), attempt));
      if (!candidate)
        return std::nullopt;
      std::string text = space.format(*candidate);
      if (seenSet.count(text))
        continue;
      ++fresh;
      llvm::SmallVector<llvm::StringRef> candidateItems = items(text);
      unsigned nearest = std::numeric_limits<unsigned>::max();
      for (const std::string &other : seen)
        nearest = std::min(nearest, distance(candidateItems, items(other)));
      if (!best || nearest > bestDistance) {
        bestDistance = nearest;
        best = std::move(candidate);
      }
    }
    return best;
  }

  /// Measures the oneDNN baseline of a pair on this machine when it is
  /// missing (and a tcl-onednn was given).
  llvm::Error measureBaseline(const Pair &pair) {
    if (options.onednnTool.empty())
      return llvm::Error::success();
    const CollectedTask &task = tasks[pair.task];
    const TargetSpec &spec = options.targets[pair.target];
    llvm::Expected<CpuTarget> target = spec.resolve();
    if (!target)
      return target.takeError();
    std::optional<TaskKind> kind = symbolizeTaskKind(task.kind);
    if (!kind || !hasOnednnBaseline(*kind))
      return llvm::Error::success();
    auto present = db->hasBaseline(task.key, spec.name(), machine, "onednn");
    if (!present)
      return present.takeError();
    if (*present)
      return llvm::Error::success();
    BaselineRow baseline = measureOnednnBaseline(
        options.onednnTool, task.payload, *target,
        coresFor(index, spec.threads, allowed));
    baseline.taskKey = task.key;
    baseline.target = spec.name();
    baseline.machine = machine;
    return db->addBaseline(baseline);
  }

  unsigned index;
  const CollectionOptions &options;
  const std::vector<CollectedTask> &tasks;
  std::unique_ptr<MLIRContext> context;
  MachineInfo machine;
  llvm::SmallVector<unsigned> allowed;
  std::unique_ptr<TuningDatabase> db;
  /// Pairs whose space has no unmeasured schedule left.
  std::set<std::pair<size_t, size_t>> exhausted;
};

} // namespace

llvm::Expected<CollectionReport>
tcl::collect(const CollectionOptions &options, llvm::raw_ostream &log) {
  if (options.targets.empty())
    return llvm::createStringError("no targets to collect for");
  if (options.workers == 0)
    return llvm::createStringError("at least one worker is needed");
  auto db = TuningDatabase::open(options.database);
  if (!db)
    return db.takeError();
  MachineInfo machine = currentMachine();
  auto loadAllTasks = [&]() -> llvm::Expected<std::vector<CollectedTask>> {
    if (options.remeasure) {
      if (options.remeasure->before > int64_t(std::time(nullptr)))
        return llvm::createStringError(
            "the stale records' cutoff is in the future: the "
            "new records would count as stale");
      return loadStoredTasks(**db, options.remeasure->taskKeys);
    }
    std::unique_ptr<MLIRContext> context = createContext();
    llvm::Expected<std::vector<CollectedTask>> loaded =
        loadTasks(options, *context, log);
    if (!loaded)
      return loaded.takeError();
    if (llvm::Error error = storeTasks(**db, *loaded))
      return std::move(error);
    return loaded;
  };
  llvm::Expected<std::vector<CollectedTask>> tasks = loadAllTasks();
  if (!tasks)
    return tasks.takeError();
  for (const TargetSpec &spec : options.targets)
    if (llvm::Error error = (*db)->addTarget(
            {spec.name(), spec.cpu, spec.features, spec.threads}))
      return std::move(error);

  // Targets interleaved, so that every target progresses from the start.
  std::vector<Pair> pairs;
  int64_t alreadyMeasured = 0, wanted = 0;
  for (size_t task = 0; task < tasks->size(); ++task)
    for (size_t target = 0; target < options.targets.size(); ++target) {
      const std::string &key = (*tasks)[task].key;
      std::string targetName = options.targets[target].name();
      if (options.remeasure) {
        auto stale = (*db)->staleAssignments(key, targetName,
                                             options.remeasure->before);
        if (!stale)
          return stale.takeError();
        if (stale->empty())
          continue;
        pairs.push_back({task, target});
        wanted += stale->size();
        continue;
      }
      pairs.push_back({task, target});
      auto measured = (*db)->measuredAssignments(key, targetName, machine);
      if (!measured)
        return measured.takeError();
      alreadyMeasured +=
          std::min<int64_t>(measured->size(), options.schedulesPerTask);
      wanted += options.schedulesPerTask;
    }
  llvm::Expected<int64_t> startId = (*db)->lastRecordId();
  if (!startId)
    return startId.takeError();
  if (options.remeasure)
    log << llvm::formatv("tcl-collect: re-measuring {0} stale schedules of "
                         "{1} (task, target) pairs; {2} worker(s) on {3}\n",
                         wanted, pairs.size(), options.workers,
                         machine.label());
  else
    log << llvm::formatv("tcl-collect: {0} tasks x {1} targets = {2} pairs, "
                         "up to {3} schedules each; {4} already measured; {5} "
                         "worker(s) on {6}\n",
                         tasks->size(), options.targets.size(), pairs.size(),
                         options.schedulesPerTask, alreadyMeasured,
                         options.workers, machine.label());
  log.flush();

  auto start = std::chrono::steady_clock::now();
  std::vector<pid_t> workers;
  for (unsigned index = 0; index < options.workers; ++index) {
    pid_t child = fork();
    if (child < 0)
      return llvm::createStringError("cannot fork a worker");
    if (child == 0) {
      // A worker never outlives its collector: a killed collector restarts
      // cleanly, without orphans still writing.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      Worker worker(index, options, *tasks);
      if (llvm::Error error = worker.run(pairs)) {
        llvm::errs() << "tcl-collect: worker " << index << ": "
                     << llvm::toString(std::move(error)) << "\n";
        llvm::errs().flush();
        _exit(1);
      }
      _exit(0);
    }
    workers.push_back(child);
  }

  bool interactive = llvm::errs().is_displayed();
  auto lastLine = start;
  bool failedWorker = false;
  auto report = [&](bool final) -> llvm::Error {
    llvm::Expected<int64_t> done = (*db)->countRecordsAfter(*startId, false);
    if (!done)
      return done.takeError();
    double elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    double rate = elapsed > 0 ? *done / elapsed : 0;
    int64_t total = std::max<int64_t>(wanted - alreadyMeasured, 1);
    double fraction = std::min(1.0, double(*done) / double(total));
    if (!options.progress)
      return llvm::Error::success();
    constexpr int width = 30;
    int filled = static_cast<int>(fraction * width);
    std::string bar = std::string(filled, '#') + std::string(width - filled, '.');
    std::string line = llvm::formatv(
        "[{0}] {1}/{2} ({3:P0})  {4:F2}/s  elapsed {5}  ETA {6}", bar, *done,
        total, fraction, rate, formatDuration(elapsed),
        rate > 0 ? formatDuration((total - *done) / rate) : "?");
    if (interactive)
      llvm::errs() << "\r" << line << (final ? "\n" : "");
    else
      llvm::errs() << line << "\n";
    llvm::errs().flush();
    return llvm::Error::success();
  };
  while (!workers.empty()) {
    for (auto it = workers.begin(); it != workers.end();) {
      int status = 0;
      if (waitpid(*it, &status, WNOHANG) == *it) {
        failedWorker |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        it = workers.erase(it);
      } else {
        ++it;
      }
    }
    auto now = std::chrono::steady_clock::now();
    if (interactive || now - lastLine >= std::chrono::seconds(30)) {
      lastLine = now;
      if (llvm::Error error = report(false))
        return std::move(error);
    }
    if (!workers.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  if (llvm::Error error = report(true))
    return std::move(error);

  CollectionReport result;
  result.seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::set<size_t> pairedTasks;
  for (const Pair &pair : pairs)
    pairedTasks.insert(pair.task);
  // Re-measuring pairs only the tasks with stale records.
  result.tasks = pairedTasks.size();
  result.pairs = pairs.size();
  llvm::Expected<int64_t> measured = (*db)->countRecordsAfter(*startId, false);
  llvm::Expected<int64_t> valid = (*db)->countRecordsAfter(*startId, true);
  if (!measured)
    return measured.takeError();
  if (!valid)
    return valid.takeError();
  result.measured = *measured;
  result.valid = *valid;
  if (failedWorker)
    return llvm::createStringError(
        "a worker failed (see above); what it measured is kept, "
        "and running the same command again resumes");
  return result;
}
