#!/usr/bin/env bash
# The main job on its embedded default: tune the zoo's ResNet-50 on this CPU
# with the pre-trained Mamba cost model shipped in data/ and the RDU sampler,
# then run the tuned network end to end (checked against naive loops) beside
# the default schedule and oneDNN, and print the summary table. About ten
# minutes on 2 cores; rerunning resumes from the tuning database.
# Usage: scripts/demo.sh [model.mlir] [trials]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

model="${1:-$TCL_BUILD/zoo/resnet50.mlir}"
trials="${2:-500}"
network="$(basename "$model" .mlir)"

echo
echo "== Tunable tasks of $model"
tcl-opt "$model" --tcl-extract-tasks=format=table

echo
echo "== Tuning $network: $trials candidates (database $TCL_BUILD/demo-tuning.db)"
tcl-opt "$model" \
  --tcl-tune="target=x86_64:host:1t trials=$trials batch=8 db=$TCL_BUILD/demo-tuning.db network=$network end-to-end=true" \
  --tcl-export-schedules="$TCL_BUILD/demo-schedules.mlir" \
  -o "$TCL_BUILD/demo-tuned.mlir"
echo
echo "Tuned module: $TCL_BUILD/demo-tuned.mlir"
echo "Schedules as a Transform library: $TCL_BUILD/demo-schedules.mlir"
