#!/usr/bin/env bash
# Runs every suite of `make test` against one build directory (its replayd
# and unit binaries). Prints one progress line per suite as it finishes
# (name, passed, failed, seconds) with its failures under it, and ends with
# the one line "N passed, N failed" over every test. A test node --test
# skipped (one that does not apply to the backend under test) is shown as a
# SKIP line and counted on a line of its own, never as passed.
#
# Suites: C unit binaries and shell suites (tests/sh) print PASS/FAIL lines;
# node --test suites are counted from their TAP summaries. The HTTP suite
# runs four files at a time (TEST_JOBS), beside the port's and the npm
# package's suites; the hostile suites two at a time. Every call() it makes is checked against
# docs/openapi.yaml (tests/contract), which is linted here too.
set -u
build=${1:?usage: tests/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
export REPLAYD="$root/$build/replayd" BUILD="$build" ROOT="$root"
out=$(mktemp)
seen=$(mktemp -d)
trap 'rm -rf "$out" "$seen"' EXIT
export REPLAYD_CONTRACT_SEEN="$seen"
passed=0
skipped=0
failed=0

# report NAME PASSED FAILED START_TIME: the progress line, and the totals.
report() {
  local secs
  secs=$(awk -v a="$4" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  printf '  %-36s %6d passed %4d failed %7s s\n' "$1" "$2" "$3" "$secs"
  passed=$((passed + $2))
  failed=$((failed + $3))
}

# run_lines NAME COMMAND...: a suite that prints PASS/FAIL lines. A non-zero
# exit without a FAIL line counts as one failure, shown with its last lines.
run_lines() {
  local name=$1 start=$EPOCHREALTIME rc
  shift
  (cd "$root" && "$@") >"$out" 2>&1
  rc=$?
  lines_summary "$name" "$start" "$out" "$rc"
}

# lines_summary NAME START FILE RC: the progress line of a finished
# PASS/FAIL-lines suite whose output is in FILE and exit status RC.
lines_summary() {
  local name=$1 start=$2 file=$3 rc=$4 p f
  p=$(grep -c '^PASS' "$file")
  f=$(grep -c '^FAIL' "$file")
  report "$name" "$p" $((f == 0 && rc != 0 ? 1 : f)) "$start"
  grep '^FAIL' "$file" | sed 's/^/    /'
  if [ "$f" -eq 0 ] && [ "$rc" -ne 0 ]; then
    echo "    FAIL $name: exited $rc"
    tail -15 "$file" | sed 's/^/      /'
  fi
}

# run_lines_pool JOBS PROGRAM...: PASS/FAIL-lines programs that share
# nothing (the unit binaries), JOBS at a time, a progress line as each ends.
run_lines_pool() {
  local jobs=$1 dir pid t k=0 rc
  shift
  dir=$(mktemp -d)
  declare -A name_of=() start_of=() file_of=()
  reap_lines() {
    rc=0
    wait -n -p pid "${!name_of[@]}" || rc=$?
    lines_summary "${name_of[$pid]}" "${start_of[$pid]}" "${file_of[$pid]}" "$rc"
    unset "name_of[$pid]"
  }
  for t in "$@"; do
    while [ "${#name_of[@]}" -ge "$jobs" ]; do reap_lines; done
    k=$((k + 1))
    (cd "$root" && exec "$t") >"$dir/$k" 2>&1 &
    pid=$!
    name_of[$pid]="unit/$(basename "$t")"
    start_of[$pid]=$EPOCHREALTIME
    file_of[$pid]="$dir/$k"
  done
  while [ "${#name_of[@]}" -gt 0 ]; do reap_lines; done
  rm -rf "$dir"
}

node_serial=""
if command -v node >/dev/null 2>&1 && node --test-concurrency=1 -e 0 >/dev/null 2>&1; then
  node_serial="--test-concurrency=1"
fi
# node_summary NAME START FILE: the progress line of a finished node --test
# run whose output is in FILE, with each failed test and its error.
node_summary() {
  local name=$1 start=$2 file=$3 p f s
  p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$file" | tail -1)
  f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$file" | tail -1)
  if [ -z "$p" ] || [ -z "$f" ]; then
    report "$name" 0 1 "$start"
    echo "    FAIL $name: node --test gave no summary"
    tail -20 "$file" | sed 's/^/      /'
    return
  fi
  report "$name" "$p" "$f" "$start"
  # A skipped test is neither passed nor failed: it is shown, so that a
  # missing tool never hides as a pass.
  s=$(sed -n 's/^# skipped \([0-9]*\)$/\1/p' "$file" | tail -1)
  if [ "${s:-0}" -gt 0 ]; then
    skipped=$((skipped + s))
    grep -E '^ *ok .* # SKIP' "$file" | head -10 | sed 's/^ */    SKIP /'
  fi
  if [ "$f" -gt 0 ]; then
    # Each failed test and its error block (the lines indented under "error:").
    awk '/^ *not ok/ { print; next }
         /^ *error: / { print; at = match($0, /[^ ]/); inside = 1; next }
         inside { if (match($0, /[^ ]/) > at) { print; next } inside = 0 }' "$file" |
      head -60 | sed 's/^/    /'
    # A file that failed outside any test (it threw or exited while loading)
    # says only "test failed": its cause is what it printed, which node
    # --test passes on as "# " lines.
    if grep -q "^ *error: 'test failed'" "$file"; then
      grep '^# ' "$file" | grep -vE '^# (Subtest: |(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [0-9.]+$)' |
        tail -20 | sed 's/^/      /'
    fi
  fi
}

# run_node NAME FILE...: node --test, counted from "# pass N" / "# fail N".
run_node() {
  local name=$1 start=$EPOCHREALTIME
  shift
  (cd "$root" && node --test $node_serial "$@") >"$out" 2>&1
  node_summary "$name" "$start" "$out"
}

# run_node_files PREFIX JOBS FILE...: one node --test per file, JOBS at a
# time (each file starts its own servers on their own ports and data
# dirs, and most of their time is spent waiting for runs to take their
# time); a progress line as each one finishes.
run_node_files() {
  local prefix=$1 jobs=$2 f entries=()
  shift 2
  for f in "$@"; do entries+=("$prefix/$(basename "$f" .test.mjs)=$f"); done
  run_node_pool "$jobs" "${entries[@]}"
}

# run_node_pool JOBS NAME=PATH...: node --test PATH (a file or a folder) for
# each, JOBS at a time, a progress line as each one finishes. The files not
# yet reaped are counted, not the running jobs, so that one which ended
# while another was being reaped is still summarized.
run_node_pool() {
  local jobs=$1 dir pid e k=0
  shift
  dir=$(mktemp -d)
  declare -A name_of=() start_of=() file_of=()
  reap() {
    wait -n -p pid "${!name_of[@]}"
    node_summary "${name_of[$pid]}" "${start_of[$pid]}" "${file_of[$pid]}"
    unset "name_of[$pid]"
  }
  for e in "$@"; do
    while [ "${#name_of[@]}" -ge "$jobs" ]; do reap; done
    k=$((k + 1))
    (cd "$root" && exec node --test $node_serial "${e#*=}") >"$dir/$k" 2>&1 &
    pid=$!
    name_of[$pid]=${e%%=*}
    start_of[$pid]=$EPOCHREALTIME
    file_of[$pid]="$dir/$k"
  done
  while [ "${#name_of[@]}" -gt 0 ]; do reap; done
  rm -rf "$dir"
}

# The generated: vector cases must be what the JavaScript port makes now.
vectors_generated() {
  if node vectors/port/generate.mjs --check; then
    echo "PASS vectors/port: generated cases are up to date with the port"
  else
    echo "FAIL vectors/port: make vectors would change the generated cases"
  fi
}

# The score log's unit vectors must be what their node:crypto script writes.
log_vectors() {
  if node tests/unit/log-vectors.mjs --check; then
    echo "PASS unit/log-vectors: tests/unit/data/log-vectors.json is up to date"
  else
    echo "FAIL unit/log-vectors: node tests/unit/log-vectors.mjs would change it"
  fi
}

echo "tests/run.sh $build"
# A real PostgreSQL server for the PostgreSQL backend's tests (the store's
# unit tests, the HTTP suite, the multi-node test), started here as an
# unprivileged user in a temporary directory and stopped at the end.
pgdir=$(mktemp -d)
pgurl=""
trap 'rm -rf "$out" "$seen"; "$here/pg/pg_stop.sh" "$pgdir/pg"; rm -rf "$pgdir"' EXIT
start=$EPOCHREALTIME
if pgurl=$("$here/pg/pg_start.sh" "$pgdir/pg" 2>"$out"); then
  export REPLAYD_TEST_PG=$pgurl
else
  pgurl=""
  report "pg/start" 0 1 "$start"
  echo "    FAIL pg: a PostgreSQL server could not be started (make deps-test installs postgresql)"
  tail -10 "$out" | sed 's/^/      /'
fi
# The unit binaries, two at a time (each is one process on its own data).
units=()
for t in "$build"/tests/*; do
  [ -x "$t" ] && units+=("$t")
done
[ "${#units[@]}" -eq 0 ] || run_lines_pool 2 "${units[@]}"
for s in "$here"/sh/*.sh; do
  [ -f "$s" ] || continue
  run_lines "sh/$(basename "$s" .sh)" bash "$s"
done
if command -v node >/dev/null 2>&1; then
  run_lines "vectors/generated" vectors_generated
  run_lines "unit/log-vectors" log_vectors
  run_lines "contract/openapi-lint" tests/contract/lint.sh
  # In one pool, TEST_JOBS at a time: the port's vectors, every vector
  # through the WebAssembly build (make wasm), the npm package (clients/js:
  # its backends agree, every game end to end against the real server, npm
  # pack), and the HTTP suite, one file each. The first ones mostly compute
  # and the HTTP files mostly wait for their runs' time to pass, so they
  # share the machine well.
  pool=("vectors/port=vectors/port/test/" "clients/js=clients/js/test/" "wasm/vectors=tests/wasm/")
  for f in "$here"/http/*.test.mjs; do pool+=("http/$(basename "$f" .test.mjs)=$f"); done
  run_node_pool "${TEST_JOBS:-4}" "${pool[@]}"
  # The same HTTP suite on the PostgreSQL backend (the server started
  # above): a representative subset in make test, all of it when PG_FULL=1
  # (make check); then the multi-node test (3 nodes on one database).
  if [ -n "$pgurl" ]; then
    if [ -n "${PG_FULL:-}" ]; then
      pgfiles=("$here"/http/*.test.mjs)
    else
      pgfiles=()
      # (the rest, fairplay, reverify, errors, admin, daily, ..., in make check)
      for f in flow boards durability moderation review; do pgfiles+=("$here/http/$f.test.mjs"); done
    fi
    REPLAYD_PG=$pgurl run_node_files http-pg "${TEST_JOBS:-4}" "${pgfiles[@]}"
    REPLAYD_PG=$pgurl run_node "pg/multinode" "$here"/pg/*.test.mjs
  fi
  run_lines "contract/coverage" node tests/contract/coverage.mjs "$seen"
  # Hostile traffic: short attacks here; HOSTILE_LONG=1 (make check) runs
  # them at full size. Many connections need file descriptors.
  ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  run_node_files hostile 2 "$here"/hostile/*.test.mjs
  # The web pages in real headless Chromium; setup.sh installs Debian's
  # chromium and playwright-core (npm ci) when missing.
  if bash "$here/browser/setup.sh" >"$out" 2>&1; then
    for f in "$here"/browser/*.test.mjs; do
      run_node "browser/$(basename "$f" .test.mjs)" "$f"
      # What the suite measured (printed, never asserted as timings).
      sed -n 's/^# \\\?# \(.*bytes transferred.*\)$/    \1/p' "$out"
    done
  else
    report "browser/setup" 0 1 "$EPOCHREALTIME"
    echo "    FAIL browser: chromium or playwright-core could not be installed"
    tail -10 "$out" | sed 's/^/      /'
  fi
else
  report "node" 0 1 "$EPOCHREALTIME"
  echo "    FAIL node: not installed (make deps-test installs it)"
fi
[ "$skipped" -eq 0 ] || echo "  ($skipped tests skipped, each shown as a SKIP line above: neither passed nor failed)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
