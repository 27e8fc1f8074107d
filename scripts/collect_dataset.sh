#!/usr/bin/env bash
# Regenerates the shipped dataset, data/cpu-dataset.jsonl.xz: every task of
# seven zoo networks (weights as arguments), schedules drawn from each task's
# space and measured on two CPU targets of this machine, plus oneDNN
# baselines. Takes hours; safe to kill and rerun (it resumes).
#
# Usage: scripts/collect_dataset.sh [database]     (default build/dataset.db)
# Environment: TCL_DATASET_SCHEDULES (per task and target, default 120),
#              TCL_DATASET_ROUND (schedules per pair and round, default 20),
#              TCL_DATASET_TARGETS, TCL_DATASET_WORKERS (default: one per core),
#              TCL_DATASET_OUT (default data/cpu-dataset.jsonl.xz),
#              TCL_BIN (tools directory, default $TCL_BUILD/bin).
#
# The AVX-512 dataset, data/cpu-dataset-znver5.jsonl.xz, was collected on a
# Zen 5 machine (targets that use AVX-512 need one) with
#   TCL_DATASET_TARGETS=x86_64:znver5:1t TCL_DATASET_SCHEDULES=40 \
#   TCL_DATASET_ROUND=10 TCL_DATASET_OUT=data/cpu-dataset-znver5.jsonl.xz \
#   scripts/collect_dataset.sh build/dataset-znver5.db
# Both predate the register-tile fix of 2026-12-02. The Zen 3 dataset's
# stale tasks were measured again (on Zen 2) with scripts/remeasure_dataset.sh;
# the Zen 5 dataset's stale records were dropped with
#   scripts/stale_register_tiles.py drop data/cpu-dataset-znver5.jsonl.xz \
#     x86_64:znver5:1t --lanes=16
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

database="${1:-$TCL_BUILD/dataset.db}"
bin="${TCL_BIN:-$TCL_BUILD/bin}"
models_dir="$TCL_BUILD/dataset-models"
networks=resnet50,mobilenet_v2,bert_base,resnet18,vgg16,vit_b16,gpt2
targets="${TCL_DATASET_TARGETS:-x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t}"
out="${TCL_DATASET_OUT:-$TCL_ROOT/data/cpu-dataset.jsonl.xz}"

/usr/bin/python3 "$TCL_ROOT/python/tcl/zoo.py" --out "$models_dir" \
  --models "$networks" --weights args
models=()
for network in ${networks//,/ }; do models+=("$models_dir/$network.mlir"); done

"$bin/tcl-collect" "${models[@]}" --db="$database" --targets="$targets" \
  --schedules-per-task="${TCL_DATASET_SCHEDULES:-120}" --round-size="${TCL_DATASET_ROUND:-20}" \
  --workers="${TCL_DATASET_WORKERS:-0}" --max-measure-seconds=0.15 \
  --onednn="$bin/tcl-onednn"
"$bin/tcl-db" summary "$database"
"$bin/tcl-db" export "$database" | xz -9 -T1 > "$out"
ls -l "$out"
