#!/usr/bin/env bash
# tools/link_cycles.py on object files compiled here: a.o uses a symbol
# b.o defines and b.o one of a.o's (a cycle: exit 1, both files and both
# edges' symbols named); a.o using b.o alone (no cycle: exit 0); a third
# file beside the cycle, not in it (not named); no object file (exit 2).
set -u
root=${ROOT:?}
ok() { echo "PASS link_cycles: $1"; }
bad() { echo "FAIL link_cycles: $(printf '%s' "$1" | tr -s '\n' ' ')"; }
command -v nm >/dev/null || { bad "nm is not installed (binutils)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script="$root/tools/link_cycles.py"
cc=${CC:-cc}

compile() { # NAME SOURCE
  printf '%s\n' "$2" >"$tmp/$1.c"
  "$cc" -std=c11 -c "$tmp/$1.c" -o "$tmp/$1.o" 2>"$tmp/cc.err" || { bad "cc $1.c: $(cat "$tmp/cc.err")"; exit 0; }
}

# a cycle: a -> b (b_helper) and b -> a (a_helper); c uses a, outside it
mkdir -p "$tmp/cyc" "$tmp/free" "$tmp/empty"
compile cyc/a 'int b_helper(int); int a_helper(int x) { return x + 1; } int a_main(int x) { return b_helper(x); }'
compile cyc/b 'int a_helper(int); int b_helper(int x) { return a_helper(x) * 2; }'
compile cyc/c 'int a_main(int); int c_main(void) { return a_main(3); }'
out=$(python3 "$script" --strip "$tmp/" "$tmp/cyc" 2>&1); rc=$?
if [ "$rc" -eq 1 ]; then ok "a cycle exits 1"; else bad "a cycle exited $rc: $out"; fi
if grep -qx '  cyc/a.o' <<<"$out" && grep -qx '  cyc/b.o' <<<"$out"; then
  ok "both files of the cycle are named"
else
  bad "the cycle's files are not both named: $out"
fi
if grep -q 'cyc/a.o -> cyc/b.o: b_helper' <<<"$out" && grep -q 'cyc/b.o -> cyc/a.o: a_helper' <<<"$out"; then
  ok "each edge names its symbol"
else
  bad "the edges' symbols are not named: $out"
fi
if grep -q 'cyc/c.o' <<<"$out"; then bad "a file outside the cycle is named: $out"; else ok "a file outside the cycle is not named"; fi

# no cycle: a uses b, b uses nothing of a's (libc is no file of the graph)
compile free/a 'int b_helper(int); int a_main(int x) { return b_helper(x); }'
compile free/b '#include <stdlib.h>
int b_helper(int x) { return abs(x); }'
out=$(python3 "$script" "$tmp/free/a.o" "$tmp/free/b.o" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q 'no cycle' <<<"$out"; then ok "no cycle exits 0"; else bad "no cycle exited $rc: $out"; fi

out=$(python3 "$script" "$tmp/empty" 2>&1); rc=$?
if [ "$rc" -eq 2 ]; then ok "no object file exits 2"; else bad "no object file exited $rc: $out"; fi
