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
namespace json = llvm::json;

static json::Value optionalNumber(std::optional<double> value) {
  if (!value)
    return nullptr;
  return *value;
}

static json::Object machineJson(const MachineInfo &machine) {
  return json::Object{{"cpu_model", machine.cpuModel},
                      {"host_cpu", machine.hostCpu},
                      {"cores", machine.cores}};
}

static void writeLine(llvm::raw_ostream &os, json::Object object) {
  os << json::Value(std::move(object)) << "\n";
}

llvm::Error TuningDatabase::exportJsonLines(llvm::raw_ostream &os) {
  llvm::Expected<std::vector<TaskRow>> allTasks = tasks();
  if (!allTasks)
    return allTasks.takeError();
  for (const TaskRow &task : *allTasks) {
    json::Object occurrences;
    for (const auto &[network, count] : task.networks)
      occurrences[network] = count;
    writeLine(os, json::Object{{"type", "task"},
                               {"key", task.key},
                               {"kind", task.kind},
                               {"flops", task.flops},
                               {"networks", std::move(occurrences)},
                               {"payload", task.payload}});
  }
  llvm::Expected<std::vector<TargetRow>> allTargets = targets();
  if (!allTargets)
    return allTargets.takeError();
  for (const TargetRow &target : *allTargets)
    writeLine(os, json::Object{{"type", "target"},
                               {"name", target.name},
                               {"cpu", target.cpu},
                               {"features", target.features},
                               {"threads", target.threads}});
  llvm::Expected<std::vector<RecordRow>> allRecords = records();
  if (!allRecords)
    return allRecords.takeError();
  for (const RecordRow &r : *allRecords)
    writeLine(os, json::Object{{"type", "record"},
                               {"task", r.taskKey},
                               {"target", r.target},
                               {"machine", machineJson(r.machine)},
                               {"assignment", r.assignment},
                               {"script_hash", r.scriptHash},
                               {"status", r.status},
                               {"median_s", optionalNumber(r.medianSeconds)},
                               {"min_s", optionalNumber(r.minSeconds)},
                               {"spread", optionalNumber(r.spread)},
                               {"samples", r.samples},
                               {"compile_s", r.compileSeconds},
                               {"wall_s", r.wallSeconds},
                               {"vector_ops", r.vectorOps},
                               {"scalar_fallback", r.scalarFallback},
                               {"error", r.error},
                               {"created_at", r.createdAt},
                               {"uid", r.uid}});
  llvm::Expected<std::vector<BaselineRow>> allBaselines = baselines();
  if (!allBaselines)
    return allBaselines.takeError();
  for (const BaselineRow &b : *allBaselines)
    writeLine(os, json::Object{{"type", "baseline"},
                               {"task", b.taskKey},
                               {"target", b.target},
                               {"machine", machineJson(b.machine)},
                               {"library", b.library},
                               {"primitive", b.primitive},
                               {"status", b.status},
                               {"median_s", optionalNumber(b.medianSeconds)},
                               {"min_s", optionalNumber(b.minSeconds)},
                               {"spread", optionalNumber(b.spread)},
                               {"samples", b.samples},
                               {"error", b.error},
                               {"created_at", b.createdAt}});
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
    return llvm::createStringError("missing or mistyped field '" +
                                   firstMissing + "'");
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
      return llvm::createStringError("expected a JSON object");
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
    return llvm::createStringError(
        "unknown object type '" + type +
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
        return llvm::createStringError(sourceName + ":" +
                                       llvm::Twine(lineNumber) + ": " +
                                       llvm::toString(std::move(error)));
    }
    return llvm::Error::success();
  });
}
