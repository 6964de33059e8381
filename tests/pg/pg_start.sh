#!/bin/sh
# pg_start.sh DIR: a real, throwaway PostgreSQL server for the tests.
# initdb's a cluster into DIR/data as an unprivileged user (postgres, via
# runuser, when run as root: PostgreSQL refuses to run as root), starts it
# listening on 127.0.0.1 on a free port and on a Unix socket in DIR, and
# prints the base URL (postgres://postgres@127.0.0.1:PORT) on stdout.
# Trust authentication: only this machine's loopback reaches it, and the
# cluster lives only as long as the test run. tests/pg/pg_stop.sh DIR stops
# it; the caller removes DIR. fsync stays on (the durability promise is
# what is tested). Needs Debian's postgresql package (make deps-test).
set -eu
dir=${1:?usage: pg_start.sh DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "pg_start: PostgreSQL is not installed" >&2; exit 1; }
mkdir -p "$dir"
as=""
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "pg_start: no postgres user to run as" >&2; exit 1; }
  chown postgres "$dir"
  as="runuser -u postgres --"
  # a mktemp -d parent is root's 0700: that user must pass through it
  parent=$(dirname "$dir")
  runuser -u postgres -- test -x "$parent" || chmod o+x "$parent"
fi
chmod 0755 "$dir"
$as "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 \
  >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
tries=0
while :; do
  port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000 ))
  if $as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 \
          -c shared_buffers=32MB -c fsync=on -c synchronous_commit=on" >/dev/null 2>&1; then
    break
  fi
  tries=$((tries + 1))
  [ "$tries" -lt 5 ] || { tail -20 "$dir/server.log" >&2; exit 1; }
done
echo "$port" > "$dir/port"
echo "postgres://postgres@127.0.0.1:$port"
