#!/usr/bin/env bash
# The command line: --help and --version everywhere, published vectors
# through gen, replay, daily, and bad arguments or input (exit 2: one line
# on stderr for a bad value, that line and the usage for a usage error;
# never a crash).
set -u
bin=${REPLAYD:?}
root=${ROOT:?}
ok() { echo "PASS cli: $1"; }
bad() { echo "FAIL cli: $1"; }
expect() { # name, command output, wanted substring
  case "$2" in *"$3"*) ok "$1" ;; *) bad "$1: got $2" ;; esac
}

out=$("$bin" gen schulte 1 42)
expect "schulte level 1 seed 42" "$out" '"grid":[[7,8,2],[5,4,6],[9,3,1]]'
out=$("$bin" gen pipes 1 42)
expect "pipes level 1 seed 42 start" "$out" '"start":[[4,7,9],[6,14,4],[4,6,1]]'
expect "pipes level 1 seed 42 solution" "$out" '"solution":[[2,14,12],[6,13,1],[1,3,8]]'
expect "pipes level 1 seed 42 one node" "$out" '"nodes":1,"rejected":0'
expect "gen carries game, version, level, seed" "$out" '{"game":"pipes","version":2,"level":1,"seed":42'
out=$("$bin" gen pipes 15 0)
expect "pipes level 15 is 7x7 wrapping" "$out" '"width":7,"height":7,"wrap":true'
out=$("$bin" gen pipes 11 2)
expect "pipes level 11 seed 2 rejects two trees" "$out" '"nodes":7,"rejected":2'

moves='{"moves":[{"t":400,"cell":8},{"t":800,"cell":2},{"t":1200,"cell":7},{"t":1600,"cell":4},{"t":2000,"cell":3},{"t":2400,"cell":5},{"t":2800,"cell":0},{"t":3200,"cell":1},{"t":3600,"cell":6}]}'
out=$(echo "$moves" | "$bin" replay schulte 1 42)
expect "replay completes a clean run" "$out" '"completed":true,"score":1264'
out=$(echo '{"moves":[{"t":400,"cell":8},{"t":450,"cell":2}]}' | "$bin" replay schulte 1 42)
expect "replay names the first rejected move" "$out" '"rejected":{"move":1,"reason":"too_fast"}'
out=$(echo '{"moves":[{"t":400,"cell":8},{"t":900,"cell":8}]}' | "$bin" replay schulte 1 42)
expect "replay reports ignored moves" "$out" '"outcomes":["found","already_found"]'

out=$("$bin" daily 2026-12-02)
expect "daily 2026-12-02" "$out" '"date":"2026-12-02","game":"pipes","level":3,"seed":3715984154'
out=$("$bin" daily 2026-07-28 --game schulte)
expect "daily for one game" "$out" '"game":"schulte","seed":'

# Bad arguments and input: exit status 2 and exactly one line on stderr.
check_bad() { # name, stdin, args...
  local name=$1 input=$2; shift 2
  local err rc
  err=$(printf '%s' "$input" | "$bin" "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [ -n "$err" ]; then ok "$name"
  else bad "$name: status $rc, stderr: $err"; fi
}
check_bad "unknown game" "" gen chess 1 1
check_bad "level 0" "" gen pipes 0 1
check_bad "level 16" "" gen schulte 16 1
check_bad "seed too big" "" gen pipes 1 4294967296
check_bad "negative seed" "" gen pipes 1 -1
check_bad "seed not a number" "" gen pipes 1 12x
check_bad "unsupported version" "" gen pipes 1 1 --version 9
check_bad "replay of nothing" "" replay schulte 1 42
check_bad "replay of truncated JSON" '{"moves":[{"t":1,' replay schulte 1 42
check_bad "replay with duplicate keys" '{"moves":[],"moves":[]}' replay schulte 1 42
check_bad "replay of a non-object move" '{"moves":[1]}' replay schulte 1 42
check_bad "replay with a float time" '{"moves":[{"t":1.5,"cell":0}]}' replay schulte 1 42
check_bad "replay with a missing field" '{"moves":[{"t":100}]}' replay schulte 1 42
check_bad "replay with an extra field" '{"moves":[{"t":100,"cell":1,"x":2}]}' replay schulte 1 42
check_bad "daily with a bad date" "" daily 2026-13-01
check_bad "daily before the schedule" "" daily 2025-12-31
check_bad "daily for an unknown game" "" daily 2026-12-02 --game chess
check_bad "serve with a version no game replays" "" serve --data /nonexistent/replayd --set issue_versions=opposites=7
check_bad "serve with an unknown setting" "" serve --data /nonexistent/replayd --set colour=blue
check_bad "serve with a config file that is not there" "" serve --config /nonexistent/replayd.conf

# Usage errors: exit status 2, nothing on stdout, the reason on stderr and
# then the command's usage line.
check_usage() { # name, wanted first line, args...
  local name=$1 first=$2; shift 2
  local out err rc
  out=$("$bin" "$@" 2>/dev/null </dev/null)
  err=$("$bin" "$@" 2>&1 >/dev/null </dev/null)
  rc=$?
  case "$err" in
    "replayd: $first"*"usage: replayd $1 "*) [ "$rc" -eq 2 ] && [ -z "$out" ] && ok "$name" ||
      bad "$name: status $rc, stdout: $out" ;;
    *) bad "$name: status $rc, stderr: $err" ;;
  esac
}
check_usage "serve with an unknown option" 'unknown option "--frob"' serve --frob
check_usage "serve with a stray argument" 'unknown option "8080"' serve 8080
check_usage "serve --data without a value" "--data needs a value" serve --data
check_usage "keygen with an unknown option" 'unknown option "-x"' keygen -x
check_usage "keygen --retire without an id" '--retire needs one key id' keygen --retire
check_usage "reverify with an unknown option" 'unknown option "-x"' reverify -x
check_usage "reverify --jobs without a value" '--jobs needs one value' reverify --jobs
check_usage "migrate --set without a value" "--set needs a value" migrate --set
check_usage "gen with too few arguments" "expected GAME LEVEL SEED" gen pipes 1
check_usage "gen with an unknown option" "the only option is --version V" gen pipes 1 1 --spec 1
check_usage "replay with too many arguments" "expected GAME LEVEL SEED" replay pipes 1 1 2
check_usage "daily without a date" "expected YYYY-MM-DD" daily
check_usage "daily with an unknown option" "the only option is --game GAME" daily 2026-12-02 --gam x

# No command, an unknown command: the whole usage on stderr, exit 2.
err=$("$bin" 2>&1 >/dev/null </dev/null); rc=$?
case "$err" in "usage: replayd COMMAND"*"Exit status: 0 success, 1 runtime failure, 2 usage error"*)
  [ "$rc" -eq 2 ] && ok "no command: usage on stderr, status 2" || bad "no command: status $rc" ;;
  *) bad "no command: stderr $err" ;; esac
err=$("$bin" frobnicate 2>&1 >/dev/null </dev/null); rc=$?
case "$err" in 'replayd: unknown command "frobnicate"'*"usage: replayd COMMAND"*)
  [ "$rc" -eq 2 ] && ok "unknown command: usage on stderr, status 2" || bad "unknown command: status $rc" ;;
  *) bad "unknown command: stderr $err" ;; esac

# --help and --version: for the program and for every command, on stdout,
# status 0, nothing on stderr. The version is the VERSION file's.
version="replayd $(cat "$root/VERSION")"
check_info() { # name, wanted stdout prefix, args...
  local name=$1 want=$2; shift 2
  local out err rc
  err=$("$bin" "$@" 2>&1 >/dev/null </dev/null)
  out=$("$bin" "$@" 2>/dev/null </dev/null)
  rc=$?
  case "$out" in
    "$want"*) [ "$rc" -eq 0 ] && [ -z "$err" ] && ok "$name" || bad "$name: status $rc, stderr: $err" ;;
    *) bad "$name: status $rc, stdout: $out" ;;
  esac
}
check_info "--help" "usage: replayd COMMAND" --help
check_info "help" "usage: replayd COMMAND" help
check_info "--version" "$version" --version
for cmd in serve keygen migrate reverify gen replay daily; do
  check_info "$cmd --help" "usage: replayd $cmd " "$cmd" --help
  check_info "$cmd -h" "usage: replayd $cmd " "$cmd" -h
  check_info "$cmd --version" "$version" "$cmd" --version
  out=$("$bin" --help)
  case "$out" in *"  $cmd "*) ok "--help lists $cmd" ;; *) bad "--help does not list $cmd" ;; esac
done
check_info "serve --help after other options" "usage: replayd serve " serve --data /nonexistent --help
check_info "serve --version after other options" "$version" serve --listen 127.0.0.1:1 --version
out=$("$bin" serve --help)
case "$out" in *"Exit status: 0 success, 1 runtime failure, 2 usage error or bad input."*) ok "serve --help states the exit statuses" ;;
  *) bad "serve --help does not state the exit statuses" ;; esac
out=$("$bin" reverify --help)
case "$out" in *"reverify: 3 when a stored score no longer replays to its record."*) ok "reverify --help states exit status 3" ;;
  *) bad "reverify --help does not state exit status 3" ;; esac
# After GAME LEVEL SEED, gen's --version V is the game's spec version.
out=$("$bin" gen pipes 1 42 --version 1)
expect "gen --version V after the level is a spec version" "$out" '{"game":"pipes","version":1,"level":1,"seed":42'

# Runtime failures are status 1: a data dir that cannot be created.
err=$("$bin" migrate --data /proc/replayd-cannot-be-here 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 1 ] && [ -n "$err" ] && ok "migrate into an impossible data dir: status 1" ||
  bad "migrate into an impossible data dir: status $rc, stderr: $err"
exit 0
