//===- Memory.cpp - Keeping freed memory in the process -------------------===//

#include "tcl/Support/Memory.h"

#include <malloc.h>

void tcl::keepFreedMemoryForReuse() {
  static bool configured = [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    return true;
  }();
  (void)configured;
}
