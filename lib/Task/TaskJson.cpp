//===- TaskJson.cpp - JSON form of extracted tasks ------------------------===//

#include "tcl/Task/TaskJson.h"

using namespace tcl;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

template <typename Range>
static Array toArray(const Range &range) {
  Array array;
  for (const auto &element : range)
    array.push_back(element);
  return array;
}

Value tcl::toJSON(const Task &task) {
  Object object{
      {"key", task.key},
      {"kind", stringifyTaskKind(task.kind)},
      {"op", task.opName},
      {"iterator_types", toArray(task.iteratorTypes)},
      {"loop_bounds", toArray(task.loopBounds)},
      {"operand_types", toArray(task.operandTypes)},
      {"dtype", task.elementType},
      {"flops", task.flops},
      {"bytes", task.bytes},
      {"arithmetic_intensity", task.arithmeticIntensity()},
      {"weight", task.weight},
      {"locations", toArray(task.locations)},
      {"canonical_form", task.canonicalForm},
  };
  if (!task.matmulVariant.empty())
    object["transpose"] = task.matmulVariant;
  if (task.conv) {
    object["conv"] = Object{{"strides", toArray(task.conv->strides)},
                            {"dilations", toArray(task.conv->dilations)},
                            {"filter", toArray(task.conv->filterSizes)},
                            {"groups", task.conv->groups},
                            {"layout", task.conv->layout}};
  }
  Array consumers;
  for (const FusedConsumer &consumer : task.fusableConsumers)
    consumers.push_back(Object{{"op", consumer.opName},
                               {"canonical_form", consumer.canonicalForm}});
  object["fusable_consumers"] = std::move(consumers);
  return object;
}

Value tcl::toJSON(const UnsupportedOp &op) {
  return Object{{"op", op.opName},
                {"location", op.location},
                {"reason", op.reason}};
}

Value tcl::toJSON(const TaskSet &set) {
  Array tasks, unsupported;
  for (const Task &task : set.tasks)
    tasks.push_back(toJSON(task));
  for (const UnsupportedOp &op : set.unsupported)
    unsupported.push_back(toJSON(op));
  Object byKind;
  for (const Task &task : set.tasks) {
    Value &count = byKind[stringifyTaskKind(task.kind)];
    count = (count.getAsInteger() ? *count.getAsInteger() : 0) + task.weight;
  }
  unsigned occurrences = 0;
  for (const Task &task : set.tasks)
    occurrences += task.weight;
  return Object{{"tasks", std::move(tasks)},
                {"unsupported", std::move(unsupported)},
                {"summary", Object{{"num_tasks", set.tasks.size()},
                                   {"num_occurrences", occurrences},
                                   {"num_unsupported", set.unsupported.size()},
                                   {"total_flops", set.totalFlops()},
                                   {"occurrences_by_kind", std::move(byKind)}}}};
}
