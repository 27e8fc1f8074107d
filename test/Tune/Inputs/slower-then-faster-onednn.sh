#!/bin/sh
# Stands in for tcl-onednn: writes its results file (--json=FILE) with 2 ms a
# sample for the first two calls and 1 ms after, counting the calls in the
# file $ONEDNN_CALLS.
calls=$(cat "$ONEDNN_CALLS" 2>/dev/null || echo 0)
echo $((calls + 1)) > "$ONEDNN_CALLS"
for argument; do
  case $argument in --json=*) json=${argument#--json=} ;; esac
done
if [ "$calls" -lt 2 ]; then seconds=0.002; else seconds=0.001; fi
echo "{\"primitive\":\"fake\",\"samples_s\":[$seconds,$seconds,$seconds]}" > "$json"
