#!/usr/bin/env bash
# Regenerates the shipped dataset, data/cpu-dataset.jsonl.xz: every task of
# seven zoo networks (weights as arguments), schedules drawn from each task's
# space and measured on two CPU targets of this machine, plus oneDNN
# baselines. Takes hours; safe to kill and rerun (it resumes).
#
# Usage: scripts/collect_dataset.sh [database]     (default build/dataset.db)
# Environment: TCL_DATASET_SCHEDULES (per task and target, default 120),
#              TCL_DATASET_TARGETS, TCL_DATASET_WORKERS (default: one per core),
#              TCL_BIN (tools directory, default $TCL_BUILD/bin).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

database="${1:-$TCL_BUILD/dataset.db}"
bin="${TCL_BIN:-$TCL_BUILD/bin}"
models_dir="$TCL_BUILD/dataset-models"
networks=resnet50,mobilenet_v2,bert_base,resnet18,vgg16,vit_b16,gpt2
targets="${TCL_DATASET_TARGETS:-x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t}"

/usr/bin/python3 "$TCL_ROOT/python/tcl/zoo.py" --out "$models_dir" \
  --models "$networks" --weights args
models=()
for network in ${networks//,/ }; do models+=("$models_dir/$network.mlir"); done

"$bin/tcl-collect" "${models[@]}" --db="$database" --targets="$targets" \
  --schedules-per-task="${TCL_DATASET_SCHEDULES:-120}" --round-size=20 \
  --workers="${TCL_DATASET_WORKERS:-0}" --max-measure-seconds=0.15 \
  --onednn="$bin/tcl-onednn"
"$bin/tcl-db" summary "$database"
"$bin/tcl-db" export "$database" | xz -9 -T1 > "$TCL_ROOT/data/cpu-dataset.jsonl.xz"
ls -l "$TCL_ROOT/data/cpu-dataset.jsonl.xz"
