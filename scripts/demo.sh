#!/usr/bin/env bash
# The main job on its embedded default: extract the tasks of the zoo's
# ResNet-50, run the whole network on this CPU checked against naive loops,
# then search the schedule space of its heaviest task a little (random legal
# schedules, each compiled and checked) next to oneDNN, and summarize the
# measured dataset shipped in data/.
# Usage: scripts/demo.sh [model.mlir] [entry]
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

tasks_dir="$TCL_BUILD/demo-tasks"
rm -rf "$tasks_dir"
tcl-opt "$model" --tcl-extract-tasks="outline-dir=$tasks_dir" -o /dev/null > /dev/null
heaviest="$(tcl-opt "$model" --tcl-extract-tasks=format=table | awk '$1 == "1" {print $3 "_" $2}')"
if [ -f "$tasks_dir/$heaviest.mlir" ]; then
  echo
  echo "== Schedule space of the heaviest task ($heaviest)"
  tcl-opt "$tasks_dir/$heaviest.mlir" --tcl-print-space
  echo
  echo "== 8 random legal schedules of it, each compiled in its own process and checked"
  tcl-run "$tasks_dir/$heaviest.mlir" --random-schedules=8 --check --repeats 5
  echo
  echo "== oneDNN on the same task"
  tcl-onednn "$tasks_dir/$heaviest.mlir" --repeats 5
fi

dataset="$TCL_ROOT/data/cpu-dataset.jsonl.xz"
if [ -f "$dataset" ]; then
  echo
  echo "== The measured dataset shipped with tcl ($dataset)"
  rm -f "$TCL_BUILD/shipped-dataset.db"*
  xz -dc "$dataset" | tcl-db import "$TCL_BUILD/shipped-dataset.db" -
  tcl-db summary "$TCL_BUILD/shipped-dataset.db"
fi
