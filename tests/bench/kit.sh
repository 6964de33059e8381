#!/usr/bin/env bash
# The game kit's benchmark: the peer corpus (docs/BENCH.md) through native C
# (bench_peer), the WebAssembly build under Node (bench_wasm.mjs) and the
# pure-JavaScript port under Node (vectors/port/bench.mjs): per game, ns per
# generated level and per replay of the typical full solution, with the
# ratios to native C.
set -eu
build=${1:?usage: kit.sh BUILD_DIR}
c_out=$("$build/bench/bench_peer")
wasm_out=$(node tests/bench/bench_wasm.mjs build/wasm/replay.wasm)
js_out=$(node vectors/port/bench.mjs)
field() { printf '%s\n' "$1" | grep "\"game\":\"$2\"" | sed "s/.*\"$3\":\\([0-9]*\\).*/\\1/"; }
echo
echo "== game kit: native C vs WebAssembly vs the JavaScript port (ns per item, median of 7 passes, 600 levels a game) =="
printf '%-12s %10s %10s %10s %6s %6s | %10s %10s %10s %6s %6s\n' game "C gen" "wasm gen" "JS gen" wasm/C JS/C \
  "C replay" "wasm rep" "JS replay" wasm/C JS/C
for g in $(printf '%s\n' "$c_out" | sed 's/.*"game":"\([^"]*\)".*/\1/'); do
  cg=$(field "$c_out" "$g" gen_ns); cr=$(field "$c_out" "$g" replay_ns)
  wg=$(field "$wasm_out" "$g" gen_ns); wr=$(field "$wasm_out" "$g" replay_ns)
  jg=$(field "$js_out" "$g" gen_ns); jr=$(field "$js_out" "$g" replay_ns)
  [ -n "$wg" ] && [ -n "$jg" ] || continue
  awk -v g="$g" -v cg="$cg" -v wg="$wg" -v jg="$jg" -v cr="$cr" -v wr="$wr" -v jr="$jr" 'BEGIN {
    printf "%-12s %10d %10d %10d %5.1fx %5.1fx | %10d %10d %10d %5.1fx %5.1fx\n", g, cg, wg, jg,
      (cg ? wg / cg : 0), (cg ? jg / cg : 0), cr, wr, jr, (cr ? wr / cr : 0), (cr ? jr / cr : 0) }'
done
