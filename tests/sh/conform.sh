#!/usr/bin/env bash
# tools/conform, the conformance runner: the reference port (the C library)
# and the Python ctypes port pass every vector and held-out seed of every
# game, and so does the JavaScript port (vectors/port, through
# tools/kit/port-js.mjs); a port that gets one
# score wrong fails, and a port that serves one game fails the others as not
# ported unless --games leaves them out.
set -u
root=${ROOT:?}
build=${BUILD:?}
ok() { echo "PASS conform: $1"; }
# A reason on one line: tests/run.sh shows only the FAIL lines.
bad() { echo "FAIL conform: $(printf '%s' "$1" | tr -s '\n' ' ')"; }
cd "$root" || exit 0
ref="$root/$build/conform-ref"
[ -x "$ref" ] || make --no-print-directory -s BUILD="$build" "$build/conform-ref" >/dev/null 2>&1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
games="contraption driftlings opposites pipes schulte target-sums"

# table_ok: every game's row says pass, with n/n vectors and held-out seeds.
table_ok() {
  local g
  for g in $games; do
    grep -qE "^$g +([0-9]+)/\\1 +([0-9]+)/\\2 +pass$" "$out" || return 1
  done
}

# The reference against itself on one game (it is also checked, case by
# case, as the other side of every held-out comparison below).
tools/conform --ref "$ref" --seeds 4 --games opposites -- "$ref" >"$out" 2>&1
[ $? -eq 0 ] && grep -qE '^opposites +([0-9]+)/\1 +4/4 +pass$' "$out" &&
  ok "the reference port passes the Opposites vectors" || bad "reference: $(tail -15 "$out")"

export REPLAY_LIB="$root/$build/libreplay.so"
# A sanitizer build's library needs its runtimes loaded first in python3.
py_env=()
case "$build" in
  *asan*) py_env=(env "LD_PRELOAD=$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
                  ASAN_OPTIONS=detect_leaks=0) ;;
esac
tools/conform --ref "$ref" --seeds 25 -- "${py_env[@]}" python3 clients/python/conform_port.py >"$out" 2>&1
if [ $? -eq 0 ] && table_ok; then
  ok "the Python ctypes port passes every vector and 25 held-out seeds per game: $(grep -E '^schulte ' "$out" | tr -s ' ')"
else
  bad "python: $(tail -15 "$out")"
fi

# the games the port has (a game from make new-game has no port until one is written)
js_games=$(node -e "import('./vectors/port/vectors.mjs').then((m) => console.log(Object.keys(m.GAMES).join(',')))")
tools/conform --ref "$ref" --seeds 25 --games "$js_games" -- node tools/kit/port-js.mjs >"$out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "every game passed" "$out"; then
  ok "the JavaScript port passes every vector and 25 held-out seeds per game: $(grep -E '^pipes ' "$out" | tr -s ' ')"
else
  bad "javascript: rc $rc $(sed -n 1,30p "$out")"
fi

# One wrong score in every answer that has it.
tools/conform --ref "$ref" --seeds 4 --games schulte -- \
  "${py_env[@]}" bash -c "python3 clients/python/conform_port.py | sed -u 's/\"score\":1,/\"score\":7,/g'" >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qE '^schulte .*FAIL$' "$out" && grep -q 'result.score' "$out" &&
  ok "a port with a wrong score fails, naming the field" || bad "broken port: rc $rc $(tail -8 "$out")"

# A port that serves only Schulte.
one='import sys,json
for l in sys.stdin:
    r=json.loads(l); print(json.dumps({"id":r["id"],"games":["schulte"]} if r["op"]=="hello" else {"id":r["id"],"error":"x"}), flush=True)'
tools/conform --ref "$ref" --seeds 2 --games pipes -- python3 -c "$one" >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qE '^pipes .*NOT PORTED$' "$out" && ok "a game the port does not list is not ported" ||
  bad "not ported: rc $rc $(tail -5 "$out")"
tools/conform --ref "$ref" --seeds 0 --games nosuchgame -- "$ref" >"$out" 2>&1
[ $? -eq 1 ] && ok "a game nobody has fails" || bad "unknown game: $(tail -5 "$out")"
