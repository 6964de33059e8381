#!/usr/bin/env bash
# libreplay from outside the tree: make install-lib into a staging DESTDIR,
# then a C program (tests/sh/libreplay_client.c, copied to a temp dir)
# compiled against the installed header and linked with -lreplay through
# pkg-config, shared and static. Its levels must be the bytes `replayd gen`
# prints (Schulte level 1 seed 42, Pipes level 1 seed 42 and one level of
# every game), its moves the outcomes and result of `replayd replay`, and
# four threads generating at once must agree with one.
set -u
root=${ROOT:?}
bin=${REPLAYD:?}
build=${BUILD:?}
ok() { echo "PASS libreplay: $1"; }
bad() { echo "FAIL libreplay: $1"; }
stage=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$stage" "$work"' EXIT

# The build directory is build/CC-MODE: the library of that same build.
base=$(basename "$build")
if ! make --no-print-directory -s -C "$root" lib install-lib BUILD="$build" CC="${base%-*}" \
     MODE="${base##*-}" DESTDIR="$stage" PREFIX=/usr >"$work/log" 2>&1; then
  bad "make lib install-lib failed: $(tail -5 "$work/log")"
  exit 0
fi
for f in usr/include/replay.h usr/lib/libreplay.a usr/lib/libreplay.so usr/lib/libreplay.so.1 \
         usr/lib/pkgconfig/replay.pc; do
  [ -e "$stage/$f" ] && ok "installs /$f" || bad "installs /$f"
done
soname=$(objdump -p "$stage/usr/lib/libreplay.so" 2>/dev/null | awk '/SONAME/ { print $2 }')
[ "$soname" = libreplay.so.1 ] && ok "soname libreplay.so.1" || bad "soname: $soname"
# Only the ABI is exported from the shared library, every symbol in the
# version node REPLAY_1, exactly the list of libreplay/abi-1.symbols (a new
# function goes into a new node and a new list, deliberately).
syms=$(nm -D --defined-only "$stage/usr/lib/libreplay.so" | awk '$2 != "A" { print $3 }')
others=$(echo "$syms" | grep -v '^rp_.*@@REPLAY_1$' | head -3)
[ -z "$others" ] && ok "exports only rp_ symbols, each versioned REPLAY_1" || bad "exports $others"
extra=$(diff <(echo "$syms" | sed 's/@.*//' | sort) "$root/libreplay/abi-1.symbols" | grep '^[<>]' | head -5 | tr '\n' ' ')
[ -z "$extra" ] && ok "the exported symbols are ABI 1's ($(wc -l <"$root/libreplay/abi-1.symbols") functions)" ||
  bad "the ABI differs from libreplay/abi-1.symbols: $extra"

export PKG_CONFIG_PATH="$stage/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
cp "$root/tests/sh/libreplay_client.c" "$work/client.c"
# A sanitizer build's objects need the sanitizer runtime in the program.
san=""
case "$build" in *asan*) san="-fsanitize=address,undefined" ;; esac
cd "$work" || exit 0
if cc -std=c11 -Wall -Wextra -Werror $san $(pkg-config --cflags replay) client.c -o client \
     $(pkg-config --libs replay) -lpthread 2>"$work/cc.log"; then
  ok "a program outside the tree builds with pkg-config --cflags --libs replay"
else
  bad "cc against the installed library: $(head -5 "$work/cc.log")"
  exit 0
fi
if cc -std=c11 $san $(pkg-config --cflags replay) client.c -o client-static \
     "$stage/usr/lib/libreplay.a" -lpthread 2>"$work/cc.log"; then
  ok "the same program links libreplay.a statically"
else
  bad "static link: $(head -5 "$work/cc.log")"
fi

# The build tree itself, before any install: with PKG_CONFIG_PATH=$build,
# pkg-config replay reads replay-uninstalled.pc (README's compile line).
tree() { env -u PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH="$root/$build" pkg-config "$@" replay; }
libdir=$(tree --variable=libdir)
[ "$libdir" = "$root/$build" ] && [ -f "$root/$build/replay-uninstalled.pc" ] &&
  ok "PKG_CONFIG_PATH=$build: pkg-config replay is the build tree's (replay-uninstalled.pc)" ||
  bad "the uninstalled replay.pc: libdir ${libdir:-none}"
if cc -std=c11 -Wall -Wextra -Werror $san $(tree --cflags) client.c -o client-tree $(tree --libs) -lpthread \
     2>"$work/cc.log"; then
  got=$(env -u LD_LIBRARY_PATH ./client-tree gen schulte 1 42 2>&1)
  [ "$got" = "$("$bin" gen schulte 1 42)" ] && env -u LD_LIBRARY_PATH ldd ./client-tree | grep -qF "$root/$build/libreplay.so.1" &&
    ok "a program built against the build tree runs from there, no LD_LIBRARY_PATH" || bad "client-tree: ${got:0:200}"
else
  bad "cc against the build tree: $(head -5 "$work/cc.log")"
fi

# clients/python/replay.py copied into an app: it says where it looked, then
# finds libreplay.so.1 put next to it.
py_env=()
case "$build" in
  *asan*) py_env=(env "LD_PRELOAD=$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
                  ASAN_OPTIONS=detect_leaks=0) ;;
esac
mkdir -p "$work/pyapp"
cp "$root/clients/python/replay.py" "$work/pyapp/"
py='import replay, json; print(json.dumps(replay.Library().game("schulte").generate(2, 1, 42).describe(), separators=(",", ":")))'
out=$(cd "$work/pyapp" && env -u REPLAY_LIB "${py_env[@]}" python3 -c "$py" 2>&1)
case "$out" in
  *"libreplay not found; looked in: \$REPLAY_LIB (not set); $work/pyapp/libreplay.so.1 (next to replay.py)"*"REPLAY_LIB"*)
    ok "replay.py alone in an app says where it looked" ;;
  *"no such game"*|*"grid"*) ok "replay.py alone in an app finds the system's libreplay" ;;
  *) bad "replay.py without its library: ${out: -300}" ;;
esac
cp "$root/$build/libreplay.so.$(cat "$root/VERSION")" "$work/pyapp/libreplay.so.1"
out=$(cd "$work/pyapp" && env -u REPLAY_LIB "${py_env[@]}" python3 -c "$py" 2>&1)
want=$("$bin" gen schulte 1 42 | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), separators=(",", ":")))')
[ "$out" = "$want" ] && ok "replay.py finds libreplay.so.1 next to it" || bad "replay.py beside its library: ${out:0:300}"

export LD_LIBRARY_PATH="$stage/usr/lib"
ldd ./client | grep -q "$stage/usr/lib/libreplay.so.1" && ok "runs against the installed libreplay.so.1" \
  || bad "ldd: $(ldd ./client | grep replay)"

same() { # name, want, got
  if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got ${3:0:200}, want ${2:0:200}"; fi
}
same "Schulte level 1 seed 42 is replayd gen's" "$("$bin" gen schulte 1 42)" "$(./client gen schulte 1 42)"
same "Pipes level 1 seed 42 is replayd gen's" "$("$bin" gen pipes 1 42)" "$(./client gen pipes 1 42)"
same "Schulte level 1 seed 42 through the writer callbacks" "$("$bin" gen schulte 1 42)" \
  "$(./client writer schulte 1 42)"
same "Pipes level 1 seed 42, statically linked" "$("$bin" gen pipes 1 42)" "$(./client-static gen pipes 1 42)"
for g in schulte pipes target-sums opposites contraption driftlings; do
  same "$g level 7 seed 2787605108 is replayd gen's" "$("$bin" gen $g 7 2787605108)" \
    "$(./client gen $g 7 2787605108)"
done
same "Driftlings level 3 seed 9 through the writer callbacks" "$("$bin" gen driftlings 3 9)" \
  "$(./client writer driftlings 3 9)"

# Schulte level 1 seed 42: the grid is [[7,8,2],[5,4,6],[9,3,1]]: the 1 is
# cell 8, the 2 cell 2, then a tap on the 9 (a mistake).
play=$(./client play schulte 1 42 400,8 800,2 1200,6)
want=$(echo '{"moves":[{"t":400,"cell":8},{"t":800,"cell":2},{"t":1200,"cell":6}]}' |
  "$bin" replay schulte 1 42)
outcomes=$(echo "$want" | node -e 'const r=JSON.parse(require("fs").readFileSync(0,"utf8")); console.log(r.outcomes.join(" "))')
board=$(echo "$want" | node -e 'const r=JSON.parse(require("fs").readFileSync(0,"utf8")); console.log(JSON.stringify(r.board))')
result=$(echo "$want" | node -e 'const r=JSON.parse(require("fs").readFileSync(0,"utf8"));
  const o={}; for (const k of Object.keys(r)) if (!["game","version","level","seed","outcomes","board"].includes(k)) o[k]=r[k];
  console.log(JSON.stringify(o))')
same "Schulte moves: the outcomes of replayd replay" "outcomes: $outcomes" "$(echo "$play" | sed -n 1p)"
same "Schulte moves: the board of replayd replay" "board: $board" "$(echo "$play" | sed -n 2p)"
same "Schulte moves: the result of replayd replay" "result: $result" "$(echo "$play" | sed -n 3p)"
rej=$(./client play schulte 1 42 400,8 300,2)
echo "$rej" | grep -q "^outcomes: found time_backwards$" && ! echo "$rej" | grep -q '^result' &&
  ok "a rejected move ends the replay with no result" || bad "rejection: $rej"
games=$(./client games)
listed=$(echo "$games" | awk '{ print $1 }' | sort | tr '\n' ' ')
for g in contraption driftlings opposites pipes schulte target-sums; do
  case " $listed" in *" $g "*) ;; *) bad "rp_game_at does not list $g" ;; esac
done
echo "$games" | grep -q '^contraption 1..2 levels=15 part\[0..[0-9]*\] x\[' &&
  ok "lists the games, their versions and move fields" || bad "games: $games"
out=$(./client threads)
[ $? -eq 0 ] && ok "four threads at once: $out" || bad "threads: $out"
