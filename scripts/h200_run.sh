#!/bin/bash
# The GPU half of a measurement: runs on the GPU host (which has the CUDA
# toolkit and driver but no LLVM or MLIR) in a copy of this tree holding
# gpu-run/batch.tar.gz from scripts/gpu_batch.sh. Builds tcl-runner with
# nvcc, runs every candidate of the batch (checked against cuBLAS or the
# task's reference kernel), times cuBLAS on the GEMM tasks and cuDNN on the convolutions, and writes the
# JSON Lines results, the build logs and tasks, and the GPU's description to
# $OUT; scripts/import_gpu_results.py turns them into database records.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-run/out}
mkdir -p "$OUT"
CUDNN=""
if [ -e "$(dirname "$(command -v nvcc)")/../include/cudnn.h" ]; then
  CUDNN="-DTCL_RUNNER_CUDNN -lcudnn"
fi
nvcc -O2 -o gpu-run/tcl-runner tools/tcl-runner/tcl-runner.cpp -lcuda -lcublas $CUDNN
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > "$OUT/gpu.csv" || true
tar -C gpu-run -xzf gpu-run/batch.tar.gz
for network in gpu-run/batch/*/; do
  name=$(basename "$network")
  gpu-run/tcl-runner "$network" -o "$OUT/$name.jsonl" --warmup 3 --repeats 20 --baselines
  cp "$network/build.jsonl" "$OUT/$name-build.jsonl"
  cp "$network/tasks.jsonl" "$OUT/$name-tasks.jsonl"
done
ls -la "$OUT"
