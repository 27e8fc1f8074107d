//===- Space.cpp - A tunable Transform script and its knobs ---------------===//

#include "tcl/Space/Space.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <random>

using namespace mlir;
using namespace tcl;

std::string tcl::formatOption(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    os << integer.getValue();
  else
    os << attr;
  return text;
}

FailureOr<Space> Space::fromScript(Operation *script) {
  Space space;
  llvm::StringMap<size_t> indexByName;
  bool ok = true;
  script->walk([&](transform::tune::KnobOp knob) {
    auto options = dyn_cast<ArrayAttr>(knob.getOptions());
    if (!options || options.empty()) {
      knob.emitError() << "knob \"" << knob.getName().getValue()
                       << "\" must list its options as a non-empty array for "
                          "tcl to search it";
      ok = false;
      return;
    }
    std::optional<unsigned> selected;
    if (Attribute chosen = knob.getSelectedAttr())
      for (auto [index, option] : llvm::enumerate(options))
        if (option == chosen)
          selected = index;
    auto [it, inserted] =
        indexByName.try_emplace(knob.getName().getValue(), space.knobList.size());
    if (inserted) {
      std::optional<std::vector<int64_t>> integers(std::in_place);
      for (Attribute option : options) {
        if (auto integer = dyn_cast<IntegerAttr>(option))
          integers->push_back(integer.getInt());
        else
          integers.reset();
        if (!integers)
          break;
      }
      space.knobList.push_back({knob.getName().getValue().str(),
                                llvm::to_vector(options.getValue()), selected,
                                knob.getLoc(), std::move(integers)});
      return;
    }
    Knob &existing = space.knobList[it->second];
    if (ArrayRef<Attribute>(existing.options) != options.getValue()) {
      knob.emitError() << "knob \"" << existing.name
                       << "\" appears twice with different options";
      ok = false;
    }
  });
  if (!ok)
    return failure();

  auto knobIndex = [&](StringRef name) -> int {
    auto it = indexByName.find(name);
    if (it == indexByName.end() ||
        !space.knobList[it->second].integerOptions)
      return -1;
    return it->second;
  };
  script->walk([&](Operation *op) {
    Attribute attr = op->getAttr("tcl.constraints");
    if (!attr)
      return;
    auto texts = dyn_cast<ArrayAttr>(attr);
    if (!texts || !llvm::all_of(texts, llvm::IsaPred<StringAttr>)) {
      op->emitError("tcl.constraints must be an array of strings");
      ok = false;
      return;
    }
    for (auto text : texts.getAsValueRange<StringAttr>()) {
      llvm::Expected<Constraint> constraint = Constraint::parse(text, knobIndex);
      if (!constraint) {
        op->emitError() << "constraint \"" << text
                        << "\": " << llvm::toString(constraint.takeError())
                        << " (constraints read knobs with integer options)";
        ok = false;
        continue;
      }
      space.constraintList.push_back(std::move(*constraint));
    }
  });
  if (!ok)
    return failure();
  return space;
}

std::vector<int64_t> Space::values(const Assignment &assignment) const {
  std::vector<int64_t> result(knobList.size(), 0);
  for (auto [index, knob] : llvm::enumerate(knobList))
    if (knob.integerOptions)
      result[index] = (*knob.integerOptions)[assignment[index]];
  return result;
}

bool Space::isLegal(const Assignment &assignment,
                    const Constraint **violated) const {
  std::vector<int64_t> knobValues = values(assignment);
  for (const Constraint &constraint : constraintList) {
    if (!constraint.holds(knobValues)) {
      if (violated)
        *violated = &constraint;
      return false;
    }
  }
  return true;
}

std::vector<std::vector<const Constraint *>>
Space::constraintsByDepth() const {
  std::vector<std::vector<const Constraint *>> checkedAt(knobList.size() + 1);
  for (const Constraint &constraint : constraintList)
    checkedAt[constraint.knobs().empty() ? 0 : constraint.knobs().back() + 1]
        .push_back(&constraint);
  return checkedAt;
}

uint64_t Space::countLegal(uint64_t cap) const {
  std::vector<std::vector<const Constraint *>> checkedAt = constraintsByDepth();
  for (const Constraint *constraint : checkedAt[0])
    if (!constraint->holds({}))
      return 0;
  std::vector<int64_t> knobValues(knobList.size(), 0);
  uint64_t count = 0;
  std::function<void(size_t)> visit = [&](size_t depth) {
    if (count >= cap)
      return;
    if (depth == knobList.size()) {
      ++count;
      return;
    }
    const Knob &knob = knobList[depth];
    for (size_t option = 0; option < knob.options.size(); ++option) {
      if (knob.integerOptions)
        knobValues[depth] = (*knob.integerOptions)[option];
      if (llvm::all_of(checkedAt[depth + 1], [&](const Constraint *c) {
            return c->holds(knobValues);
          }))
        visit(depth + 1);
    }
  };
  visit(0);
  return std::min(count, cap);
}

uint64_t Space::size() const {
  uint64_t product = 1;
  for (const Knob &knob : knobList) {
    if (product > std::numeric_limits<uint64_t>::max() / knob.options.size())
      return std::numeric_limits<uint64_t>::max();
    product *= knob.options.size();
  }
  return product;
}

FailureOr<Assignment>
Space::parseAssignment(ArrayRef<std::string> items,
                       std::optional<uint64_t> seed,
                       function_ref<InFlightDiagnostic()> emitError) const {
  Assignment assignment(knobList.size());
  if (seed) {
    std::optional<Assignment> draw = sample(*seed);
    if (!draw) {
      emitError() << "no schedule satisfies the space's constraints";
      return failure();
    }
    assignment = *draw;
  }
  std::vector<bool> assigned(knobList.size(), false);
  for (const std::string &item : items) {
    auto [name, value] = llvm::StringRef(item).split('=');
    name = name.trim();
    value = value.trim();
    auto knob = llvm::find_if(knobList,
                              [&](const Knob &k) { return k.name == name; });
    if (knob == knobList.end()) {
      emitError() << "unknown knob \"" << name << "\" in the schedule";
      return failure();
    }
    size_t index = knob - knobList.begin();
    auto option = llvm::find_if(knob->options, [&](Attribute attr) {
      return formatOption(attr) == value;
    });
    if (option == knob->options.end()) {
      InFlightDiagnostic diag = emitError();
      diag << "knob \"" << name << "\" has no option " << value
           << " (options: ";
      llvm::interleaveComma(knob->options, diag, [&](Attribute attr) {
        diag << formatOption(attr);
      });
      diag << ")";
      return failure();
    }
    assignment[index] = option - knob->options.begin();
    assigned[index] = true;
  }
  for (auto [index, knob] : llvm::enumerate(knobList)) {
    if (assigned[index] || seed)
      continue;
    if (!knob.selected) {
      mlir::emitError(knob.location)
          << "knob \"" << knob.name
          << "\" has no value: give one in the schedule or a seed";
      return failure();
    }
    assignment[index] = *knob.selected;
  }
  const Constraint *violated = nullptr;
  if (!isLegal(assignment, &violated)) {
    emitError() << "schedule " << format(assignment)
                << " violates the constraint \"" << violated->text() << "\"";
    return failure();
  }
  return assignment;
}

std::optional<Assignment> Space::sample(uint64_t seed) const {
  std::mt19937_64 generator(seed);
  auto draw = [&](const Knob &knob) {
    return std::uniform_int_distribution<unsigned>(
        0, knob.options.size() - 1)(generator);
  };
  // Rejection sampling is uniform over the legal schedules; templates keep
  // the legal fraction well above 1/kAttempts.
  constexpr int kAttempts = 20000;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    Assignment assignment;
    for (const Knob &knob : knobList)
      assignment.push_back(draw(knob));
    if (isLegal(assignment))
      return assignment;
  }
  // A sparse space: walk it in a random order and take the first legal
  // schedule (legal, though no longer uniform).
  std::vector<std::vector<const Constraint *>> checkedAt = constraintsByDepth();
  Assignment assignment(knobList.size());
  std::vector<int64_t> knobValues(knobList.size(), 0);
  std::function<bool(size_t)> search = [&](size_t depth) {
    if (!llvm::all_of(checkedAt[depth], [&](const Constraint *c) {
          return c->holds(knobValues);
        }))
      return false;
    if (depth == knobList.size())
      return true;
    const Knob &knob = knobList[depth];
    std::vector<unsigned> order(knob.options.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), generator);
    for (unsigned option : order) {
      assignment[depth] = option;
      if (knob.integerOptions)
        knobValues[depth] = (*knob.integerOptions)[option];
      if (search(depth + 1))
        return true;
    }
    return false;
  };
  if (search(0))
    return assignment;
  return std::nullopt;
}

std::string Space::format(const Assignment &assignment) const {
  std::string text;
  for (auto [index, knob] : llvm::enumerate(knobList)) {
    if (index)
      text += ",";
    text += knob.name + "=" + formatOption(knob.options[assignment[index]]);
  }
  return text;
}

void Space::concretize(Operation *script, const Assignment &assignment) const {
  llvm::StringMap<Attribute> valueByName;
  for (auto [index, knob] : llvm::enumerate(knobList))
    valueByName[knob.name] = knob.options[assignment[index]];
  script->walk([&](transform::tune::KnobOp knob) {
    auto it = valueByName.find(knob.getName().getValue());
    if (it != valueByName.end())
      knob.setSelectedAttr(it->second);
  });
}
