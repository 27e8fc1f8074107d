//===- JsonLines.cpp - Tuning database export, import and merge -----------===//
//
// The interchange format is JSON Lines with self-contained objects: a record
// names its task by key, its target by name and its machine by CPU model,
// so files from different databases can be concatenated, diffed, compressed
// and imported in any order after their tasks.
//
//===----------------------------------------------------------------------===//

#include "tcl/DB/TuningDatabase.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tcl;
using sqlite::Statement;
namespace json = llvm::json;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static json::Value optionalNumber(const Statement &s, int column) {
  if (s.isNull(column))
    return nullptr;
  return s.real(column);
}

static json::Object machineJson(const Statement &s, int first) {
  return json::Object{{"cpu_model", s.text(first)},
                      {"host_cpu", s.text(first + 1)},
                      {"cores", s.integer(first + 2)}};
}

static void writeLine(llvm::raw_ostream &os, json::Object object) {
  os << json::Value(std::move(object)) << "\n";
}

llvm::Error TuningDatabase::exportJsonLines(llvm::raw_ostream &os) {
  auto tasks = db->prepare("SELECT id, key, kind, flops, payload FROM tasks "
                           "ORDER BY id");
  auto networks = db->prepare("SELECT network, occurrences FROM task_networks "
                              "WHERE task_id = ? ORDER BY network");
  auto targets = db->prepare("SELECT name, cpu, features, threads FROM "
                             "targets ORDER BY id");
  auto records = db->prepare(
      "SELECT t.key, g.name, m.cpu_model, m.host_cpu, m.cores, s.assignment, "
      "s.script_hash, r.status, r.median_s, r.min_s, r.spread, r.samples, "
      "r.compile_s, r.vector_ops, r.scalar_fallback, r.error, r.created_at, "
      "r.uid, r.wall_s FROM records r JOIN schedules s ON s.id = r.schedule_id JOIN "
      "tasks t ON t.id = s.task_id JOIN targets g ON g.id = r.target_id JOIN "
      "machines m ON m.id = r.machine_id ORDER BY r.id");
  auto baselines = db->prepare(
      "SELECT t.key, g.name, m.cpu_model, m.host_cpu, m.cores, b.library, "
      "b.primitive, b.status, b.median_s, b.min_s, b.spread, b.samples, "
      "b.error, b.created_at FROM baselines b JOIN tasks t ON t.id = "
      "b.task_id JOIN targets g ON g.id = b.target_id JOIN machines m ON m.id "
      "= b.machine_id ORDER BY b.id");
  for (auto *statement : {&tasks, &networks, &targets, &records, &baselines})
    if (!*statement)
      return statement->takeError();

  auto step = [](Statement &s) -> llvm::Expected<bool> { return s.step(); };
  while (true) {
    llvm::Expected<bool> row = step(*tasks);
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    json::Object occurrences;
    networks->reset();
    networks->bind(1, tasks->integer(0));
    while (true) {
      llvm::Expected<bool> network = step(*networks);
      if (!network)
        return network.takeError();
      if (!*network)
        break;
      occurrences[networks->text(0)] = networks->integer(1);
    }
    writeLine(os, json::Object{{"type", "task"},
                   {"key", tasks->text(1)},
                   {"kind", tasks->text(2)},
                   {"flops", tasks->real(3)},
                   {"networks", std::move(occurrences)},
                   {"payload", tasks->text(4)}});
  }
  while (true) {
    llvm::Expected<bool> row = step(*targets);
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    writeLine(os, json::Object{{"type", "target"},
                   {"name", targets->text(0)},
                   {"cpu", targets->text(1)},
                   {"features", targets->text(2)},
                   {"threads", targets->integer(3)}});
  }
  while (true) {
    llvm::Expected<bool> row = step(*records);
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    Statement &s = *records;
    writeLine(os, json::Object{{"type", "record"},
                   {"task", s.text(0)},
                   {"target", s.text(1)},
                   {"machine", machineJson(s, 2)},
                   {"assignment", s.text(5)},
                   {"script_hash", s.text(6)},
                   {"status", s.text(7)},
                   {"median_s", optionalNumber(s, 8)},
                   {"min_s", optionalNumber(s, 9)},
                   {"spread", optionalNumber(s, 10)},
                   {"samples", s.integer(11)},
                   {"compile_s", s.real(12)},
                   {"wall_s", s.real(18)},
                   {"vector_ops", s.integer(13)},
                   {"scalar_fallback", s.integer(14) != 0},
                   {"error", s.text(15)},
                   {"created_at", s.integer(16)},
                   {"uid", s.text(17)}});
  }
  while (true) {
    llvm::Expected<bool> row = step(*baselines);
    if (!row)
      return row.takeError();
    if (!*row)
      break;
    Statement &s = *baselines;
    writeLine(os, json::Object{{"type", "baseline"},
                   {"task", s.text(0)},
                   {"target", s.text(1)},
                   {"machine", machineJson(s, 2)},
                   {"library", s.text(5)},
                   {"primitive", s.text(6)},
                   {"status", s.text(7)},
                   {"median_s", optionalNumber(s, 8)},
                   {"min_s", optionalNumber(s, 9)},
                   {"spread", optionalNumber(s, 10)},
                   {"samples", s.integer(11)},
                   {"error", s.text(12)},
                   {"created_at", s.integer(13)}});
  }
  return llvm::Error::success();
}

namespace {
/// Reads fields of one JSON object, remembering the first missing one.
class FieldReader {
public:
  explicit FieldReader(const json::Object &object) : object(object) {}

  std::string text(llvm::StringRef name) {
    if (std::optional<llvm::StringRef> value = object.getString(name))
      return value->str();
    missing(name);
    return "";
  }
  int64_t integer(llvm::StringRef name) {
    if (std::optional<int64_t> value = object.getInteger(name))
      return *value;
    missing(name);
    return 0;
  }
  double number(llvm::StringRef name) {
    if (std::optional<double> value = object.getNumber(name))
      return *value;
    missing(name);
    return 0;
  }
  /// Absent or null reads as nullopt.
  std::optional<double> optionalNumber(llvm::StringRef name) {
    return object.getNumber(name);
  }
  bool boolean(llvm::StringRef name) {
    if (std::optional<bool> value = object.getBoolean(name))
      return *value;
    missing(name);
    return false;
  }
  MachineInfo machine() {
    const json::Object *machine = object.getObject("machine");
    if (!machine) {
      missing("machine");
      return {};
    }
    FieldReader fields(*machine);
    MachineInfo info{fields.text("cpu_model"), fields.text("host_cpu"),
                     fields.integer("cores")};
    if (!fields.firstMissing.empty())
      missing("machine." + fields.firstMissing);
    return info;
  }
  llvm::Error check() const {
    if (firstMissing.empty())
      return llvm::Error::success();
    return makeError("missing or mistyped field '" + firstMissing + "'");
  }

private:
  void missing(llvm::StringRef name) {
    if (firstMissing.empty())
      firstMissing = name.str();
  }
  const json::Object &object;
  std::string firstMissing;
};
} // namespace

llvm::Error TuningDatabase::importJsonLines(llvm::StringRef text,
                                            llvm::StringRef sourceName,
                                            int64_t &added) {
  added = 0;
  int64_t lineNumber = 0;
  auto importLine = [&](llvm::StringRef line) -> llvm::Error {
    llvm::Expected<json::Value> parsed = json::parse(line);
    if (!parsed)
      return parsed.takeError();
    const json::Object *object = parsed->getAsObject();
    if (!object)
      return makeError("expected a JSON object");
    FieldReader fields(*object);
    std::string type = fields.text("type");
    if (type == "task") {
      TaskRow task{fields.text("key"), fields.text("kind"),
                   fields.number("flops"), fields.text("payload")};
      if (llvm::Error error = fields.check())
        return error;
      if (llvm::Expected<int64_t> id = addTask(task); !id)
        return id.takeError();
      if (const json::Object *networks = object->getObject("networks"))
        for (const auto &[network, occurrences] : *networks)
          if (llvm::Error error = addTaskNetwork(
                  task.key, network.str(), occurrences.getAsInteger().value_or(0)))
            return error;
      return llvm::Error::success();
    }
    if (type == "target") {
      TargetRow target{fields.text("name"), fields.text("cpu"),
                       fields.text("features"), fields.integer("threads")};
      if (llvm::Error error = fields.check())
        return error;
      return addTarget(target);
    }
    if (type == "record") {
      RecordRow record;
      record.taskKey = fields.text("task");
      record.target = fields.text("target");
      record.machine = fields.machine();
      record.assignment = fields.text("assignment");
      record.scriptHash = fields.text("script_hash");
      record.status = fields.text("status");
      record.medianSeconds = fields.optionalNumber("median_s");
      record.minSeconds = fields.optionalNumber("min_s");
      record.spread = fields.optionalNumber("spread");
      record.samples = fields.integer("samples");
      record.compileSeconds = fields.number("compile_s");
      record.wallSeconds = fields.number("wall_s");
      record.vectorOps = fields.integer("vector_ops");
      record.scalarFallback = fields.boolean("scalar_fallback");
      record.error = fields.text("error");
      record.createdAt = fields.integer("created_at");
      record.uid = fields.text("uid");
      if (llvm::Error error = fields.check())
        return error;
      if (llvm::Error error = insertRecord(record))
        return error;
      added += db->changes();
      return llvm::Error::success();
    }
    if (type == "baseline") {
      BaselineRow baseline;
      baseline.taskKey = fields.text("task");
      baseline.target = fields.text("target");
      baseline.machine = fields.machine();
      baseline.library = fields.text("library");
      baseline.primitive = fields.text("primitive");
      baseline.status = fields.text("status");
      baseline.medianSeconds = fields.optionalNumber("median_s");
      baseline.minSeconds = fields.optionalNumber("min_s");
      baseline.spread = fields.optionalNumber("spread");
      baseline.samples = fields.integer("samples");
      baseline.error = fields.text("error");
      baseline.createdAt = fields.integer("created_at");
      if (llvm::Error error = fields.check())
        return error;
      return insertBaseline(baseline);
    }
    if (llvm::Error error = fields.check())
      return error;
    return makeError("unknown object type '" + type +
                     "' (expected task, target, record or baseline)");
  };
  // One transaction: an import that fails half-way adds nothing.
  return sqlite::transaction(*db, [&]() -> llvm::Error {
    llvm::StringRef rest = text;
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      rest = next;
      ++lineNumber;
      if (line.trim().empty())
        continue;
      if (llvm::Error error = importLine(line))
        return makeError(sourceName + ":" + llvm::Twine(lineNumber) + ": " +
                         llvm::toString(std::move(error)));
    }
    return llvm::Error::success();
  });
}
