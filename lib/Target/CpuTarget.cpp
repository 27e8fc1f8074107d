//===- CpuTarget.cpp - Resolve and validate CPU targets -------------------===//

#include "tcl/Target/CpuTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace tcl;
using llvm::StringRef;

static const llvm::Target *lookupTarget(const std::string &triple,
                                        std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  return llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
}

static std::unique_ptr<llvm::MCSubtargetInfo>
createSubtargetInfo(const llvm::Target *target, const CpuTarget &cpu) {
  return std::unique_ptr<llvm::MCSubtargetInfo>(target->createMCSubtargetInfo(
      llvm::Triple(cpu.triple), cpu.cpu, cpu.features));
}

llvm::Expected<CpuTarget> CpuTarget::resolve(StringRef cpu, StringRef features,
                                             unsigned threads) {
  if (threads == 0)
    return llvm::createStringError("threads must be at least 1");
  CpuTarget result;
  result.triple = llvm::sys::getDefaultTargetTriple();
  result.threads = threads;
  std::string error;
  const llvm::Target *target = lookupTarget(result.triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for '" + result.triple +
                                   "': " + error);

  llvm::SmallVector<std::string> featureList;
  if (cpu.empty() || cpu == "host") {
    result.cpu = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      featureList.push_back((feature.getValue() ? "+" : "-") +
                            feature.getKey().str());
    llvm::sort(featureList);
  } else {
    result.cpu = cpu.str();
  }

  // Probe with the generic CPU: asking LLVM for an unknown one makes it
  // print its own warning before ours.
  CpuTarget generic = result;
  generic.cpu = "";
  generic.features = "";
  std::unique_ptr<llvm::MCSubtargetInfo> probe =
      createSubtargetInfo(target, generic);
  if (!probe->isCPUStringValid(result.cpu))
    return llvm::createStringError("unknown CPU '" + result.cpu +
                                   "' for target " + result.triple);

  llvm::SmallVector<StringRef> overrides;
  features.split(overrides, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef word : overrides) {
    word = word.trim();
    if (word.size() < 2 || (word[0] != '+' && word[0] != '-'))
      return llvm::createStringError(
          "feature '" + word.str() +
          "' must be written as +name or -name (e.g. -avx512f)");
    StringRef name = word.drop_front();
    bool known = llvm::any_of(probe->getAllProcessorFeatures(),
                              [&](const llvm::SubtargetFeatureKV &kv) {
                                return name == kv.Key;
                              });
    if (!known)
      return llvm::createStringError("unknown CPU feature '" + name.str() +
                                     "'");
    featureList.push_back(word.str());
  }
  result.features = llvm::join(featureList, ",");
  return result;
}

bool CpuTarget::hasFeature(llvm::StringRef feature) const {
  std::string error;
  const llvm::Target *target = lookupTarget(triple, error);
  if (!target)
    return false;
  return createSubtargetInfo(target, *this)->checkFeatures(("+" + feature).str());
}

unsigned CpuTarget::vectorBits() const {
  if (hasFeature("avx512f"))
    return 512;
  if (hasFeature("avx"))
    return 256;
  if (hasFeature("sse"))
    return 128;
  return 64;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
CpuTarget::createTargetMachine(bool forJit) const {
  std::string error;
  const llvm::Target *target = lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(error);
  llvm::TargetOptions options;
  // The JIT may place a module's code and its constant globals (a model's
  // weights: megabytes) more than 2 GiB apart; the small code model's
  // 32-bit RIP-relative addressing then reads garbage. Seen here with the
  // zoo's MLP; the large code model costs an extra register per address.
  std::optional<llvm::CodeModel::Model> codeModel;
  if (forJit)
    codeModel = llvm::CodeModel::Large;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      llvm::Triple(triple), cpu, features, options, llvm::Reloc::PIC_,
      codeModel, llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return llvm::createStringError("cannot create a target machine for " + cpu);
  return machine;
}
