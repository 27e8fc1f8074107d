//===- Machine.cpp - The physical machine a measurement ran on ------------===//

#include "tcl/Target/Machine.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Host.h"

#include <fstream>
#include <thread>

using namespace tcl;

MachineInfo tcl::currentMachine() {
  MachineInfo machine;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    llvm::StringRef text(line);
    if (!text.starts_with("model name"))
      continue;
    machine.cpuModel = text.split(':').second.trim().str();
    break;
  }
  machine.hostCpu = llvm::sys::getHostCPUName().str();
  if (machine.cpuModel.empty())
    machine.cpuModel = "unknown " + machine.hostCpu;
  machine.cores = std::thread::hardware_concurrency();
  return machine;
}

std::string MachineInfo::label() const {
  return cpuModel + " (" + hostCpu + ", " + std::to_string(cores) + " cores)";
}
