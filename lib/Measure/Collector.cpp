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

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

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
      return makeError("cannot read model '" + path + "'");
    std::string network = llvm::sys::path::stem(path).str();
    llvm::Expected<unsigned> skipped =
        list.add(*model, network, options.minTaskFlops);
    if (!skipped)
      return makeError(path + ": " + llvm::toString(skipped.takeError()));
    log << llvm::formatv("tcl-collect: {0}: {1} occurrences left out (softmax "
                         "or under {2} FLOPs)\n",
                         network, *skipped, options.minTaskFlops);
  }
  return list.tasks();
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
  llvm::Error measurePair(const Pair &pair, unsigned quota) {
    const CollectedTask &task = tasks[pair.task];
    const TargetSpec &spec = options.targets[pair.target];
    std::string targetName = spec.name();
    llvm::Expected<CpuTarget> target = spec.resolve();
    if (!target)
      return target.takeError();
    std::vector<unsigned> cores = coresFor(index, spec.threads, allowed);
    // Before the quota check, so that rerunning a finished collection fills
    // in the baselines a newer tcl-onednn can measure.
    if (!options.onednnTool.empty())
      if (llvm::Error error = measureBaseline(task, spec, *target, cores))
        return error;

    auto measured = db->measuredAssignments(task.key, targetName, machine);
    if (!measured)
      return measured.takeError();
    if (measured->size() >= quota || exhausted.count({pair.task, pair.target}))
      return llvm::Error::success();

    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(task.payload, task.key + ".mlir"),
        llvm::SMLoc());
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, context.get());
    OwningOpRef<ModuleOp> payload =
        parseSourceFile<ModuleOp>(sourceMgr, context.get());
    if (!payload)
      return makeError("task " + task.key + ": the payload does not parse");
    OwningOpRef<ModuleOp> annotated = payload->clone();
    auto script = buildCpuSpace(*annotated, *target);
    if (failed(script))
      return makeError("task " + task.key + ": cannot build its space");
    FailureOr<Space> space = Space::fromScript(**script);
    if (failed(space))
      return makeError("task " + task.key + ": cannot read its space");
    uint64_t legal = space->countLegal(options.schedulesPerTask);

    EvaluationOptions evaluation = options.evaluation;
    evaluation.cpu = spec.cpu;
    evaluation.features = spec.features;
    evaluation.threads = spec.threads;
    evaluation.cores = cores;
    evaluation.check = true;
    auto evaluator = CandidateEvaluator::create(*payload, evaluation);
    if (failed(evaluator))
      return makeError("task " + task.key + ": cannot compute its reference");

    std::vector<std::string> seen = std::move(*measured);
    std::set<std::string> seenSet(seen.begin(), seen.end());
    uint64_t pairSeed = llvm::hash_combine(options.seed, task.key, targetName);
    while (seen.size() < std::min<uint64_t>(quota, legal)) {
      std::optional<Assignment> pick = pickDiverse(*space, seen, seenSet, pairSeed);
      if (!pick) {
        exhausted.insert({pair.task, pair.target});
        break;
      }
      OwningOpRef<ModuleOp> schedule = (*script)->clone();
      space->concretize(*schedule, *pick);
      std::string assignment = space->format(*pick);
      CandidateResult result = (*evaluator)->evaluate(*schedule);
      RecordRow record = makeRecord(task.key, targetName, machine, assignment,
                                    *schedule, result);
      if (llvm::Error error = db->addRecord(record))
        return error;
      seen.push_back(assignment);
      seenSet.insert(assignment);
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

  llvm::Error measureBaseline(const CollectedTask &task, const TargetSpec &spec,
                              const CpuTarget &target,
                              llvm::ArrayRef<unsigned> cores) {
    std::optional<TaskKind> kind = symbolizeTaskKind(task.kind);
    if (!kind || !hasOnednnBaseline(*kind))
      return llvm::Error::success();
    auto present = db->hasBaseline(task.key, spec.name(), machine, "onednn");
    if (!present)
      return present.takeError();
    if (*present)
      return llvm::Error::success();
    BaselineRow baseline = measureOnednnBaseline(
        options.onednnTool, task.payload, target, cores);
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
    return makeError("no targets to collect for");
  if (options.workers == 0)
    return makeError("at least one worker is needed");
  std::unique_ptr<MLIRContext> context = createContext();
  llvm::Expected<std::vector<CollectedTask>> tasks =
      loadTasks(options, *context, log);
  if (!tasks)
    return tasks.takeError();
  context.reset();

  auto db = TuningDatabase::open(options.database);
  if (!db)
    return db.takeError();
  MachineInfo machine = currentMachine();
  std::vector<Pair> pairs;
  int64_t alreadyMeasured = 0;
  if (llvm::Error error = storeTasks(**db, *tasks))
    return std::move(error);
  for (const TargetSpec &spec : options.targets)
    if (llvm::Error error = (*db)->addTarget(
            {spec.name(), spec.cpu, spec.features, spec.threads}))
      return std::move(error);
  // Targets interleaved, so that every target progresses from the start.
  for (size_t task = 0; task < tasks->size(); ++task)
    for (size_t target = 0; target < options.targets.size(); ++target) {
      pairs.push_back({task, target});
      auto measured = (*db)->measuredAssignments(
          (*tasks)[task].key, options.targets[target].name(), machine);
      if (!measured)
        return measured.takeError();
      alreadyMeasured +=
          std::min<int64_t>(measured->size(), options.schedulesPerTask);
    }
  int64_t wanted = int64_t(pairs.size()) * options.schedulesPerTask;
  llvm::Expected<int64_t> startId = (*db)->lastRecordId();
  if (!startId)
    return startId.takeError();
  log << llvm::formatv("tcl-collect: {0} tasks x {1} targets = {2} pairs, up "
                       "to {3} schedules each; {4} already measured; {5} "
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
      return makeError("cannot fork a worker");
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
  result.tasks = tasks->size();
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
    return makeError("a worker failed (see above); what it measured is kept, "
                     "and running the same command again resumes");
  return result;
}
