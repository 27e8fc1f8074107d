#!/bin/bash
# Draws N random legal schedules from a model's CPU space, applies each with
# tcl-run and checks the outputs against the naive-loops reference.
#   random-schedules.sh MODEL.mlir N WORKDIR [ENTRY]
# Prints one line per schedule and a summary; exits 1 if any failed.
set -u
model=$1 count=$2 work=$3 entry=${4:-forward}
mkdir -p "$work"
tcl-opt "$model" --tcl-cpu-space="output=$work/space.mlir" -o /dev/null || exit 1
failed=0
for seed in $(seq 1 "$count"); do
  schedule="$work/schedule-$seed.mlir"
  if ! tcl-opt "$work/space.mlir" --tcl-concretize="seed=$seed" -o "$schedule"; then
    echo "seed $seed: FAILED to concretize"; failed=$((failed + 1)); continue
  fi
  # A candidate compile gets a time limit (FACTS: some pattern sets do not
  # terminate).
  if timeout 300 tcl-run "$model" --entry="$entry" --schedule="$schedule" \
      --check --warmup=0 --repeats=1 > "$work/run-$seed.txt" 2>&1 &&
     ! grep -q DIFFERS "$work/run-$seed.txt"; then
    echo "seed $seed: ok"
  else
    echo "seed $seed: FAILED"; sed 's/^/    /' "$work/run-$seed.txt" | head -20
    failed=$((failed + 1))
  fi
done
echo "random schedules: $count checked, $failed failed"
[ "$failed" -eq 0 ]
