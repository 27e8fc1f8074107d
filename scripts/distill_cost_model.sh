#!/usr/bin/env bash
# Regenerates a shipped distilled cost model, data/cost-model-<target>.tclm:
# the pre-trained CPU model (data/cost-model-cpu.tclm) distilled onto
# TARGET with tcl-train --distill, on every network of TARGET's records in
# the shipped datasets, with a replay of the targets the teacher knows. The
# tuner loads it by default for TARGET (and for x86_64:host on that CPU).
# Deterministic for given datasets and seed. Minutes.
#
# Usage: scripts/distill_cost_model.sh [TARGET [tcl-train options...]]
#        TARGET defaults to x86_64:znver5:1t, the AVX-512 target.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

target="${1:-x86_64:znver5:1t}"
shift || true
database="$TCL_BUILD/shipped-datasets.db"
rm -f "$database" "$database-wal" "$database-shm"
for dataset in "$TCL_ROOT"/data/cpu-dataset*.jsonl.xz; do
  xz -dc "$dataset" | tcl-db import "$database" -
done
output="$TCL_ROOT/data/cost-model-${target//:/-}.tclm"
tcl-train "$database" --model=mamba --seed=0 --new-target="$target" \
  --distill="$TCL_ROOT/data/cost-model-cpu.tclm" -o "$output" "$@"
ls -l "$output"
