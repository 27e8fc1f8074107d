# RUN: %python %s | FileCheck %s

import tcl

MODULE = """
func.func @mlp(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%y : tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = linalg.matmul ins(%x, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%y : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
func.func @dynamic(%a: tensor<?xf32>, %e: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.exp ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""

# extract_tasks returns the same report as tcl-opt --tcl-extract-tasks, as a
# dict; locations use the given file name.
report = tcl.extract_tasks(MODULE, "model.mlir")
# CHECK: ['summary', 'tasks', 'unsupported']
print(sorted(report))
# CHECK-NEXT: tasks=1 occurrences=2 unsupported=1 flops=16384
s = report["summary"]
print(f"tasks={s['num_tasks']} occurrences={s['num_occurrences']} "
      f"unsupported={s['num_unsupported']} flops={s['total_flops']:.0f}")
task = report["tasks"][0]
# CHECK-NEXT: matmul linalg.matmul nn [8, 16, 32] 2 ['model.mlir:3:8', 'model.mlir:4:8']
print(task["kind"], task["op"], task["transpose"], task["loop_bounds"],
      task["weight"], task["locations"])
# CHECK-NEXT: 16 True
print(len(task["key"]), all(c in "0123456789abcdef" for c in task["key"]))
# CHECK-NEXT: linalg.exp model.mlir:8:8 dynamic shapes; tcl tunes static shapes only
u = report["unsupported"][0]
print(u["op"], u["location"], u["reason"])

# Without a file name, locations say <string>.
# CHECK-NEXT: ['<string>:3:8', '<string>:4:8']
print(tcl.extract_tasks(MODULE)["tasks"][0]["locations"])

# An empty module is an empty report.
# CHECK-NEXT: {'num_occurrences': 0, 'num_tasks': 0, 'num_unsupported': 0, 'occurrences_by_kind': {}, 'total_flops': 0} [] []
empty = tcl.extract_tasks("")
print(empty["summary"], empty["tasks"], empty["unsupported"])
