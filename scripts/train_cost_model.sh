#!/usr/bin/env bash
# Regenerates the pre-trained CPU cost model, data/cost-model-cpu.tclm: a
# Mamba model trained with tcl-train on every network of the shipped dataset
# (data/cpu-dataset.jsonl.xz), 10% of each task's records kept for early
# stopping. Deterministic for a given dataset and seed. Minutes.
#
# Usage: scripts/train_cost_model.sh [tcl-train options...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

database="$TCL_BUILD/shipped-dataset.db"
rm -f "$database" "$database-wal" "$database-shm"
xz -dc "$TCL_ROOT/data/cpu-dataset.jsonl.xz" | tcl-db import "$database" -
tcl-train "$database" --model=mamba --seed=0 -o "$TCL_ROOT/data/cost-model-cpu.tclm" "$@"
ls -l "$TCL_ROOT/data/cost-model-cpu.tclm"
