#!/usr/bin/env bash
# make new-game in a copy of the tree: the new game builds (incrementally,
# from a copy of this build's objects), replayd gen and the conformance
# runner (its hand vectors and held-out seeds) see it, and a server built
# from that copy lists it in GET /v1/games. The template itself is what
# this checks: the new game is the template renamed.
set -u
root=${ROOT:?}
build=${BUILD:?}
ok() { echo "PASS new-game: $1"; }
# A reason on one line: tests/run.sh shows only the FAIL lines.
bad() { echo "FAIL new-game: $(printf '%s' "$1" | tr -s '\n' ' ')"; }
tmp=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# The tree as git sees it (tracked and new files, nothing ignored), and this
# build's objects with their times, so only what new-game touches rebuilds.
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - 2>/dev/null) | (cd "$tmp" && tar xf -)
mkdir -p "$tmp/build" && cp -a "$root/$build" "$tmp/build/"
cd "$tmp" || exit 0
base=$(basename "$build")
mk() { make --no-print-directory -s BUILD="$build" CC="${base%-*}" MODE="${base##*-}" "$@"; }

# "demo", unless this tree already has a game of that name (a tree where
# someone ran make new-game NAME=demo): then "demo-kit".
name=demo
[ -d "$root/games/demo" ] && name=demo-kit
ident=${name//-/_}
before=$(grep -c '^GAME(' "$root/core/games.def")
out=$(tools/new-game bad_name 2>&1) && bad "NAME=bad_name accepted" || ok "a NAME with _ is refused: $out"
if ! out=$(mk new-game NAME=$name 2>&1); then
  bad "make new-game NAME=$name: $out"
  exit 0
fi
[ -f "games/$name/$ident.c" ] && [ -f "games/$name/spec.md" ] && ok "make new-game NAME=$name copies games/template" ||
  bad "no games/$name/$ident.c"
changes=$(diff "$root/core/games.def" core/games.def | grep -E '^[<>]')
[ "$changes" = "> GAME(${ident}_game)" ] && grep -qx "GAME(${ident}_game)" core/games.def && ok "registers it with one row: GAME(${ident}_game)" ||
  bad "core/games.def: $(tail -2 core/games.def)"
mk new-game NAME=$name >/dev/null 2>&1 && bad "a second new-game NAME=$name accepted" || ok "a name in use is refused"

start=$EPOCHREALTIME
if ! out=$(mk -j2 "$build/replayd" lib 2>&1); then
  bad "the copy does not build: $(echo "$out" | tail -8)"
  exit 0
fi
ok "the copy builds in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
gen=$("$build/replayd" gen "$name" 1 1 2>&1)
[ "$gen" = '{"game":"'"$name"'","version":1,"level":1,"seed":1,"cells":4,"limit_ms":10000,"prize":3,"plan":[{"t":1000,"cell":3}]}' ] &&
  ok "replayd gen $name 1 1: $gen" || bad "gen: $gen"
if out=$(tools/conform --ref "$build/conform-ref" --vectors "games/$name" --games "$name" --seeds 10 -- \
         "$build/conform-ref" 2>&1) && echo "$out" | grep -qE "^$name +20/20 +10/10 +pass$"; then
  ok "the conformance runner passes its vectors and 10 held-out seeds: $(echo "$out" | grep "^$name " | tr -s ' ')"
else
  bad "conform: $(echo "$out" | tail -12)"
fi

port=$((20000 + RANDOM % 20000))
"$build/replayd" serve --listen "127.0.0.1:$port" --data "$tmp/data" \
  --set plausibility_slack_ms=600000 --set drain_grace_s=0 >"$tmp/server.log" 2>&1 &
pid=$!
games=""
for _ in $(seq 1 50); do
  games=$(curl -fsS "http://127.0.0.1:$port/v1/games" 2>/dev/null) && break
  sleep 0.1
done
echo "$games" | NAME="$name" BEFORE="$before" node -e '
  const j = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const list = Array.isArray(j) ? j : j.games;
  const d = list.find((g) => g.name === process.env.NAME);
  process.exit(d && d.levels === 15 && list.length === Number(process.env.BEFORE) + 1 ? 0 : 1)' 2>/dev/null &&
  ok "GET /v1/games lists $name (15 levels) beside the $before other games" || bad "GET /v1/games: ${games:0:300} $(tail -3 "$tmp/server.log")"

# A seed for the new game, its plan (from replayd gen) submitted and scored.
api="http://127.0.0.1:$port"
token=$(curl -fsS -X POST "$api/v1/players" -H 'Content-Type: application/json' -d '{"name":"demo player"}' |
  node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).token)')
seed=$(curl -fsS -X POST "$api/v1/seeds" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"game":"'"$name"'","level":5}')
value=$(echo "$seed" | node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).seed))')
st=$(echo "$seed" | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")).seed_token)')
plan=$("$build/replayd" gen "$name" 5 "$value" | node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0, "utf8")).plan))')
score=$(curl -sS -X POST "$api/v1/scores" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"seed_token\":\"$st\",\"moves\":$plan}")
echo "$score" | grep -q '"verified":true' && echo "$score" | grep -q '"score":100,' &&
  ok "a $name run (its plan) is submitted and scores 100" || bad "submit: $score"
