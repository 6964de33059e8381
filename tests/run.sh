#!/usr/bin/env bash
# Runs the suites of `make test` against one build directory (its replayd
# and unit binaries). Prints one progress line per file or suite as it
# finishes (name, passed, failed, seconds) with its failures under it, and
# ends with the one line "N passed, N failed" over every test. A test node
# --test skipped (one that does not apply to the backend under test) is
# shown as a SKIP line and counted on a line of its own, never as passed.
#
# Jobs: C unit binaries and shell suites (tests/sh) print PASS/FAIL lines;
# node --test files are counted from their TAP summaries. The unit
# binaries run two at a time; then one pool runs everything else but the
# attacks, six at a time (TEST_JOBS), the long jobs first (usual_s below):
# the shell suites one at a time, the port's and the npm package's suites,
# every HTTP file, those on PostgreSQL, the multi-node files one at a time
# and the browser files one at a time; then the hostile files, two at a
# time beside nothing else. Every call() they make is checked against
# docs/openapi.yaml (tests/contract), which is linted here.
#
# Sanitized (TEST_SANITIZED=1, make check): the jobs that run no C of this
# build (the JavaScript port, the WebAssembly build, the generated vectors,
# the lints) are make test's alone; the run names them on one line and
# counts them neither passed nor failed.
#
# Bounds. Every job runs in its own process group (setsid) under a time
# limit: TEST_TIMEOUT_S (default 300) or its own longer one (limit_of
# below), each times TEST_TIMEOUT_FACTOR (make check sets 3: ASan). A job
# past its limit is killed with everything it started (its group, and any
# process carrying its environment marker, which a child that left the
# group still carries), counted as one failure, and shown with its last
# lines. The whole run is bounded by TEST_TOTAL_TIMEOUT_S (default 2400,
# times the factor): past it, what runs is killed and what has not started
# is counted failed. While anything runs a line comes at least every 30 s
# naming it. Interrupted (INT, TERM, HUP), the run kills every job and
# stops its PostgreSQL server; killed outright (KILL), a watcher in its own
# session does the same as soon as this shell is gone.
#
# Selection: T (or TESTS) takes names as the progress lines print them
# (http/flow, unit/test_store, hostile/slow_clients), several separated by
# spaces, and rooms (http, unit, sh, ...): a name is run when it equals a
# word of T or starts with the word and a slash. contract/coverage (which
# needs every route the whole suite calls) runs only without T.
# TEST_HTTP_DIR replaces tests/http (the harness's own test uses it).
set -u
build=${1:?usage: tests/run.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
export REPLAYD="$root/$build/replayd" BUILD="$build" ROOT="$root"
selected=${T:-${TESTS:-}}
http_dir=${TEST_HTTP_DIR:-$here/http}
factor=${TEST_TIMEOUT_FACTOR:-1}
default_limit=$(( ${TEST_TIMEOUT_S:-300} * factor ))
total_limit=$(( ${TEST_TOTAL_TIMEOUT_S:-2400} * factor ))
# The few long jobs, in seconds before the factor (their usual time on a
# quiet 2-core machine is a third of this or less).
# The usual time of the long jobs on a quiet 2-core machine, in seconds:
# the main pool starts them first, so that it never ends on one alone.
declare -A usual_s=(
  [http/newaccount]=195 [http-pg/newaccount]=197 [pg/rolling]=154 [http/fairplay_signals]=124
  [http/records]=89 [http-pg/identity]=79 [http/identity]=76 [pg/multinode]=63 [http/parallel]=60
  [http/fairplay]=60 [clients/js]=55 [vectors/port]=51 [http/draws]=50 [http-pg/twins]=48
  [http/generated_games]=47 [http/twins]=42 [browser/console]=34 [browser/adapters]=33
  [http/think_time]=31 [browser/visitor]=23 [sh/harness]=22 [sh/conform]=21 [unit/test_store]=21
)
declare -A limit_of=(
  [vectors/port]=900 [wasm/vectors]=900 [clients/js]=600 [pg/multinode]=600 [pg/rolling]=600
  [unit/test_store]=600 [sh/install]=600 [sh/new_game]=600 [sh/conform]=600
  [http/newaccount]=600 [http-pg/newaccount]=600 [http/identity]=600 [http-pg/identity]=600
)

tmp=$(mktemp -d)
out="$tmp/out"
seen="$tmp/seen"
mkdir -p "$seen" "$tmp/jobs"
export REPLAYD_CONTRACT_SEEN="$seen"
# Every process this run starts carries this variable (each job's also one
# of its own), so that one which left its process group is still found.
run_id="$$_$RANDOM$RANDOM"
run_mark="REPLAYD_TEST_RUN_${run_id}=1"
export "REPLAYD_TEST_RUN_${run_id}=1"
passed=0
skipped=0
failed=0
started_at=$EPOCHREALTIME
last_line=$EPOCHREALTIME

# say LINE...: prints, and remembers when (for the 30 s heartbeat).
say() {
  printf '%s\n' "$@"
  last_line=$EPOCHREALTIME
}

# secs_since START: seconds since START (an EPOCHREALTIME), one decimal.
secs_since() {
  awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}

# report NAME PASSED FAILED START_TIME: the progress line, and the totals.
report() {
  say "$(printf '  %-36s %6d passed %4d failed %7s s' "$1" "$2" "$3" "$(secs_since "$4")")"
  passed=$((passed + $2))
  failed=$((failed + $3))
}

# sweep MARK: kills (KILL) every process whose environment holds MARK
# ("NAME=1"), other than this shell.
sweep() {
  local pids p
  pids=$(grep -lzx -- "$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
  for p in $pids; do
    [ "$p" = "$$" ] || kill -KILL "$p" 2>/dev/null
  done
}

# lines_summary NAME START FILE RC: the progress line of a finished
# PASS/FAIL-lines job whose output is in FILE and exit status RC. A
# non-zero exit without a FAIL line counts as one failure, with its last lines.
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
  # What the browser files measured (printed, never asserted as timings).
  case $name in browser/*) sed -n 's/^# \\\?# \(.*bytes transferred.*\)$/    \1/p' "$file" ;; esac
}

# ------------------------------------------------------------------ jobs
# A job is a name (as its progress line prints it), a kind (lines: PASS/FAIL
# lines; node: a node --test TAP summary) and a command run by bash -c in
# the tree's root. The lists below are queued in order; run_pool runs one.
declare -A kind_of=() cmd_of=()
node_serial=""
if command -v node >/dev/null 2>&1 && node --test-concurrency=1 -e 0 >/dev/null 2>&1; then
  node_serial="--test-concurrency=1"
fi
# names WORD NAME: whether a word of T names NAME (itself, or its room).
names() {
  local w=${1%/}
  [ "$2" = "$w" ] || [ "${2#"$w"/}" != "$2" ]
}
# wanted NAME: whether T selects NAME (everything, without T).
wanted() {
  local w
  [ -z "$selected" ] && return 0
  for w in $selected; do names "$w" "$1" && return 0; done
  return 1
}
all_names=()
# job NAME KIND COMMAND: defines a job; the name goes to all_names.
job() {
  kind_of[$1]=$2
  cmd_of[$1]=$3
  all_names+=("$1")
}
# node_job NAME FILE [pg]: a node --test file; with pg, on the PostgreSQL
# server this run started (REPLAYD_TEST_PG, once it is up).
node_job() {
  job "$1" node "${3:+REPLAYD_PG=\$REPLAYD_TEST_PG }exec node --test $node_serial $(printf '%q' "$2")"
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
export -f vectors_generated log_vectors

units=() shs=() pool=() pg_https=() pg_nodes=() hostiles=() browsers=()
for t in "$build"/tests/*; do
  [ -x "$t" ] || continue
  n="unit/$(basename "$t")"; job "$n" lines "exec $(printf '%q' "$root/$t")"; units+=("$n")
done
for s in "$here"/sh/*.sh; do
  [ -f "$s" ] || continue
  n="sh/$(basename "$s" .sh)"; job "$n" lines "exec bash $(printf '%q' "$s")"; shs+=("$n")
done
job vectors/generated lines vectors_generated
job unit/log-vectors lines log_vectors
job contract/openapi-lint lines "exec tests/contract/lint.sh"
# No test runs a program synchronously (tests/lint/sync_spawns.mjs says why).
job lint/sync_spawns lines "exec node tests/lint/sync_spawns.mjs"
# The main pool's node files (see "the order" below): the port's vectors,
# every vector through the WebAssembly build (make wasm), the npm package
# (clients/js: its backends agree, every game end to end against the real
# server, npm pack), and the HTTP suite, one file each. The first ones
# mostly compute and the HTTP files mostly wait for their runs' time.
node_job vectors/port vectors/port/test/; pool+=(vectors/port)
node_job clients/js clients/js/test/; pool+=(clients/js)
node_job wasm/vectors tests/wasm/; pool+=(wasm/vectors)
for f in "$http_dir"/*.test.mjs; do
  [ -f "$f" ] || continue
  n="http/$(basename "$f" .test.mjs)"; node_job "$n" "$f"; pool+=("$n")
done
# The same HTTP suite on the PostgreSQL backend: a representative subset in
# make test (fairplay, reverify, errors, admin, daily, ... in make check),
# all of it when PG_FULL=1; then the multi-node test (3 nodes, one database).
if [ -n "${PG_FULL:-}" ]; then
  pg_http=("$http_dir"/*.test.mjs)
else
  pg_http=()
  for f in flow boards durability moderation review admin_filters identity newaccount twins batch_order; do pg_http+=("$http_dir/$f.test.mjs"); done
fi
for f in "${pg_http[@]}"; do
  [ -f "$f" ] || continue
  n="http-pg/$(basename "$f" .test.mjs)"; node_job "$n" "$f" pg; pg_https+=("$n")
done
for f in "$here"/pg/*.test.mjs; do
  [ -f "$f" ] || continue
  n="pg/$(basename "$f" .test.mjs)"; node_job "$n" "$f" pg; pg_nodes+=("$n")
done
for f in "$here"/hostile/*.test.mjs; do
  [ -f "$f" ] || continue
  n="hostile/$(basename "$f" .test.mjs)"; node_job "$n" "$f"; hostiles+=("$n")
done
for f in "$here"/browser/*.test.mjs; do
  [ -f "$f" ] || continue
  n="browser/$(basename "$f" .test.mjs)"; node_job "$n" "$f"; browsers+=("$n")
done
job contract/coverage lines "exec node tests/contract/coverage.mjs $(printf '%q' "$seen")"

# ------------------------------------------------------------- the runner
# per running job, by its pid: name, start, output file, the second it is
# due to end by, its number and limit, and why it was killed (once it was)
declare -A name_of=() start_of=() file_of=() limit_at=() num_of=() limit_s=() why_of=()
ticker=""
over=""  # set once the whole run is past its limit
k=0

# launch NAME: starts a job in its own session and process group, with its
# own environment marker, output to a file of its own.
launch() {
  local name=$1 limit=$(( ${limit_of[$1]:-0} * factor )) pid
  [ "$limit" -ge "$default_limit" ] || limit=$default_limit
  k=$((k + 1))
  (cd "$root" && exec env "REPLAYD_TEST_JOB_${run_id}_$k=1" setsid bash -c "${cmd_of[$name]}") \
    >"$tmp/jobs/$k" 2>&1 </dev/null &
  pid=$!
  name_of[$pid]=$name
  start_of[$pid]=$EPOCHREALTIME
  file_of[$pid]="$tmp/jobs/$k"
  limit_at[$pid]=$(( ${EPOCHREALTIME%.*} + limit ))
  num_of[$pid]=$k
  limit_s[$pid]=$limit
}

# kill_job PID WHY: kills a job's group and whatever carries its marker.
kill_job() {
  local pid=$1
  kill -KILL -- "-$pid" 2>/dev/null
  sweep "REPLAYD_TEST_JOB_${run_id}_${num_of[$pid]}=1"
  why_of[$pid]=$2
}

# finish PID RC: the progress line of a job that ended, with its failures.
finish() {
  local pid=$1 rc=$2 name=${name_of[$1]} why=${why_of[$1]:-}
  # what it left behind in its group ends with it
  kill -KILL -- "-$pid" 2>/dev/null
  if [ -n "$why" ]; then
    report "$name" 0 1 "${start_of[$pid]}"
    echo "    FAIL $name: $why; its last lines:"
    tail -15 "${file_of[$pid]}" | sed 's/^/      /'
  elif [ "${kind_of[$name]}" = node ]; then
    node_summary "$name" "${start_of[$pid]}" "${file_of[$pid]}"
  else
    lines_summary "$name" "${start_of[$pid]}" "${file_of[$pid]}" "$rc"
  fi
  rm -f "${file_of[$pid]}"
  unset "name_of[$pid]" "start_of[$pid]" "file_of[$pid]" "limit_at[$pid]" "num_of[$pid]" \
    "limit_s[$pid]" "why_of[$pid]"
}

# collect PID: waits for a job that is gone or killed (a plain wait finds
# its status even once bash has dropped it from its job table) and finishes it.
collect() {
  local rc=0
  wait "$1" 2>/dev/null || rc=$?
  finish "$1" "$rc"
}

# tick: every 2 s while jobs run: kills the jobs past their limit (all of
# them once the whole run is), collects any that ended unseen, and names
# what runs when 30 s went by without a line.
tick() {
  local now=${EPOCHREALTIME%.*} pid names=()
  if [ -z "$over" ] && [ "$now" -ge "$(( ${started_at%.*} + total_limit ))" ]; then
    over=1
    say "  the whole run is past its limit of $total_limit s (TEST_TOTAL_TIMEOUT_S): stopping"
  fi
  for pid in "${!name_of[@]}"; do
    [ -z "${why_of[$pid]:-}" ] || continue  # already killed
    if [ -n "$over" ]; then
      kill_job "$pid" "the whole run passed its limit of $total_limit s"
      collect "$pid"
    elif [ "$now" -ge "${limit_at[$pid]}" ]; then
      kill_job "$pid" "killed at its limit of ${limit_s[$pid]} s"
      collect "$pid"
    elif ! kill -0 "$pid" 2>/dev/null; then
      collect "$pid"
    fi
  done
  if [ "$(awk -v a="$last_line" -v b="$EPOCHREALTIME" 'BEGIN { print (b - a >= 30) }')" = 1 ]; then
    for pid in "${!name_of[@]}"; do
      names+=("${name_of[$pid]} ($(( now - ${start_of[$pid]%.*} )) s)")
    done
    say "  ... $(( now - ${started_at%.*} )) s in, still running: ${names[*]}"
  fi
}

# reap: waits for a job to end (or a tick) and summarizes it.
reap() {
  local pid="" rc=0
  [ -n "$ticker" ] || { sleep 2 & ticker=$!; }
  wait -n -p pid "${!name_of[@]}" "$ticker" 2>/dev/null || rc=$?
  if [ -z "$pid" ] || [ "$pid" = "$ticker" ]; then
    # the tick (or a job bash had already dropped: the tick collects it)
    [ -z "$pid" ] || ticker=""
    [ -n "$pid" ] || [ -z "$ticker" ] || wait "$ticker" 2>/dev/null
    ticker=""
    tick
    return 0
  fi
  finish "$pid" "$rc"
}

# group_of NAME: jobs of one group never run beside each other: the shell
# suites (they run make in the tree), the multi-node PostgreSQL files, and
# the browser files (a Chromium each).
group_of() {
  case $1 in sh/*) echo sh ;; pg/*) echo pg ;; browser/*) echo browser ;; *) echo "" ;; esac
}

# group_busy GROUP: whether a job of GROUP runs now.
group_busy() {
  local pid
  [ -n "$1" ] || return 1
  for pid in "${!name_of[@]}"; do
    [ "$(group_of "${name_of[$pid]}")" = "$1" ] && return 0
  done
  return 1
}

# run_pool JOBS NAME...: the selected of NAME..., JOBS at a time, in their
# order but for a group's job waiting while one of its group runs, a
# progress line as each ends. Past the whole run's limit, the rest is
# counted failed.
run_pool() {
  local jobs=$1 name i pending=() launched
  shift
  for name in "$@"; do wanted "$name" && pending+=("$name"); done
  while [ "${#pending[@]}" -gt 0 ]; do
    while [ "${#name_of[@]}" -ge "$jobs" ]; do reap; done
    if [ -n "$over" ]; then
      for name in "${pending[@]}"; do
        report "$name" 0 1 "$EPOCHREALTIME"
        echo "    FAIL $name: not run, the whole run passed its limit of $total_limit s"
      done
      pending=()
      break
    fi
    launched=""
    for i in "${!pending[@]}"; do
      group_busy "$(group_of "${pending[$i]}")" && continue
      launch "${pending[$i]}"
      unset "pending[$i]"
      pending=("${pending[@]}")
      launched=1
      break
    done
    [ -n "$launched" ] || reap # every one left waits for its group
  done
  while [ "${#name_of[@]}" -gt 0 ]; do reap; done
}

# longest_first NAME...: the names, those with a usual time (usual_s, or
# an http-pg file's http twin's) first, longest first; the rest in order.
longest_first() {
  local n u
  for n in "$@"; do
    u=${usual_s[$n]:-${usual_s[http/${n#http-pg/}]:-0}}
    printf '%s %s\n' "$u" "$n"
  done | sort -s -k1,1nr | cut -d' ' -f2
}

# any_wanted NAME...: whether T selects one of them.
any_wanted() {
  local n
  for n in "$@"; do wanted "$n" && return 0; done
  return 1
}

# ---------------------------------------------------- cleanup on every exit
pgdir="$tmp/pg"
cleanup() {
  local pid
  for pid in "${!name_of[@]}"; do kill -KILL -- "-$pid" 2>/dev/null; done
  [ -z "$ticker" ] || kill "$ticker" 2>/dev/null
  [ ! -d "$pgdir/data" ] || "$here/pg/pg_stop.sh" "$pgdir"
  sweep "$run_mark"
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo "tests/run.sh: interrupted, stopping every job"; exit 130' INT TERM HUP
# Killed outright, this shell runs no trap: a watcher in its own session
# (without the marker) does the cleanup once this shell is gone.
env -u "REPLAYD_TEST_RUN_${run_id}" setsid bash -c '
  while kill -0 "$1" 2>/dev/null; do sleep 2; done
  [ ! -d "$3/data" ] || "$2/pg/pg_stop.sh" "$3"
  pids=$(grep -lzx -- "$4" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null
  rm -rf "$5"' _ "$$" "$here" "$pgdir" "$run_mark" "$tmp" >/dev/null 2>&1 </dev/null &

# --------------------------------------------------------------- the order
echo "tests/run.sh $build${selected:+ (T=$selected)}"
if [ -n "$selected" ]; then
  for w in $selected; do
    m=0
    for n in "${all_names[@]}"; do names "$w" "$n" && m=1; done
    if [ "$m" = 0 ]; then
      report "T=$w" 0 1 "$EPOCHREALTIME"
      echo "    FAIL T: no test is named $w (names are as the progress lines print them: http/flow, unit/test_store, ...)"
    fi
  done
fi
# A real PostgreSQL server for the PostgreSQL backend's tests (the store's
# unit test, the HTTP files on PostgreSQL, the multi-node test), started as
# an unprivileged user in this run's temporary directory.
pgurl=""
if any_wanted unit/test_store "${pg_https[@]}" "${pg_nodes[@]}"; then
  start=$EPOCHREALTIME
  if pgurl=$("$here/pg/pg_start.sh" "$pgdir" 2>"$out"); then
    export REPLAYD_TEST_PG=$pgurl
  else
    pgurl=""
    report "pg/start" 0 1 "$start"
    echo "    FAIL pg: a PostgreSQL server could not be started (make deps-test installs postgresql)"
    tail -10 "$out" | sed 's/^/      /'
  fi
fi
# Many connections need file descriptors (the hostile files).
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
run_pool 2 "${units[@]}"
if command -v node >/dev/null 2>&1; then
  # The web pages in real headless Chromium; setup.sh installs Debian's
  # chromium and playwright-core (npm ci) when missing.
  if any_wanted "${browsers[@]}" && ! bash "$here/browser/setup.sh" >"$out" 2>&1; then
    report "browser/setup" 0 1 "$EPOCHREALTIME"
    echo "    FAIL browser: chromium or playwright-core could not be installed"
    tail -10 "$out" | sed 's/^/      /'
    browsers=()
  fi
  # One pool, TEST_JOBS at a time, the long jobs first: the shell suites,
  # the small checks, the main pool (the port, the npm package, every HTTP
  # file on SQLite and the chosen ones on PostgreSQL, the multi-node files)
  # and the browser files. Most of these wait on their runs' claimed time,
  # not on the CPU, and none blocks its event loop (tests/lint/sync_spawns).
  main=("${shs[@]}" vectors/generated unit/log-vectors contract/openapi-lint lint/sync_spawns
    "${pool[@]}" "${browsers[@]}")
  [ -z "$pgurl" ] || main+=("${pg_https[@]}" "${pg_nodes[@]}")
  if [ -n "${TEST_SANITIZED:-}" ]; then
    # no C of this build runs in these: make test's alone
    nothing_c=" vectors/generated unit/log-vectors contract/openapi-lint lint/sync_spawns vectors/port wasm/vectors "
    kept=() left=()
    for n in "${main[@]}"; do
      if [ "${nothing_c#* "$n" }" != "$nothing_c" ]; then wanted "$n" && left+=("$n"); else kept+=("$n"); fi
    done
    main=("${kept[@]}")
    [ "${#left[@]}" -eq 0 ] || say "  not run sanitized (no C of this build runs in them; make test runs them): ${left[*]}"
  fi
  mapfile -t main < <(longest_first "${main[@]}")
  run_pool "${TEST_JOBS:-6}" "${main[@]}"
  [ -n "$selected" ] || run_pool 1 contract/coverage
  # The attacks two at a time, beside nothing else: floods and held
  # connections that would slow the files above.
  run_pool 2 "${hostiles[@]}"
else
  report "node" 0 1 "$EPOCHREALTIME"
  echo "    FAIL node: not installed (make deps-test installs it)"
fi
[ "$skipped" -eq 0 ] || echo "  ($skipped tests skipped, each shown as a SKIP line above: neither passed nor failed)"
echo "  the run took $(secs_since "$started_at") s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
