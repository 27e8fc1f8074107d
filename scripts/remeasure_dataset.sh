#!/usr/bin/env bash
# Measures a shipped dataset's stale records again on this machine and
# rewrites the dataset: after a change to code generation, the records of
# the schedules it affects measured code tcl no longer generates. Whole
# tasks are measured again (latencies compare only within a task on one
# machine), and each new record replaces the stale ones of its schedule.
# Resumable: rerun the same command after a kill.
#
# Usage: scripts/remeasure_dataset.sh DATASET TARGET CUTOFF [TASK...]
#   DATASET  a data/*.jsonl.xz file; rewritten in place at the end
#   TARGET   the target whose records to measure again
#   CUTOFF   records created before this (YYYY-MM-DD[THH:MM[:SS]] UTC) are stale
#   TASK     task keys (default: every task with a stale record on TARGET)
# Environment: TCL_REMEASURE_DB (default build/remeasure-<dataset>.db),
#              TCL_DATASET_WORKERS (default: one per core),
#              TCL_BIN (tools directory, default $TCL_BUILD/bin).
#
# The register-tile fix of 2026-12-02T08:54 UTC (vectors wider than a register are
# split before instruction selection) made stale the tasks with register
# tiles 3 or 6 vectors wide; scripts/stale_register_tiles.py lists them:
#   scripts/remeasure_dataset.sh data/cpu-dataset.jsonl.xz x86_64:x86-64-v3:1t \
#     2026-12-02T08:54 $(scripts/stale_register_tiles.py tasks data/cpu-dataset.jsonl.xz \
#     x86_64:x86-64-v3:1t --lanes=8)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

if [ $# -lt 3 ]; then
  sed -n 's/^# \{0,1\}//;9,13p' "${BASH_SOURCE[0]}" >&2
  exit 1
fi
dataset="$1" target="$2" cutoff="$3"
shift 3
bin="${TCL_BIN:-$TCL_BUILD/bin}"
name="$(basename "$dataset" .jsonl.xz)"
database="${TCL_REMEASURE_DB:-$TCL_BUILD/remeasure-$name.db}"
tasks=""
if [ $# -gt 0 ]; then tasks="--tasks=$(IFS=,; echo "$*")"; fi

# A resumed run keeps its database; a fresh one starts from the dataset.
if [ ! -f "$database" ]; then
  xz -dc "$dataset" | "$bin/tcl-db" import "$database" -
fi
"$bin/tcl-collect" --db="$database" --targets="$target" \
  --remeasure-before="$cutoff" $tasks --workers="${TCL_DATASET_WORKERS:-0}" \
  --max-measure-seconds=0.15 --onednn="$bin/tcl-onednn"
"$bin/tcl-db" summary "$database"
"$bin/tcl-db" export "$database" | xz -9 -T1 > "$dataset.new"
mv "$dataset.new" "$dataset"
ls -l "$dataset"
