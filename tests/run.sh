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
# node --test suites (the JavaScript port's vectors, the HTTP integration
# tests): their summary lines are added to the count.
run_node() {
  local label=$1; shift
  local out
  out=$(cd "$root" && REPLAYD="$root/$build/replayd" node --test $node_serial "$@" 2>&1)
  last_node_out=$out
  local p f
  p=$(printf '%s\n' "$out" | sed -n 's/^# pass \([0-9]*\)$/\1/p' | tail -1)
  f=$(printf '%s\n' "$out" | sed -n 's/^# fail \([0-9]*\)$/\1/p' | tail -1)
  if [ -z "$p" ] || [ -z "$f" ]; then
    echo "FAIL $label: node --test gave no summary" >>"$log"
    printf '%s\n' "$out" | tail -20 >>"$log"
    return
  fi
  node_passed=$((node_passed + p))
  node_failed=$((node_failed + f))
  if [ "$f" -gt 0 ]; then
    printf '%s\n' "$out" | grep -E "^not ok|# Subtest|Error|expected|actual" | head -40 >>"$log"
    echo "FAIL $label: $f node tests failed" >>"$log"
    node_failed=$((node_failed - 1))
  fi
}
node_passed=0
node_failed=0
# One test file at a time where this node knows how (20.10 on; Debian 12's
# node 18 runs files in parallel, which the tests tolerate: each starts its
# own server on its own port and data dir).
node_serial=""
if command -v node >/dev/null 2>&1 && node --test-concurrency=1 -e 0 >/dev/null 2>&1; then
  node_serial="--test-concurrency=1"
fi
if command -v node >/dev/null 2>&1; then
  run_node "vectors/port" vectors/port/test/
  if (cd "$root" && node vectors/port/generate.mjs --check) >>"$log" 2>&1; then
    echo "PASS vectors/port: generated cases are up to date with the port" >>"$log"
  else
    echo "FAIL vectors/port: make vectors would change the generated cases" >>"$log"
  fi
  [ -d "$here/http" ] && run_node "tests/http" "$here"/http/*.test.mjs
  # hostile traffic (issue 12): short attacks; HOSTILE_LONG=1 (make check)
  # runs them at full size. Many connections need file descriptors.
  ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  [ -d "$here/hostile" ] && run_node "tests/hostile" "$here"/hostile/*.test.mjs
  # The web pages in real headless Chromium; setup.sh installs Debian's
  # chromium and playwright-core (npm ci) when missing.
  if [ -d "$here/browser" ]; then
    echo "  tests/browser: the web pages in headless Chromium" >&2
    if bash "$here/browser/setup.sh" >>"$log"; then
      run_node "tests/browser" "$here"/browser/*.test.mjs
      # What the suite measured (printed, never asserted as timings).
      printf '%s\n' "$last_node_out" | sed -n 's/^# \\\?# \(.*bytes transferred.*\)$/    \1/p' >&2
    else
      echo "FAIL tests/browser: chromium or playwright-core could not be installed" >>"$log"
    fi
  fi
else
  echo "FAIL node: not installed (make deps installs it)" >>"$log"
fi
grep -E "^(FAIL|SKIP)" "$log" || true
grep -E "^(PASS|FAIL|SKIP)" "$log" | sed 's/^/  /' >/dev/null
passed=$(( $(grep -c "^PASS" "$log") + node_passed ))
failed=$(( $(grep -c "^FAIL" "$log") + node_failed ))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
