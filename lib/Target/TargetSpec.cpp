//===- TargetSpec.cpp - Target strings users type -------------------------===//

#include "tcl/Target/TargetSpec.h"

#include "llvm/ADT/StringExtras.h"

using namespace tcl;

static llvm::Error targetError(llvm::StringRef text, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "bad target '" + text + "': " + why +
                                     " (expected x86_64:<cpu>[,+feature|"
                                     "-feature...][:<N>t], e.g. "
                                     "x86_64:x86-64-v3:2t)");
}

llvm::Expected<TargetSpec> TargetSpec::parse(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ':');
  if (parts.size() < 2 || parts.size() > 3)
    return targetError(text, "wrong number of ':'-separated parts");
  if (parts[0] != "x86_64")
    return targetError(text, "unknown architecture '" + parts[0] +
                                 "' (only x86_64 CPU targets exist)");
  TargetSpec spec;
  auto [cpu, features] = parts[1].split(',');
  if (cpu.empty())
    return targetError(text, "no CPU name");
  spec.cpu = cpu.str();
  spec.features = features.str();
  if (parts.size() == 3) {
    llvm::StringRef threads = parts[2];
    if (!threads.consume_back("t") || threads.getAsInteger(10, spec.threads) ||
        spec.threads == 0)
      return targetError(text, "thread count '" + parts[2] +
                                   "' is not of the form <N>t with N >= 1");
  }
  if (llvm::Expected<CpuTarget> resolved = spec.resolve(); !resolved)
    return targetError(text, llvm::toString(resolved.takeError()));
  return spec;
}

std::string TargetSpec::name() const {
  std::string text = "x86_64:" + cpu;
  if (!features.empty())
    text += "," + features;
  return text + ":" + std::to_string(threads) + "t";
}
