//===- OpProfile.cpp - Per-op times of a profiled module ------------------===//

#include "tcl/Run/OpProfile.h"
#include "tcl/Passes/Passes.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace tcl;

namespace {
/// The call being recorded. The marks run on the thread that calls the
/// entry function, between its top-level ops, never inside a parallel
/// region, so one unsynchronized record is enough.
struct ProfileRecord {
  std::vector<double> seconds;
  std::chrono::steady_clock::time_point last;
};
ProfileRecord record;
} // namespace

extern "C" void tcl_profile_mark(int64_t id) {
  auto now = std::chrono::steady_clock::now();
  if (id >= 0 && size_t(id) < record.seconds.size())
    record.seconds[id] +=
        std::chrono::duration<double>(now - record.last).count();
  record.last = now;
}

std::vector<ProfiledOp> tcl::readProfiledOps(ModuleOp module) {
  std::vector<ProfiledOp> ops;
  auto labels = module->getAttrOfType<ArrayAttr>(kProfileOpsAttr);
  if (!labels)
    return ops;
  for (Attribute label : labels) {
    auto dictionary = cast<DictionaryAttr>(label);
    auto text = [&](StringRef key) {
      auto value = dictionary.getAs<StringAttr>(key);
      return value ? value.str() : std::string();
    };
    ops.push_back({text("category"), text("op"), text("location"), 0});
  }
  return ops;
}

void tcl::measureOps(const std::function<void()> &call, unsigned calls,
                     std::vector<ProfiledOp> &ops) {
  std::vector<std::vector<double>> perOp(ops.size());
  for (unsigned index = 0; index < calls; ++index) {
    record.seconds.assign(ops.size(), 0);
    call();
    for (size_t op = 0; op < ops.size(); ++op)
      perOp[op].push_back(record.seconds[op]);
  }
  record.seconds.clear();
  for (size_t op = 0; op < ops.size(); ++op) {
    std::vector<double> &samples = perOp[op];
    if (samples.empty())
      continue;
    std::nth_element(samples.begin(), samples.begin() + samples.size() / 2,
                     samples.end());
    ops[op].seconds = samples[samples.size() / 2];
  }
}

llvm::json::Array tcl::profileToJson(const std::vector<ProfiledOp> &ops) {
  llvm::json::Array array;
  for (const ProfiledOp &op : ops)
    array.push_back(llvm::json::Object{{"category", op.category},
                                       {"op", op.op},
                                       {"location", op.location},
                                       {"seconds", op.seconds}});
  return array;
}

std::vector<ProfiledOp> tcl::profileFromJson(const llvm::json::Array &array) {
  std::vector<ProfiledOp> ops;
  for (const llvm::json::Value &value : array) {
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      continue;
    auto text = [&](llvm::StringRef key) {
      return object->getString(key).value_or("").str();
    };
    ops.push_back({text("category"), text("op"), text("location"),
                   object->getNumber("seconds").value_or(0)});
  }
  return ops;
}
