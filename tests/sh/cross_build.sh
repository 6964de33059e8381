#!/usr/bin/env bash
# Cross-build determinism: the vector runner under gcc and clang at -O0 and
# -O2 must pass every vector, and the corpus digest (tests/cross/digest.c)
# must be identical across those builds and, where the cross compiler and
# qemu-user are installed, an aarch64 build run under emulation.
set -u
root=${ROOT:?}
out="$root/build/cross"
mkdir -p "$out"
cd "$root"
srcs="core/*.c games/*/*.c"
warn="-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Werror"
flags="-std=c11 -D_POSIX_C_SOURCE=200809L"
jansson=$(pkg-config --cflags --libs jansson 2>/dev/null || echo -ljansson)
ref=""
for cc in gcc clang; do
  command -v $cc >/dev/null || { echo "FAIL cross: $cc is not installed"; continue; }
  for opt in -O0 -O2; do
    name="$cc$opt"
    if ! $cc $flags $warn $opt tests/unit/test_vectors.c $srcs server/json_game.c -o "$out/vectors-$name" $jansson \
       || ! $cc $flags $warn $opt tests/cross/digest.c $srcs -o "$out/digest-$name"; then
      echo "FAIL cross: $name does not build"
      continue
    fi
    fails=$("$out/vectors-$name" | grep -c "^FAIL" || true)
    passes=$("$out/vectors-$name" | grep -c "^PASS" || true)
    if [ "$fails" -eq 0 ] && [ "$passes" -gt 0 ]; then echo "PASS cross: $name passes all $passes vector cases"
    else echo "FAIL cross: $name fails $fails vector cases"; fi
    digest=$("$out/digest-$name" | tail -1)
    [ -n "$ref" ] || ref=$digest
    if [ "$digest" = "$ref" ]; then echo "PASS cross: $name corpus digest ${digest##* }"
    else echo "FAIL cross: $name corpus digest ${digest##* } differs from ${ref##* }"; fi
  done
done
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
  if aarch64-linux-gnu-gcc $flags -w -O2 -static tests/cross/digest.c $srcs -o "$out/digest-aarch64"; then
    digest=$(qemu-aarch64 "$out/digest-aarch64" | tail -1)
    if [ "$digest" = "$ref" ]; then echo "PASS cross: aarch64 (qemu) corpus digest ${digest##* }"
    else echo "FAIL cross: aarch64 corpus digest ${digest##* } differs from ${ref##* }"; fi
  else
    echo "FAIL cross: aarch64 build failed"
  fi
else
  echo "FAIL cross: aarch64-linux-gnu-gcc or qemu-aarch64 missing (make deps installs them)"
fi
exit 0
