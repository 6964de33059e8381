#!/usr/bin/env bash
# setup: what the browser suite needs, installed only when missing: Debian's
# chromium (apt-get) and playwright-core (npm ci, from package-lock.json).
# Progress goes to stderr; exits non-zero if something cannot be installed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x /usr/bin/chromium ]; then
  echo "  browser: installing chromium (apt-get)" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  command -v npm >/dev/null 2>&1 || { echo "  browser: npm is missing (it comes with Node.js)" >&2; exit 1; }
  echo "  browser: installing playwright-core (npm ci)" >&2
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
