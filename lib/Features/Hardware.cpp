//===- Hardware.cpp - What a cost model knows about a target --------------===//

#include "tcl/Features/Hardware.h"

#include "tcl/Target/CpuTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <thread>

using namespace tcl;

/// A sysfs cache size such as "32K" or "32768K", in bytes; 0 if unreadable.
static int64_t readCacheBytes(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer().trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1 << 10;
  else if (text.consume_back("M"))
    scale = 1 << 20;
  int64_t value = 0;
  if (text.getAsInteger(10, value))
    return 0;
  return value * scale;
}

static std::string readLine(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().trim().str() : std::string();
}

HardwareDescription HardwareDescription::forCpu(const CpuTarget &target) {
  HardwareDescription hardware;
  hardware.vectorBits = target.vectorBits();
  hardware.vectorRegisters = target.vectorRegisters();
  hardware.threads = target.threads;
  hardware.hasFma = target.hasFeature("fma");
  hardware.cores = std::max(1u, std::thread::hardware_concurrency());
  // The caches are the machine's, whatever ISA subset the target uses.
  for (unsigned index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readLine(dir + "/type");
    if (type.empty())
      break;
    if (type == "Instruction")
      continue;
    int64_t bytes = readCacheBytes(dir + "/size");
    if (bytes <= 0)
      continue;
    std::string level = readLine(dir + "/level");
    if (level == "1")
      hardware.l1Bytes = bytes;
    else if (level == "2")
      hardware.l2Bytes = bytes;
    else if (level == "3")
      hardware.l3Bytes = bytes;
  }
  return hardware;
}
