//===- GpuTarget.cpp - Parsing NVVM targets -------------------------------===//

#include "tcl/Target/GpuTarget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tcl;

namespace {
/// What tcl knows of each chip: the PTX version its code needs and its
/// streaming multiprocessor count (of the flagship part: V100, A100,
/// RTX 3090, RTX 4090, H100/H200).
struct ChipInfo {
  const char *chip;
  const char *ptxFeatures;
  unsigned multiprocessors;
};
constexpr ChipInfo kChips[] = {
    {"sm_70", "+ptx60", 80},  {"sm_75", "+ptx63", 72},
    {"sm_80", "+ptx70", 108}, {"sm_86", "+ptx71", 82},
    {"sm_89", "+ptx78", 128}, {"sm_90", "+ptx80", 132},
    {"sm_90a", "+ptx80", 132},
};
} // namespace

llvm::Expected<GpuTarget> GpuTarget::parse(llvm::StringRef text) {
  llvm::StringRef chip = text;
  if (chip.consume_front("nvvm")) {
    if (chip.empty())
      chip = "sm_90";
    else if (!chip.consume_front(":"))
      chip = "";
  }
  for (const ChipInfo &info : kChips) {
    if (chip != info.chip)
      continue;
    GpuTarget target;
    target.chip = info.chip;
    target.ptxFeatures = info.ptxFeatures;
    target.streamingMultiprocessors = info.multiprocessors;
    return target;
  }
  return llvm::createStringError(
      llvm::formatv("unknown GPU target '{0}' (expected nvvm:<chip> with a "
                    "chip among sm_70, sm_75, sm_80, sm_86, sm_89, sm_90, "
                    "sm_90a)",
                    text)
          .str());
}
