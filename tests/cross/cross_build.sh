#!/usr/bin/env bash
# Cross-build determinism (make cross, part of make check): the vector
# runner under gcc and clang at -O0 and -O2 must pass every vector, and the
# corpus digest (tests/cross/digest.c) must be identical across those builds
# and an aarch64 build run under qemu-user. The pure sources and the flags
# come from the Makefile (PURE_SRC, STD, WARN). Prints PASS/FAIL lines and
# a closing "N passed, N failed"; exits non-zero on any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${PURE_SRC:?run through make cross}
std=${STD:?run through make cross}
warn=${WARN:?run through make cross}
out="$root/build/cross"
mkdir -p "$out"
cd "$root"
jansson=$(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)
passes=0
fails=0
pass() { echo "PASS cross: $1"; passes=$((passes + 1)); }
fail() { echo "FAIL cross: $1"; fails=$((fails + 1)); }
ref=""
for cc in gcc clang; do
  command -v $cc >/dev/null || { fail "$cc is not installed"; continue; }
  for opt in -O0 -O2; do
    name="$cc$opt"
    if ! $cc $std $warn -Werror $opt tests/unit/test_vectors.c $srcs server/base/json_game.c -o "$out/vectors-$name" $jansson \
       || ! $cc $std $warn -Werror $opt tests/cross/digest.c $srcs -o "$out/digest-$name"; then
      fail "$name does not build"
      continue
    fi
    vec=$("$out/vectors-$name")
    nfail=$(printf '%s\n' "$vec" | grep -c "^FAIL")
    npass=$(printf '%s\n' "$vec" | grep -c "^PASS")
    if [ "$nfail" -eq 0 ] && [ "$npass" -gt 0 ]; then pass "$name passes all $npass vector cases"
    else fail "$name fails $nfail vector cases"; fi
    digest=$("$out/digest-$name" | tail -1)
    [ -n "$ref" ] || ref=$digest
    if [ "$digest" = "$ref" ]; then pass "$name corpus digest ${digest##* }"
    else fail "$name corpus digest ${digest##* } differs from ${ref##* }"; fi
  done
done
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
  # -w: the target's headers are not ours to keep warning-free.
  if aarch64-linux-gnu-gcc $std -w -O2 -static tests/cross/digest.c $srcs -o "$out/digest-aarch64"; then
    digest=$(qemu-aarch64 "$out/digest-aarch64" | tail -1)
    if [ "$digest" = "$ref" ]; then pass "aarch64 (qemu) corpus digest ${digest##* }"
    else fail "aarch64 corpus digest ${digest##* } differs from ${ref##* }"; fi
  else
    fail "aarch64 build failed"
  fi
else
  fail "aarch64-linux-gnu-gcc or qemu-aarch64 missing (make deps-check installs them)"
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
