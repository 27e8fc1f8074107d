//===- Duration.cpp - Durations as progress lines show them ---------------===//

#include "tcl/Support/Duration.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdint>

std::string tcl::formatDuration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e7)
    return "?";
  int64_t total = static_cast<int64_t>(seconds);
  if (total >= 3600)
    return llvm::formatv("{0}h{1:2}m", total / 3600, (total % 3600) / 60);
  return llvm::formatv("{0}m{1:2}s", total / 60, total % 60);
}
