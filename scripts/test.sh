#!/usr/bin/env bash
# Builds tcl and runs every test: lit (FileCheck, tools, Python bindings,
# end-to-end runs) and the GoogleTest unit tests through CTest. Ends with
# one summary line per suite; exits non-zero if anything failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"

log_dir="$TCL_BUILD/test-logs"
mkdir -p "$log_dir"

set +e
/usr/lib/llvm-22/bin/lit -sv --timeout 600 "$TCL_BUILD/test" 2>&1 | tee "$log_dir/lit.log"
lit_status=${PIPESTATUS[0]}
ctest --test-dir "$TCL_BUILD" --output-on-failure -j "$(nproc)" 2>&1 | tee "$log_dir/ctest.log"
ctest_status=${PIPESTATUS[0]}
set -e

# lit's summary lines look like "  Passed     : 83 (93.26%)".
count() {
  local n
  n=$(sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$log_dir/lit.log" | tail -1)
  echo "${n:-0}"
}
echo
echo "== tcl test summary"
echo "lit:        $(count Passed) passed, $(count Unsupported) unsupported," \
     "$(count 'Expectedly Failed') expectedly failed, $(count Failed) failed"
echo "unit tests: $(grep -E 'tests passed' "$log_dir/ctest.log" || echo 'no summary')"
if [ "$lit_status" -ne 0 ] || [ "$ctest_status" -ne 0 ]; then
  echo "FAILED (lit exit $lit_status, ctest exit $ctest_status)"
  exit 1
fi
echo "ALL PASSED"
