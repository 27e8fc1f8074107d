//===- tcl-runner-disabled.cpp - tcl-runner without the CUDA toolkit ------===//
//
// Built instead of tcl-runner.cpp when CMake finds no CUDA toolkit, so that
// the tool exists everywhere and says why it cannot run, instead of being
// silently absent.
//
//===----------------------------------------------------------------------===//

#include <cstdio>

int main() {
  std::fprintf(stderr,
               "tcl-runner: this build has no GPU runner: CMake found no CUDA "
               "toolkit (cuda.h, libcuda, cuBLAS) when tcl was configured. "
               "Install the toolkit and reconfigure, or build the runner on "
               "the GPU host: nvcc -O2 -o tcl-runner "
               "tools/tcl-runner/tcl-runner.cpp -lcuda -lcublas\n");
  return 2;
}
