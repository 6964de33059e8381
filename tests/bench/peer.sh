#!/usr/bin/env bash
# The peer benchmark: the same corpus (docs/BENCH.md) through the C game code
# and through the independent JavaScript port under Node, side by side in one
# run, with the JS/C ratio per game.
set -eu
build=${1:?usage: peer.sh BUILD_DIR}
games=$(node -e "import('./vectors/port/vectors.mjs').then(m => console.log(Object.keys(m.GAMES ?? {}).join(' ')))" 2>/dev/null || true)
c_out=$("$build/bench/bench_peer" $games)
js_out=$(node vectors/port/bench.mjs)
echo
echo "== peer benchmark: C vs the JavaScript port under Node (ns per item, median of passes) =="
printf '%-12s %12s %12s %8s | %12s %12s %8s\n' game "C gen" "JS gen" "JS/C" "C replay" "JS replay" "JS/C"
while read -r line; do
  game=$(printf '%s' "$line" | sed 's/.*"game":"\([^"]*\)".*/\1/')
  cg=$(printf '%s' "$line" | sed 's/.*"gen_ns":\([0-9]*\).*/\1/')
  cr=$(printf '%s' "$line" | sed 's/.*"replay_ns":\([0-9]*\).*/\1/')
  js=$(printf '%s\n' "$js_out" | grep "\"game\":\"$game\"" || true)
  [ -n "$js" ] || continue
  jg=$(printf '%s' "$js" | sed 's/.*"gen_ns":\([0-9]*\).*/\1/')
  jr=$(printf '%s' "$js" | sed 's/.*"replay_ns":\([0-9]*\).*/\1/')
  awk -v g="$game" -v cg="$cg" -v jg="$jg" -v cr="$cr" -v jr="$jr" 'BEGIN {
    printf "%-12s %12d %12d %7.1fx | %12d %12d %7.1fx\n", g, cg, jg, (cg ? jg / cg : 0), cr, jr, (cr ? jr / cr : 0) }'
done <<<"$c_out"
