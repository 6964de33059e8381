#!/usr/bin/env bash
# The test harness's own bounds (tests/run.sh): a test file that starts a
# server and never ends is killed at its limit, reported by name as
# "0 passed, 1 failed", and leaves no process behind; a run stopped from
# outside (TERM, or KILL on the harness's shell alone) leaves none either.
# The hanging file is a fixture in a temporary tests/http (TEST_HTTP_DIR),
# never part of the real suite.
set -u
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${BUILD:-build/cc-release}
ok() { echo "PASS harness: $1"; }
bad() { echo "FAIL harness: $1"; }
fix=$(mktemp -d)
trap 'pkill -KILL -f "$fix" 2>/dev/null; rm -rf "$fix"' EXIT
mkdir -p "$fix/http"
# A file that starts a real replayd (data dir under the fixture), says so
# in a file, and then waits forever.
cat >"$fix/http/hang.test.mjs" <<EOF
import { test } from 'node:test';
import { writeFileSync, mkdirSync } from 'node:fs';
import { startServer } from '$root/tests/http/harness.mjs';
test('never ends', async () => {
  mkdirSync('$fix/data-' + process.pid, { recursive: true });
  const srv = await startServer({ dataDir: '$fix/data-' + process.pid });
  writeFileSync('$fix/started', String(srv.child.pid));
  await new Promise(() => setInterval(() => {}, 1000));
});
EOF

# left: the processes of the fixture still running (its node files, servers).
left() { pgrep -af "$fix" | grep -v -e pgrep -e harness.sh || true; }
# await_started SECONDS: waits until the fixture's server is up.
await_started() {
  local i
  for i in $(seq 1 $(($1 * 4))); do
    [ -s "$fix/started" ] && return 0
    sleep 0.25
  done
  return 1
}
# await_none SECONDS: waits until nothing of the fixture runs.
await_none() {
  local i
  for i in $(seq 1 $(($1 * 4))); do
    [ -z "$(left)" ] && return 0
    sleep 0.25
  done
  return 1
}
# (TEST_TIMEOUT_FACTOR=1: make check runs this under a factor of 3)
harness() { (cd "$root" && TEST_TIMEOUT_FACTOR=1 TEST_HTTP_DIR="$fix/http" T=http/hang exec tests/run.sh "$build"); }

# 1. past its limit
t0=$SECONDS
out=$(TEST_TIMEOUT_S=15 timeout 90 bash -c "$(declare -f harness); root='$root' fix='$fix' build='$build'; harness" 2>&1)
rc=$?
took=$((SECONDS - t0))
if [ -s "$fix/started" ]; then ok "the hanging file started its server"; else bad "the fixture never started: $out"; fi
case $(printf '%s\n' "$out" | tail -1) in
  "0 passed, 1 failed") ok "a file past its limit is counted as one failure" ;;
  *) bad "last line: $(printf '%s\n' "$out" | tail -1)" ;;
esac
if printf '%s\n' "$out" | grep -q 'FAIL http/hang: killed at its limit of 15 s'; then
  ok "it is reported by name with its limit"
else
  bad "no report naming it: $out"
fi
[ "$rc" -ne 0 ] && ok "the run exits non-zero" || bad "the run exited 0"
if [ "$took" -lt 45 ]; then ok "it ended within seconds of its limit ($took s)"; else bad "it took $took s for a 15 s limit"; fi
if await_none 2; then ok "no process of it is left"; else bad "left running: $(left)"; fi

# 2. the run stopped from outside with TERM, and 3. its shell alone killed
for sig in TERM KILL; do
  rm -f "$fix/started"
  setsid bash -c "$(declare -f harness); root='$root' fix='$fix' build='$build'; TEST_TIMEOUT_S=300; export TEST_TIMEOUT_S; harness" \
    >"$fix/out" 2>&1 </dev/null &
  pid=$!
  if ! await_started 30; then
    bad "$sig: the fixture never started: $(tail -5 "$fix/out")"
    kill -KILL -- "-$pid" 2>/dev/null
    continue
  fi
  # the harness's shell is the session's leader's only child: tests/run.sh
  runsh=$(pgrep -P "$pid" -f tests/run.sh | head -1)
  [ -n "$runsh" ] || runsh=$pid
  kill "-$sig" "$runsh"
  if await_none 15; then
    ok "$sig on tests/run.sh: its server and node file end with it"
  else
    bad "$sig on tests/run.sh left running: $(left)"
  fi
  kill -KILL -- "-$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
exit 0
