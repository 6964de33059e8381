#!/usr/bin/env bash
# make install into a staging DESTDIR, as the Debian package does it: what
# lands where, that the installed configuration is one the server accepts
# and points at /var/lib/replayd, that a second install keeps an edited
# configuration, that the unit passes systemd-analyze verify and scores
# "OK" on systemd-analyze security, that LimitNOFILE covers the configured
# connections; and that the man page and the example configuration name
# every setting the server knows.
set -u
root=${ROOT:?}
bin=${REPLAYD:?}
ok() { echo "PASS install: $1"; }
bad() { echo "FAIL install: $1"; }
check() { # name, command...
  local name=$1; shift
  if "$@" >/dev/null 2>&1; then ok "$name"; else bad "$name"; fi
}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

if ! make --no-print-directory -s -C "$root" install DESTDIR="$stage" PREFIX=/usr \
     UNITDIR=/lib/systemd/system BIN="$(dirname "$bin")" >"$stage.log" 2>&1; then
  bad "make install failed: $(tail -5 "$stage.log")"
  rm -f "$stage.log"
  exit 0
fi
rm -f "$stage.log"
ok "make install DESTDIR PREFIX=/usr"

version="replayd $(cat "$root/VERSION")"
out=$("$stage/usr/bin/replayd" --version 2>&1)
[ "$out" = "$version" ] && ok "the installed binary runs: $out" || bad "installed --version: $out"
for f in usr/share/man/man8/replayd.8 usr/share/doc/replayd/API.md usr/share/doc/replayd/openapi.yaml \
         usr/lib/sysusers.d/replayd.conf usr/lib/tmpfiles.d/replayd.conf lib/systemd/system/replayd.service; do
  check "installs /$f" test -s "$stage/$f"
done

conf="$stage/etc/replayd/replayd.conf"
check "installs /etc/replayd/replayd.conf, mode 0640" test "$(stat -c %a "$conf" 2>/dev/null)" = 640
check "the installed config keeps its data in /var/lib/replayd" grep -qE '^data_dir = /var/lib/replayd( |$)' "$conf"
# Every line of the installed config is a setting the server accepts.
check "the server accepts the installed config" \
  "$stage/usr/bin/replayd" migrate --config "$conf" --data "$stage/data"
echo "admin_token = kept-by-the-operator-0123456789abcdef" >>"$conf"
make --no-print-directory -s -C "$root" install DESTDIR="$stage" PREFIX=/usr \
  UNITDIR=/lib/systemd/system BIN="$(dirname "$bin")" >/dev/null 2>&1
check "a second install keeps an edited config" grep -q kept-by-the-operator "$conf"

unit="$stage/lib/systemd/system/replayd.service"
check "the unit runs the installed binary with /etc/replayd/replayd.conf" \
  grep -qx 'ExecStart=/usr/bin/replayd serve --config /etc/replayd/replayd.conf' "$unit"
for want in User=replayd Group=replayd StateDirectory=replayd ConfigurationDirectory=replayd \
            NoNewPrivileges=true ProtectSystem=strict CapabilityBoundingSet= \
            SystemCallFilter=@system-service MemoryDenyWriteExecute=true; do
  check "the unit sets $want" grep -qx "$want" "$unit"
done
# File descriptors: every connection, an epoll and an eventfd per worker
# thread, and 64 for the database, its WAL and shm, the keys and stdio.
conns=$(sed -n 's/^max_connections *= *\([0-9]*\).*/\1/p' "$root/config/replayd.conf.example")
threads=$(sed -n 's/^threads *= *\([0-9]*\).*/\1/p' "$root/config/replayd.conf.example")
nofile=$(sed -n 's/^LimitNOFILE=//p' "$unit")
if [ -n "$conns" ] && [ -n "$threads" ] && [ -n "$nofile" ] && [ "$nofile" -ge $((conns + 2 * threads + 64)) ]; then
  ok "LimitNOFILE=$nofile covers max_connections=$conns and threads=$threads"
else
  bad "LimitNOFILE=$nofile does not cover max_connections=$conns and threads=$threads"
fi
# systemd-analyze verify needs the binary where ExecStart says, and finds
# the man page through MANPATH: a copy that points into the stage.
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$stage/verify"
  sed "s|^ExecStart=/usr/bin/replayd|ExecStart=$stage/usr/bin/replayd|" "$unit" >"$stage/verify/replayd.service"
  out=$(MANPATH="$stage/usr/share/man" systemd-analyze verify "$stage/verify/replayd.service" 2>&1)
  [ $? -eq 0 ] && [ -z "$out" ] && ok "systemd-analyze verify: clean" || bad "systemd-analyze verify: $out"
  out=$(systemd-analyze security --offline=true --threshold=20 "$unit" 2>&1 | tail -1)
  case "$out" in *"exposure level for replayd.service: "[01].*" OK"*) ok "systemd-analyze security: ${out##*: }" ;;
    *) bad "systemd-analyze security: $out" ;; esac
else
  bad "systemd-analyze is not installed (make deps-test installs it)"
fi

# Every setting of server/base/config.c is in the man page and the example.
keys=$(sed -n 's/^ *\(STR\|INT\|SIZE\|BOOL\)(\([a-z_0-9]*\).*/\2/p' "$root/server/base/config.c")
[ -n "$keys" ] || bad "no settings found in server/base/config.c"
missing_man=""; missing_example=""
for k in $keys; do
  grep -q "^\.BR $k " "$root/docs/replayd.8" || missing_man="$missing_man $k"
  grep -q "^$k = " "$root/config/replayd.conf.example" || missing_example="$missing_example $k"
done
[ -z "$missing_man" ] && ok "replayd(8) documents all $(echo $keys | wc -w) settings" || bad "replayd(8) lacks:$missing_man"
[ -z "$missing_example" ] && ok "the example config lists every setting" || bad "the example config lacks:$missing_example"
th=$(sed -n 's/^\.TH REPLAYD 8 "[^"]*" "\([^"]*\)".*/\1/p' "$root/docs/replayd.8")
[ "$th" = "$version" ] && ok "replayd(8) is of $version" || bad "replayd(8) says \"$th\", VERSION says \"$version\""
if command -v man >/dev/null; then
  warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$root/docs/replayd.8" 2>&1 >/dev/null)
  [ -z "$warn" ] && ok "man --warnings: replayd(8) renders cleanly" || bad "man --warnings: $warn"
else
  bad "man is not installed (make deps-test installs it)"
fi
exit 0
