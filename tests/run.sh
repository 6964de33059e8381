#!/usr/bin/env bash
# Runs every test of the suite against one build directory and ends with
# the line "N passed, N failed". Each unit binary prints PASS/FAIL lines;
# shell suites under tests/sh print the same.
set -u
build=${1:?usage: tests/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for t in "$build"/tests/*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  if ! (cd "$root" && "$t") >>"$log" 2>&1; then
    grep -q "^FAIL" "$log" || echo "FAIL $name: exited non-zero" >>"$log"
    status=1
  fi
done
for s in "$here"/sh/*.sh; do
  [ -f "$s" ] || continue
  if ! REPLAYD="$root/$build/replayd" BUILD="$build" ROOT="$root" bash "$s" >>"$log" 2>&1; then
    echo "FAIL $(basename "$s"): exited non-zero" >>"$log"
  fi
done
grep -E "^(FAIL|SKIP)" "$log" || true
grep -E "^(PASS|FAIL|SKIP)" "$log" | sed 's/^/  /' >/dev/null
passed=$(grep -c "^PASS" "$log")
failed=$(grep -c "^FAIL" "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
