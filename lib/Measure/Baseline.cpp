//===- Baseline.cpp - Vendor-library baselines of tasks -------------------===//

#include "tcl/Measure/Baseline.h"

#include "tcl/Run/CoreLock.h"
#include "tcl/Run/Statistics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

extern char **environ;

using namespace tcl;

bool tcl::hasOnednnBaseline(TaskKind kind) {
  switch (kind) {
  case TaskKind::Matmul:
  case TaskKind::BatchMatmul:
  case TaskKind::Conv2D:
  case TaskKind::DepthwiseConv2D:
  case TaskKind::Pooling:
  case TaskKind::Elementwise:
    return true;
  default:
    return false;
  }
}

llvm::StringRef tcl::onednnIsaFor(const CpuTarget &target) {
  switch (target.vectorBits()) {
  case 512:
    return "ALL";
  case 256:
    return "AVX2";
  default:
    return "SSE41";
  }
}

BaselineRow tcl::measureOnednnBaseline(llvm::StringRef tool,
                                       llvm::StringRef payload,
                                       const CpuTarget &target,
                                       llvm::ArrayRef<unsigned> cores) {
  BaselineRow row;
  row.library = "onednn";
  row.status = "failed";
  row.createdAt = std::time(nullptr);
  auto fail = [&](const llvm::Twine &why) {
    row.error = why.str();
    return row;
  };

  llvm::SmallString<128> input, output, errors;
  if (llvm::sys::fs::createTemporaryFile("tcl-task", "mlir", input) ||
      llvm::sys::fs::createTemporaryFile("tcl-onednn", "json", output) ||
      llvm::sys::fs::createTemporaryFile("tcl-onednn", "err", errors))
    return fail("cannot create temporary files");
  llvm::FileRemover removeInput(input), removeOutput(output),
      removeErrors(errors);
  {
    std::error_code error;
    llvm::raw_fd_ostream os(input, error);
    if (error)
      return fail("cannot write " + input + ": " + error.message());
    os << payload;
  }

  std::string threads = "--num-threads=" + std::to_string(target.threads);
  std::string json = "--json=" + output.str().str();
  llvm::SmallVector<llvm::StringRef> arguments = {tool, input, threads, json};
  std::vector<std::string> environment;
  for (char **entry = environ; *entry; ++entry)
    if (!llvm::StringRef(*entry).starts_with("DNNL_MAX_CPU_ISA="))
      environment.push_back(*entry);
  environment.push_back(("DNNL_MAX_CPU_ISA=" + onednnIsaFor(target)).str());
  llvm::SmallVector<llvm::StringRef> environmentRefs(environment.begin(),
                                                      environment.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(errors)};

  llvm::Expected<CoreLock> lock = CoreLock::acquire(cores);
  if (!lock)
    return fail(llvm::toString(lock.takeError()));
  // oneDNN is timed like a candidate: with nothing else running.
  llvm::Expected<MachineLock> machine = MachineLock::open();
  if (!machine)
    return fail(llvm::toString(machine.takeError()));
  if (llvm::Error error = machine->exclusive())
    return fail(llvm::toString(std::move(error)));
  // The tool inherits this process's affinity; restore it afterwards.
  llvm::SmallVector<unsigned> previous = allowedCores();
  if (llvm::Error error = pinToCores(cores))
    return fail(llvm::toString(std::move(error)));
  std::string message;
  int code = llvm::sys::ExecuteAndWait(tool, arguments, environmentRefs,
                                       redirects, /*SecondsToWait=*/300, 0,
                                       &message);
  llvm::consumeError(pinToCores(previous));
  if (code != 0) {
    auto text = llvm::MemoryBuffer::getFile(errors);
    return fail(message.empty() && text ? (*text)->getBuffer().trim().str()
                                        : message);
  }
  auto text = llvm::MemoryBuffer::getFile(output);
  if (!text)
    return fail("tcl-onednn wrote no results");
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse((*text)->getBuffer());
  const llvm::json::Object *object = parsed ? parsed->getAsObject() : nullptr;
  if (!object) {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    return fail("tcl-onednn wrote malformed results");
  }
  std::vector<double> samples;
  if (const llvm::json::Array *array = object->getArray("samples_s"))
    for (const llvm::json::Value &value : *array)
      samples.push_back(value.getAsNumber().value_or(0));
  if (samples.empty())
    return fail("tcl-onednn reported no samples");
  Timing timing = summarize(std::move(samples));
  row.status = "ok";
  row.primitive = object->getString("primitive").value_or("").str();
  row.medianSeconds = timing.median;
  row.minSeconds = timing.min;
  row.spread = timing.relativeSpread;
  row.samples = timing.samples.size();
  return row;
}
