# RUN: %python %s | FileCheck %s

import tcl

# CHECK: tcl version {{[0-9]+\.[0-9]+\.[0-9]+}}
# CHECK-NEXT: built with LLVM 22.{{[0-9]+\.[0-9]+}} and MLIR 22
print(tcl.version(), end="")
# CHECK-NEXT: ['extract_tasks', 'extract_tasks_from_file', 'version']
print(sorted(tcl.__all__))
