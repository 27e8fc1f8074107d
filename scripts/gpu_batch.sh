#!/bin/bash
# Builds the GPU measurement batch here, where LLVM and MLIR are: random
# legal schedules of every task of the zoo's ResNet-50 and BERT-base,
# compiled to PTX for sm_90 with their launch configs, plus the tcl-runner
# sources, packed as gpu-run/batch.tar.gz. Then, on the GPU host (the
# device tool runs it in a copy of this tree):
#   bash scripts/h200_run.sh        # results land in $OUT (or gpu-run/out)
#
# usage: scripts/gpu_batch.sh [COUNT_PER_TASK] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-65}
BUILD=${2:-build}
rm -rf gpu-run/batch && mkdir -p gpu-run/batch
for network in resnet50 bert_base; do
  "$BUILD/bin/tcl-opt" "$BUILD/zoo/$network.mlir" \
    --tcl-gpu-batch="count=$COUNT seed=0 target=nvvm:sm_90 network=$network output-dir=gpu-run/batch/$network" \
    -o /dev/null
done
tar -C gpu-run -czf gpu-run/batch.tar.gz batch
rm -rf gpu-run/batch
ls -la gpu-run/batch.tar.gz
