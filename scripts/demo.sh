#!/usr/bin/env bash
# The main job on its embedded default: extract the tasks of the zoo's
# ResNet-50 and run the whole network on this CPU, checked against naive
# loops. Usage: scripts/demo.sh [model.mlir] [entry]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

model="${1:-$TCL_BUILD/zoo/resnet50.mlir}"
entry="${2:-forward}"

echo
echo "== Tunable tasks of $model"
tcl-opt "$model" --tcl-extract-tasks=format=table

echo
echo "== End to end on this CPU (default schedule vs. naive-loops reference)"
tcl-run "$model" --entry "$entry" --warmup 1 --repeats 5 --check \
  --json "$TCL_BUILD/demo-run.json"
echo "(results also in $TCL_BUILD/demo-run.json)"
