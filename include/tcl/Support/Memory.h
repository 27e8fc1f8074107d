//===- Memory.h - Keeping freed memory in the process -----------*- C++ -*-===//

#ifndef TCL_SUPPORT_MEMORY_H
#define TCL_SUPPORT_MEMORY_H

namespace tcl {

/// Makes glibc keep freed memory in the heap instead of returning it to
/// the kernel. Blocks over 128 KiB are otherwise fresh mmap pages on every
/// allocation, and touching a fresh page costs ~16 us on these VMs (FACTS):
/// compiled kernels that malloc packed panels per call, and LibTorch, which
/// allocates every intermediate tensor per batch, ran 1.4x to 10x slower.
/// Idempotent; what a serving runtime does.
void keepFreedMemoryForReuse();

} // namespace tcl

#endif // TCL_SUPPORT_MEMORY_H
