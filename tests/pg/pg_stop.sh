#!/bin/sh
# pg_stop.sh DIR: stops the server pg_start.sh DIR started (fast shutdown).
set -eu
dir=${1:?usage: pg_stop.sh DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -d "$dir/data" ] || exit 0
as=""
[ "$(id -u)" = 0 ] && as="runuser -u postgres --"
$as "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
