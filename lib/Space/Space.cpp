//===- Space.cpp - A tunable Transform script and its knobs ---------------===//

#include "tcl/Space/Space.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringMap.h"

#include <limits>
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
      space.knobList.push_back({knob.getName().getValue().str(),
                                llvm::to_vector(options.getValue()), selected,
                                knob.getLoc()});
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
  return space;
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
  Assignment assignment = seed ? sample(*seed) : Assignment(knobList.size());
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
  return assignment;
}

Assignment Space::sample(uint64_t seed) const {
  std::mt19937_64 generator(seed);
  Assignment assignment;
  for (const Knob &knob : knobList)
    assignment.push_back(std::uniform_int_distribution<unsigned>(
        0, knob.options.size() - 1)(generator));
  return assignment;
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
