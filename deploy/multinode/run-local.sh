#!/usr/bin/env bash
# run-local.sh: the whole example on one machine, for trying it: a throwaway
# PostgreSQL (tests/pg/pg_start.sh), three replayd nodes on ports PORT+1 to
# PORT+3 sharing it and one set of keys, and HAProxy on 127.0.0.1:PORT in
# front (PORT=8080 unless set)
# (Debian packages postgresql and haproxy). Ctrl-C stops everything and
# removes the temporary directory. Run from the repository, after `make`.
set -euo pipefail
cd "$(dirname "$0")/../.."
port=${PORT:-8080}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  tests/pg/pg_stop.sh "$work/pg"
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
url=$(tests/pg/pg_start.sh "$work/pg")
psql "$url/postgres" -qc "CREATE DATABASE replayd"
mkdir -p "$work/keys-src"
bin/replayd keygen --data "$work/keys-src" >/dev/null
for i in 1 2 3; do
  mkdir -p "$work/node$i"
  cp -a "$work/keys-src/keys" "$work/node$i/keys"
  bin/replayd serve --config deploy/multinode/node.conf --data "$work/node$i" \
    --listen "127.0.0.1:$((port + i))" --set "database=$url/replayd" --set log_requests=false &
  pids+=($!)
done
sed -e "s|127.0.0.1:8080|127.0.0.1:$port|" -e "s|127.0.0.1:8081|127.0.0.1:$((port + 1))|" \
  -e "s|127.0.0.1:8082|127.0.0.1:$((port + 2))|" -e "s|127.0.0.1:8083|127.0.0.1:$((port + 3))|" \
  deploy/multinode/haproxy.cfg > "$work/haproxy.cfg"
haproxy -f "$work/haproxy.cfg" -db &
pids+=($!)
echo "replayd: 3 nodes behind http://127.0.0.1:$port (Ctrl-C stops)"
wait -n
