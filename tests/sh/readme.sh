#!/usr/bin/env bash
# The README's curl session, as a reader pastes it: the sh block under "A
# session with curl", taken from README.md as it is, run by bash against a
# real server (localhost:8080 becomes this test's free port, bin/replayd
# this build's binary). It must run without a shell error, every answer must
# be a line of its own that parses as JSON, and the run it derives from its
# own seed's level must be verified with a non-zero score and a rank.
set -u
bin=${REPLAYD:?}
root=${ROOT:?}
ok() { echo "PASS readme: $1"; }
bad() { echo "FAIL readme: $(printf '%s' "$1" | tr -s '\n' ' ')"; }
for c in curl jq; do
  command -v "$c" >/dev/null || { bad "$c is not installed (make deps-test installs it)"; exit 0; }
done
tmp=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# The block: from the heading to the end of the first sh fence after it.
awk '/^## A session with curl/ { on = 1; next }
     on && /^```sh$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$root/README.md" >"$tmp/session.sh"
if ! grep -q 'v1/scores' "$tmp/session.sh"; then
  bad "no session block under '## A session with curl' in README.md"
  exit 0
fi
ok "the session block is $(wc -l <"$tmp/session.sh") lines of README.md"

for _ in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  "$bin" serve --listen "127.0.0.1:$port" --data "$tmp/data" --set log_requests=false --set drain_grace_s=0 >"$tmp/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    grep -q '"event":"listening"' "$tmp/server.log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && break
  wait "$pid" 2>/dev/null
  pid=""
done
[ -n "$pid" ] || { bad "the server did not start: $(tail -3 "$tmp/server.log")"; exit 0; }

sed -e "s|localhost:8080|127.0.0.1:$port|g" -e "s|bin/replayd|$bin|g" "$tmp/session.sh" >"$tmp/run.sh"
(cd "$tmp" && timeout 60 bash "$tmp/run.sh") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && ok "it runs through without a shell error" ||
  bad "exit $rc, stderr: $(head -5 "$tmp/err")"

# One JSON document per line: an answer without its newline would run into
# the next one.
lines=$(grep -c . "$tmp/out")
parsed=$(jq -c . "$tmp/out" 2>/dev/null | wc -l)
nonjson=$(while IFS= read -r l; do [ -z "$l" ] || echo "$l" | jq -e . >/dev/null 2>&1 || echo "$l"; done <"$tmp/out")
[ "$lines" -ge 10 ] && [ -z "$nonjson" ] && [ "$parsed" -eq "$lines" ] &&
  ok "its $lines answers are one JSON document per line" ||
  bad "$lines lines, $parsed documents; not JSON on its own line: $(echo "$nonjson" | head -2 | cut -c1-200)"

score=$(grep '"verified"' "$tmp/out" | head -1)
if [ -n "$score" ] && echo "$score" | jq -e '.verified == true and .score > 0 and .rank >= 1' >/dev/null 2>&1; then
  ok "the derived run is verified and ranked: $(echo "$score" | jq -c '{score, completed, rank}')"
else
  bad "the run was not verified with a non-zero ranked score: $(grep -m1 -E '"verified"|"error"' "$tmp/out" | cut -c1-300)"
fi
id=$(echo "$score" | jq -r '.score_id // empty' 2>/dev/null)
audit=$(grep -F "\"score_id\":\"$id\"" "$tmp/out" | grep -v '"verified"' | head -1)
[ -n "$id" ] && [ -n "$audit" ] && ok "the audit of \$SCORE_ID answers for that score" ||
  bad "no audit answer for score ${id:-(none)}"
board=$(grep -m1 '"entries"' "$tmp/out")
[ -n "$id" ] && [ -n "$board" ] && echo "$board" | jq -e --arg id "$id" '[.entries[] | select(.score_id == $id)] | length == 1' >/dev/null 2>&1 &&
  ok "the level board lists it" || bad "the board: $(echo "$board" | cut -c1-200)"
