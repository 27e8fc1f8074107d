//===- TuningDatabase.cpp - The SQLite tuning database --------------------===//

#include "tcl/DB/TuningDatabase.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <random>
#include <unistd.h>

using namespace tcl;
using sqlite::Statement;

static constexpr llvm::StringLiteral schemaVersion = "1";
static constexpr llvm::StringLiteral schemaSql =
#include "Schema.sql.inc"
    ;

std::string tcl::makeUid() {
  static std::random_device device;
  static std::mt19937_64 generator((uint64_t(device()) << 32) ^ device() ^
                                   uint64_t(getpid()));
  return llvm::formatv("{0:x-16}{1:x-16}", generator(), generator()).str();
}

llvm::Expected<std::unique_ptr<TuningDatabase>>
TuningDatabase::open(llvm::StringRef path, bool create) {
  auto connection = sqlite::Connection::open(path, create);
  if (!connection)
    return connection.takeError();
  std::unique_ptr<TuningDatabase> database(
      new TuningDatabase(std::move(*connection)));
  if (llvm::Error error = database->createSchema())
    return llvm::joinErrors(
        llvm::createStringError(path + ": not a tcl tuning database"),
        std::move(error));
  return std::move(database);
}

llvm::Error TuningDatabase::createSchema() {
  // WAL: readers never block the writer, and a killed writer leaves every
  // committed transaction intact. NORMAL sync is durable against process
  // death (the case that matters here), not against power loss.
  if (llvm::Error error = db->execute("PRAGMA journal_mode=WAL;"
                                      "PRAGMA synchronous=NORMAL;"
                                      "PRAGMA foreign_keys=ON;"))
    return error;
  if (llvm::Error error = sqlite::transaction(*db, [&]() -> llvm::Error {
        if (llvm::Error error = db->execute(schemaSql))
          return error;
        return db->execute(
            ("INSERT INTO meta(key, value) VALUES('schema_version', '" +
             schemaVersion + "') ON CONFLICT DO NOTHING")
                .str());
      }))
    return error;
  auto version = db->prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!version)
    return version.takeError();
  llvm::Expected<bool> row = version->step();
  if (!row)
    return row.takeError();
  if (!*row || version->text(0) != schemaVersion)
    return llvm::createStringError("schema version " +
                                   (*row ? version->text(0) : "none") +
                                   ", expected " + schemaVersion);
  return llvm::Error::success();
}

/// Runs `sql` with `bind` applied and returns the integer in the first
/// column of the first row, or nullopt when there is no row.
static llvm::Expected<std::optional<int64_t>>
queryInteger(sqlite::Connection &db, llvm::StringRef sql,
             llvm::function_ref<void(Statement &)> bind = {}) {
  auto statement = db.prepare(sql);
  if (!statement)
    return statement.takeError();
  if (bind)
    bind(*statement);
  llvm::Expected<bool> row = statement->step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  return statement->integer(0);
}

static llvm::Expected<int64_t>
requireInteger(sqlite::Connection &db, llvm::StringRef sql,
               llvm::function_ref<void(Statement &)> bind,
               llvm::StringRef what) {
  auto value = queryInteger(db, sql, bind);
  if (!value)
    return value.takeError();
  if (!*value)
    return llvm::createStringError("unknown " + what);
  return **value;
}

llvm::Expected<int64_t> TuningDatabase::addTask(const TaskRow &task) {
  auto insert = db->prepare("INSERT INTO tasks(key, kind, flops, payload) "
                            "VALUES(?, ?, ?, ?) ON CONFLICT DO NOTHING");
  if (!insert)
    return insert.takeError();
  insert->bind(1, task.key).bind(2, task.kind).bind(3, task.flops).bind(4, task.payload);
  if (llvm::Error error = insert->run())
    return std::move(error);
  return taskId(task.key);
}

llvm::Expected<int64_t> TuningDatabase::taskId(llvm::StringRef key) {
  return requireInteger(
      *db, "SELECT id FROM tasks WHERE key = ?",
      [&](Statement &s) { s.bind(1, key); }, ("task '" + key + "'").str());
}

llvm::Expected<int64_t> TuningDatabase::targetId(llvm::StringRef name) {
  return requireInteger(
      *db, "SELECT id FROM targets WHERE name = ?",
      [&](Statement &s) { s.bind(1, name); }, ("target '" + name + "'").str());
}

llvm::Expected<int64_t> TuningDatabase::machineId(const MachineInfo &machine) {
  auto insert = db->prepare("INSERT INTO machines(cpu_model, host_cpu, cores) "
                            "VALUES(?, ?, ?) ON CONFLICT DO NOTHING");
  if (!insert)
    return insert.takeError();
  insert->bind(1, machine.cpuModel).bind(2, machine.hostCpu).bind(3, machine.cores);
  if (llvm::Error error = insert->run())
    return std::move(error);
  return requireInteger(
      *db,
      "SELECT id FROM machines WHERE cpu_model = ? AND host_cpu = ? AND "
      "cores = ?",
      [&](Statement &s) {
        s.bind(1, machine.cpuModel).bind(2, machine.hostCpu).bind(3, machine.cores);
      },
      "machine");
}

llvm::Expected<int64_t> TuningDatabase::scheduleId(int64_t task,
                                                   llvm::StringRef assignment,
                                                   llvm::StringRef hash) {
  auto insert = db->prepare("INSERT INTO schedules(task_id, assignment, "
                            "script_hash) VALUES(?, ?, ?) ON CONFLICT DO NOTHING");
  if (!insert)
    return insert.takeError();
  insert->bind(1, task).bind(2, assignment).bind(3, hash);
  if (llvm::Error error = insert->run())
    return std::move(error);
  return requireInteger(
      *db, "SELECT id FROM schedules WHERE task_id = ? AND assignment = ?",
      [&](Statement &s) { s.bind(1, task).bind(2, assignment); }, "schedule");
}

llvm::Error TuningDatabase::addTaskNetwork(llvm::StringRef taskKey,
                                           llvm::StringRef network,
                                           int64_t occurrences) {
  llvm::Expected<int64_t> task = taskId(taskKey);
  if (!task)
    return task.takeError();
  auto insert = db->prepare("INSERT OR REPLACE INTO task_networks(task_id, "
                            "network, occurrences) VALUES(?, ?, ?)");
  if (!insert)
    return insert.takeError();
  insert->bind(1, *task).bind(2, network).bind(3, occurrences);
  return insert->run();
}

llvm::Error TuningDatabase::addTarget(const TargetRow &target) {
  auto insert = db->prepare("INSERT INTO targets(name, cpu, features, threads) "
                            "VALUES(?, ?, ?, ?) ON CONFLICT DO NOTHING");
  if (!insert)
    return insert.takeError();
  insert->bind(1, target.name).bind(2, target.cpu).bind(3, target.features)
      .bind(4, target.threads);
  return insert->run();
}

llvm::Error TuningDatabase::addRecord(const RecordRow &record) {
  return sqlite::transaction(*db, [&] { return insertRecord(record); });
}

llvm::Error TuningDatabase::replaceStaleRecords(const RecordRow &record,
                                               int64_t before) {
  return sqlite::transaction(*db, [&]() -> llvm::Error {
    if (llvm::Error error = insertRecord(record))
      return error;
    auto remove = db->prepare(
        "DELETE FROM records WHERE created_at < ? AND target_id = (SELECT id "
        "FROM targets WHERE name = ?) AND schedule_id = (SELECT s.id FROM "
        "schedules s JOIN tasks t ON t.id = s.task_id WHERE t.key = ? AND "
        "s.assignment = ?)");
    if (!remove)
      return remove.takeError();
    remove->bind(1, before).bind(2, record.target).bind(3, record.taskKey)
        .bind(4, record.assignment);
    return remove->run();
  });
}

llvm::Error TuningDatabase::insertRecord(const RecordRow &record) {
  llvm::Expected<int64_t> task = taskId(record.taskKey);
  if (!task)
    return task.takeError();
  llvm::Expected<int64_t> target = targetId(record.target);
  if (!target)
    return target.takeError();
  llvm::Expected<int64_t> machine = machineId(record.machine);
  if (!machine)
    return machine.takeError();
  llvm::Expected<int64_t> schedule =
      scheduleId(*task, record.assignment, record.scriptHash);
  if (!schedule)
    return schedule.takeError();
  auto insert = db->prepare(
      // ON CONFLICT, not OR IGNORE: a known uid is skipped, a record that
      // breaks a CHECK is an error.
      "INSERT INTO records(uid, schedule_id, target_id, "
      "machine_id, status, median_s, min_s, spread, samples, compile_s, "
      "wall_s, vector_ops, scalar_fallback, error, created_at) "
      "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
      "ON CONFLICT(uid) DO NOTHING");
  if (!insert)
    return insert.takeError();
  insert->bind(1, record.uid.empty() ? makeUid() : record.uid)
      .bind(2, *schedule)
      .bind(3, *target)
      .bind(4, *machine)
      .bind(5, record.status)
      .bind(6, record.medianSeconds)
      .bind(7, record.minSeconds)
      .bind(8, record.spread)
      .bind(9, record.samples)
      .bind(10, record.compileSeconds)
      .bind(11, record.wallSeconds)
      .bind(12, record.vectorOps)
      .bind(13, int64_t(record.scalarFallback))
      .bind(14, record.error)
      .bind(15, record.createdAt);
  return insert->run();
}

llvm::Error TuningDatabase::addBaseline(const BaselineRow &baseline) {
  return sqlite::transaction(*db, [&] { return insertBaseline(baseline); });
}

llvm::Error TuningDatabase::insertBaseline(const BaselineRow &baseline) {
  llvm::Expected<int64_t> task = taskId(baseline.taskKey);
  if (!task)
    return task.takeError();
  llvm::Expected<int64_t> target = targetId(baseline.target);
  if (!target)
    return target.takeError();
  llvm::Expected<int64_t> machine = machineId(baseline.machine);
  if (!machine)
    return machine.takeError();
  auto insert = db->prepare(
      "INSERT OR REPLACE INTO baselines(task_id, target_id, machine_id, "
      "library, primitive, status, median_s, min_s, spread, samples, error, "
      "created_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!insert)
    return insert.takeError();
  insert->bind(1, *task)
      .bind(2, *target)
      .bind(3, *machine)
      .bind(4, baseline.library)
      .bind(5, baseline.primitive)
      .bind(6, baseline.status)
      .bind(7, baseline.medianSeconds)
      .bind(8, baseline.minSeconds)
      .bind(9, baseline.spread)
      .bind(10, baseline.samples)
      .bind(11, baseline.error)
      .bind(12, baseline.createdAt);
  return insert->run();
}

llvm::Expected<std::vector<std::string>>
TuningDatabase::measuredAssignments(llvm::StringRef taskKey,
                                    llvm::StringRef target,
                                    const MachineInfo &machine) {
  auto query = db->prepare(
      "SELECT s.assignment FROM records r JOIN schedules s ON s.id = "
      "r.schedule_id JOIN tasks t ON t.id = s.task_id JOIN targets g ON g.id "
      "= r.target_id JOIN machines m ON m.id = r.machine_id WHERE t.key = ? "
      "AND g.name = ? AND m.cpu_model = ? AND m.host_cpu = ? AND m.cores = ? "
      "ORDER BY r.id");
  if (!query)
    return query.takeError();
  query->bind(1, taskKey).bind(2, target).bind(3, machine.cpuModel)
      .bind(4, machine.hostCpu).bind(5, machine.cores);
  std::vector<std::string> assignments;
  while (true) {
    llvm::Expected<bool> row = query->step();
    if (!row)
      return row.takeError();
    if (!*row)
      return assignments;
    assignments.push_back(query->text(0));
  }
}

llvm::Expected<bool> TuningDatabase::hasBaseline(llvm::StringRef taskKey,
                                                 llvm::StringRef target,
                                                 const MachineInfo &machine,
                                                 llvm::StringRef library) {
  auto found = queryInteger(
      *db,
      "SELECT 1 FROM baselines b JOIN tasks t ON t.id = b.task_id JOIN "
      "targets g ON g.id = b.target_id JOIN machines m ON m.id = b.machine_id "
      "WHERE t.key = ? AND g.name = ? AND m.cpu_model = ? AND m.host_cpu = ? "
      "AND m.cores = ? AND b.library = ?",
      [&](Statement &s) {
        s.bind(1, taskKey).bind(2, target).bind(3, machine.cpuModel)
            .bind(4, machine.hostCpu).bind(5, machine.cores).bind(6, library);
      });
  if (!found)
    return found.takeError();
  return found->has_value();
}

llvm::Expected<int64_t> TuningDatabase::countRecords() {
  return requireInteger(*db, "SELECT COUNT(*) FROM records", {}, "count");
}

llvm::Expected<int64_t> TuningDatabase::lastRecordId() {
  return requireInteger(*db, "SELECT COALESCE(MAX(id), 0) FROM records", {},
                        "count");
}

llvm::Expected<int64_t> TuningDatabase::countRecordsAfter(int64_t afterId,
                                                          bool validOnly) {
  return requireInteger(
      *db,
      "SELECT COUNT(*) FROM records WHERE id > ? AND (? = 0 OR status = 'ok')",
      [&](Statement &s) { s.bind(1, afterId).bind(2, int64_t(validOnly)); },
      "count");
}

/// Columns shared by record queries and their reader.
static constexpr llvm::StringLiteral recordColumns =
    "t.key, g.name, m.cpu_model, m.host_cpu, m.cores, s.assignment, "
    "s.script_hash, r.status, r.median_s, r.min_s, r.spread, r.samples, "
    "r.compile_s, r.vector_ops, r.scalar_fallback, r.error, r.created_at, "
    "r.uid, r.wall_s FROM records r JOIN schedules s ON s.id = r.schedule_id JOIN tasks "
    "t ON t.id = s.task_id JOIN targets g ON g.id = r.target_id JOIN machines "
    "m ON m.id = r.machine_id";

static std::optional<double> optionalReal(const Statement &s, int column) {
  if (s.isNull(column))
    return std::nullopt;
  return s.real(column);
}

static RecordRow readRecord(const Statement &s) {
  RecordRow record;
  record.taskKey = s.text(0);
  record.target = s.text(1);
  record.machine = {s.text(2), s.text(3), s.integer(4)};
  record.assignment = s.text(5);
  record.scriptHash = s.text(6);
  record.status = s.text(7);
  record.medianSeconds = optionalReal(s, 8);
  record.minSeconds = optionalReal(s, 9);
  record.spread = optionalReal(s, 10);
  record.samples = s.integer(11);
  record.compileSeconds = s.real(12);
  record.vectorOps = s.integer(13);
  record.scalarFallback = s.integer(14) != 0;
  record.error = s.text(15);
  record.createdAt = s.integer(16);
  record.uid = s.text(17);
  record.wallSeconds = s.real(18);
  return record;
}

/// Steps `statement` to the end, calling `each` per row.
static llvm::Error forEachRow(Statement &statement,
                              llvm::function_ref<llvm::Error(Statement &)> each) {
  while (true) {
    llvm::Expected<bool> row = statement.step();
    if (!row)
      return row.takeError();
    if (!*row)
      return llvm::Error::success();
    if (llvm::Error error = each(statement))
      return error;
  }
}

llvm::Expected<std::vector<std::string>>
TuningDatabase::staleAssignments(llvm::StringRef taskKey,
                                 llvm::StringRef target, int64_t before) {
  auto query = db->prepare(
      "SELECT s.assignment FROM records r JOIN schedules s ON s.id = "
      "r.schedule_id JOIN tasks t ON t.id = s.task_id JOIN targets g ON g.id "
      "= r.target_id WHERE t.key = ? AND g.name = ? AND r.created_at < ? "
      "GROUP BY s.id ORDER BY MIN(r.id)");
  if (!query)
    return query.takeError();
  query->bind(1, taskKey).bind(2, target).bind(3, before);
  std::vector<std::string> assignments;
  if (llvm::Error error = forEachRow(*query, [&](Statement &s) {
        assignments.push_back(s.text(0));
        return llvm::Error::success();
      }))
    return std::move(error);
  return assignments;
}

llvm::Expected<std::vector<RecordRow>>
TuningDatabase::records(llvm::StringRef taskKey) {
  auto query = db->prepare(
      ("SELECT " + recordColumns + " WHERE ? = '' OR t.key = ? ORDER BY r.id")
          .str());
  if (!query)
    return query.takeError();
  query->bind(1, taskKey).bind(2, taskKey);
  std::vector<RecordRow> rows;
  if (llvm::Error error = forEachRow(*query, [&](Statement &s) {
        rows.push_back(readRecord(s));
        return llvm::Error::success();
      }))
    return std::move(error);
  return rows;
}

llvm::Expected<std::vector<TaskRow>> TuningDatabase::tasks() {
  auto query = db->prepare("SELECT id, key, kind, flops, payload FROM tasks "
                           "ORDER BY id");
  auto networks = db->prepare("SELECT network, occurrences FROM task_networks "
                              "WHERE task_id = ? ORDER BY network");
  if (!query)
    return query.takeError();
  if (!networks)
    return networks.takeError();
  std::vector<TaskRow> rows;
  if (llvm::Error error = forEachRow(*query, [&](Statement &s) -> llvm::Error {
        TaskRow task{s.text(1), s.text(2), s.real(3), s.text(4), {}};
        networks->reset();
        networks->bind(1, s.integer(0));
        if (llvm::Error error = forEachRow(*networks, [&](Statement &n) {
              task.networks[n.text(0)] = n.integer(1);
              return llvm::Error::success();
            }))
          return error;
        rows.push_back(std::move(task));
        return llvm::Error::success();
      }))
    return std::move(error);
  return rows;
}

llvm::Expected<std::vector<TargetRow>> TuningDatabase::targets() {
  auto query = db->prepare(
      "SELECT name, cpu, features, threads FROM targets ORDER BY id");
  if (!query)
    return query.takeError();
  std::vector<TargetRow> rows;
  if (llvm::Error error = forEachRow(*query, [&](Statement &s) {
        rows.push_back({s.text(0), s.text(1), s.text(2), s.integer(3)});
        return llvm::Error::success();
      }))
    return std::move(error);
  return rows;
}

llvm::Expected<std::vector<BaselineRow>> TuningDatabase::baselines() {
  auto query = db->prepare(
      "SELECT t.key, g.name, m.cpu_model, m.host_cpu, m.cores, b.library, "
      "b.primitive, b.status, b.median_s, b.min_s, b.spread, b.samples, "
      "b.error, b.created_at FROM baselines b JOIN tasks t ON t.id = "
      "b.task_id JOIN targets g ON g.id = b.target_id JOIN machines m ON m.id "
      "= b.machine_id ORDER BY b.id");
  if (!query)
    return query.takeError();
  std::vector<BaselineRow> rows;
  if (llvm::Error error = forEachRow(*query, [&](Statement &s) {
        BaselineRow row;
        row.taskKey = s.text(0);
        row.target = s.text(1);
        row.machine = {s.text(2), s.text(3), s.integer(4)};
        row.library = s.text(5);
        row.primitive = s.text(6);
        row.status = s.text(7);
        row.medianSeconds = optionalReal(s, 8);
        row.minSeconds = optionalReal(s, 9);
        row.spread = optionalReal(s, 10);
        row.samples = s.integer(11);
        row.error = s.text(12);
        row.createdAt = s.integer(13);
        rows.push_back(std::move(row));
        return llvm::Error::success();
      }))
    return std::move(error);
  return rows;
}

/// How machines are shown: "AMD EPYC 9R14 (znver4, 96 cores)".
#define MACHINE_LABEL                                                          \
  "(m.cpu_model || ' (' || m.host_cpu || ', ' || m.cores || ' cores)')"

llvm::Expected<std::vector<BestRow>> TuningDatabase::best(llvm::StringRef target) {
  // As the tuner chooses (TuningTask): a valid record computed the right
  // values and, when its schedule asked for vectors, got them; a schedule's
  // time is the median of its valid records (the tuner measures its leaders
  // again), and a schedule with any other record is never the best.
  auto query = db->prepare(
      "WITH timed AS (SELECT r.schedule_id, s.task_id, s.assignment, "
      "r.target_id, r.machine_id, r.median_s, ROW_NUMBER() OVER (PARTITION "
      "BY r.schedule_id, r.target_id, r.machine_id ORDER BY r.median_s) AS k, "
      "COUNT(*) OVER (PARTITION BY r.schedule_id, r.target_id, r.machine_id) "
      "AS n FROM records r JOIN schedules s ON s.id = r.schedule_id WHERE "
      "r.status = 'ok' AND r.scalar_fallback = 0 AND r.median_s IS NOT NULL "
      "AND NOT EXISTS (SELECT 1 FROM records f WHERE f.schedule_id = "
      "r.schedule_id AND f.target_id = r.target_id AND f.machine_id = "
      "r.machine_id AND NOT (f.status = 'ok' AND f.scalar_fallback = 0 AND "
      "f.median_s IS NOT NULL))), "
      // The middle record, or the mean of the middle two.
      "medians AS (SELECT schedule_id, task_id, assignment, target_id, "
      "machine_id, AVG(median_s) AS median_s, MIN(n) AS n FROM timed WHERE k "
      "IN ((n + 1) / 2, (n + 2) / 2) GROUP BY schedule_id, target_id, "
      "machine_id), "
      "valid AS (SELECT task_id, target_id, machine_id, assignment, median_s, "
      "ROW_NUMBER() OVER (PARTITION BY task_id, target_id, machine_id ORDER "
      "BY median_s, schedule_id) AS rank, SUM(n) OVER (PARTITION BY task_id, "
      "target_id, machine_id) AS n FROM medians) "
      "SELECT t.key, t.kind, g.name, " MACHINE_LABEL ", v.assignment, t.flops, "
      "v.median_s, v.n, b.median_s, b.library FROM valid v JOIN tasks t ON "
      "t.id = v.task_id JOIN targets g ON g.id = v.target_id JOIN machines m "
      "ON m.id = v.machine_id "
      // The fastest vendor library's time (SQLite takes `library` from the
      // row with the minimum).
      "LEFT JOIN (SELECT task_id, target_id, machine_id, MIN(median_s) AS "
      "median_s, library FROM baselines WHERE status = 'ok' GROUP BY task_id, "
      "target_id, machine_id) b ON b.task_id = v.task_id AND b.target_id = "
      "v.target_id AND b.machine_id = v.machine_id WHERE v.rank = 1 AND (? = "
      "'' OR g.name = ?) ORDER BY g.name, m.id, t.flops DESC, t.key");
  if (!query)
    return query.takeError();
  query->bind(1, target).bind(2, target);
  std::vector<BestRow> rows;
  if (llvm::Error error = forEachRow(*query, [&](Statement &s) {
        BestRow row;
        row.taskKey = s.text(0);
        row.kind = s.text(1);
        row.target = s.text(2);
        row.machine = s.text(3);
        row.assignment = s.text(4);
        row.flops = s.real(5);
        row.medianSeconds = s.real(6);
        row.validRecords = s.integer(7);
        row.baselineSeconds = optionalReal(s, 8);
        if (row.baselineSeconds)
          row.baselineLibrary = s.text(9);
        rows.push_back(std::move(row));
        return llvm::Error::success();
      }))
    return std::move(error);
  return rows;
}

llvm::Expected<DatabaseSummary> TuningDatabase::summary() {
  DatabaseSummary summary;
  struct Count {
    const char *sql;
    int64_t *into;
  };
  for (Count count : {Count{"SELECT COUNT(*) FROM tasks", &summary.tasks},
                      Count{"SELECT COUNT(*) FROM schedules", &summary.schedules},
                      Count{"SELECT COUNT(*) FROM records", &summary.records},
                      Count{"SELECT COUNT(*) FROM records WHERE status = 'ok'",
                            &summary.valid},
                      Count{"SELECT COUNT(*) FROM models", &summary.models}}) {
    auto value = requireInteger(*db, count.sql, {}, "count");
    if (!value)
      return value.takeError();
    *count.into = *value;
  }
  auto groups = [&](llvm::StringRef sql,
                    std::map<std::string, int64_t> &into) -> llvm::Error {
    auto query = db->prepare(sql);
    if (!query)
      return query.takeError();
    return forEachRow(*query, [&](Statement &s) {
      into[s.text(0)] = s.integer(1);
      return llvm::Error::success();
    });
  };
  if (llvm::Error error = groups("SELECT network, COUNT(*) FROM task_networks "
                                 "GROUP BY network",
                                 summary.tasksByNetwork))
    return std::move(error);
  if (llvm::Error error = groups("SELECT kind, COUNT(*) FROM tasks GROUP BY kind",
                                 summary.tasksByKind))
    return std::move(error);

  auto perTarget = db->prepare(
      "SELECT g.name, " MACHINE_LABEL ", r.status, COUNT(*), COUNT(DISTINCT "
      "s.task_id) FROM records r JOIN schedules s ON s.id = r.schedule_id "
      "JOIN targets g ON g.id = r.target_id JOIN machines m ON m.id = "
      "r.machine_id GROUP BY g.name, m.id, r.status ORDER BY g.name, m.id");
  if (!perTarget)
    return perTarget.takeError();
  if (llvm::Error error = forEachRow(*perTarget, [&](Statement &s) {
        if (summary.targets.empty() || summary.targets.back().target != s.text(0) ||
            summary.targets.back().machine != s.text(1))
          summary.targets.push_back({s.text(0), s.text(1)});
        TargetSummary &entry = summary.targets.back();
        entry.byStatus[s.text(2)] = s.integer(3);
        entry.records += s.integer(3);
        if (s.text(2) == "ok")
          entry.valid = s.integer(3);
        return llvm::Error::success();
      }))
    return std::move(error);
  for (TargetSummary &entry : summary.targets) {
    auto tasks = requireInteger(
        *db,
        "SELECT COUNT(DISTINCT s.task_id) FROM records r JOIN schedules s ON "
        "s.id = r.schedule_id JOIN targets g ON g.id = r.target_id JOIN "
        "machines m ON m.id = r.machine_id WHERE g.name = ? AND " MACHINE_LABEL
        " = ?",
        [&](Statement &s) { s.bind(1, entry.target).bind(2, entry.machine); },
        "count");
    if (!tasks)
      return tasks.takeError();
    entry.tasks = *tasks;
    auto baselines = requireInteger(
        *db,
        "SELECT COUNT(*) FROM baselines b JOIN targets g ON g.id = b.target_id "
        "JOIN machines m ON m.id = b.machine_id WHERE g.name = ? AND "
        MACHINE_LABEL " = ? AND b.status = 'ok'",
        [&](Statement &s) { s.bind(1, entry.target).bind(2, entry.machine); },
        "count");
    if (!baselines)
      return baselines.takeError();
    entry.baselines = *baselines;
  }
  return summary;
}
