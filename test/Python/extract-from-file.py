# RUN: %python %s %S/../Task/Inputs/all-static.mlir %zoo/resnet50_block.mlir | FileCheck %s

import json
import subprocess
import sys

import tcl

# extract_tasks_from_file reads the file and names it in the locations.
report = tcl.extract_tasks_from_file(sys.argv[1])
# CHECK: matmul 1 all-static.mlir:3:8
task = report["tasks"][0]
print(task["kind"], task["weight"], task["locations"][0].split("/")[-1])

# The Python report equals tcl-opt's, field for field.
path = sys.argv[2]
cli = json.loads(subprocess.run(["tcl-opt", path, "--tcl-extract-tasks"],
                                check=True, capture_output=True, text=True).stdout)
py = tcl.extract_tasks_from_file(path)
# CHECK-NEXT: same report: True, 4 conv2d
print(f"same report: {cli == py}, {py['summary']['occurrences_by_kind']['conv2d']} conv2d")

# A missing file is the usual OSError.
try:
    tcl.extract_tasks_from_file(sys.argv[1] + ".missing")
except FileNotFoundError:
    # CHECK-NEXT: FileNotFoundError
    print("FileNotFoundError")
