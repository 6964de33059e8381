#!/usr/bin/env bash
# Lints docs/openapi.yaml with redocly (pinned in package-lock.json; every
# recommended rule an error, see redocly.yaml), and checks that the
# document's version is the VERSION file's. Prints PASS/FAIL lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
doc="$root/docs/openapi.yaml"
# No telemetry, no update check: the lint runs offline.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
redocly="$here/node_modules/.bin/redocly"
if [ ! -x "$redocly" ]; then
  echo "FAIL openapi: redocly is not installed (make contract-deps)"
elif out=$("$redocly" lint --config "$here/redocly.yaml" "$doc" 2>&1); then
  echo "PASS openapi: redocly lint docs/openapi.yaml"
else
  printf '%s\n' "$out" | grep -vE '^\s*$' | tail -25
  echo "FAIL openapi: redocly lint docs/openapi.yaml"
fi
want=$(cat "$root/VERSION")
got=$(sed -n 's/^  version: *//p' "$doc" | head -1)
if [ "$got" = "$want" ]; then echo "PASS openapi: info.version is the VERSION file's ($want)"
else echo "FAIL openapi: info.version is \"$got\", the VERSION file says \"$want\""; fi
