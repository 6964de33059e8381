// Leaderboards: order (score, then the earlier submission), ties, cursor
// pages both ways and under concurrent inserts, around-me, per-level bests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, solveSchulte, replayCli, sharedRanks } from './harness.mjs';

let srv;
after(async () => { await srv.stop(); srv.cleanup(); });

// One Schulte level-3 run whose score is set by the tap gap.
async function play(player, gap, level = 3) {
  const s = await seed(srv, player.token, { game: 'schulte', level });
  const moves = await solveSchulte(level, s.seed, gap);
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.score, (await replayCli('schulte', level, s.seed, moves)).score);
  return r.json;
}

async function pages(path, limit) {
  const out = [];
  let cursor = null;
  for (let i = 0; i < 100; i++) {
    const r = await call(srv, 'GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(r.status, 200, r.text);
    out.push(r.json);
    cursor = r.json.next_cursor;
    if (!cursor) break;
  }
  return out;
}

// Version 2's finish floor on level 3 is 16 x 200 ms: every gap stays above it.
const gaps = [400, 250, 300, 250, 500, 220, 300, 350, 250, 450, 280, 320];
let players = [];
let submitted = [];

before(async () => {
  srv = await startServer({ args: ['--set', 'plausibility_slack_ms=600000'] });
  for (let i = 0; i < gaps.length; i++) {
    const p = await register(srv, `p${i}`);
    players.push(p);
    submitted.push({ player: p, ...(await play(p, gaps[i])) });
  }
});

test('order is score first, then the earlier submission; equal scores share a rank', async () => {
  const r = await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200');
  assert.equal(r.status, 200);
  const want = [...submitted].map((s, i) => ({ id: s.player.player_id, score: s.score, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  assert.deepEqual(r.json.entries.map((e) => e.player_id), want.map((w) => w.id));
  const ranks = want.map((w) => 1 + want.filter((o) => o.score > w.score).length);
  assert.deepEqual(r.json.entries.map((e) => e.rank), ranks);
  assert.ok(want.some((w, k) => k > 0 && w.score === want[k - 1].score), 'the data has ties');
  // a tie shares a rank, and the next score skips the places the tie took (1, 1, 3)
  const k = want.findIndex((w, i) => i > 0 && w.score === want[i - 1].score);
  assert.equal(r.json.entries[k].rank, r.json.entries[k - 1].rank);
  const after = want.findIndex((w, i) => i > k && w.score < want[k].score);
  if (after > 0) assert.equal(r.json.entries[after].rank, after + 1);
  assert.equal(r.json.total, gaps.length);
  assert.equal(r.json.next_cursor, null);
});

test('cursor pages forwards and backwards give the same board', async () => {
  const all = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  const fwd = await pages('/v1/leaderboards/schulte/3', 5);
  assert.deepEqual(fwd.flatMap((p) => p.entries), all);
  assert.equal(fwd.length, 3);
  // Back from the last page.
  let page = fwd[2];
  const back = [page.entries];
  while (page.prev_cursor) {
    page = (await call(srv, 'GET', `/v1/leaderboards/schulte/3?limit=5&cursor=${page.prev_cursor}`)).json;
    back.unshift(page.entries);
  }
  assert.deepEqual(back.flat(), all);
});

test('a cursor stays correct when scores arrive between pages', async () => {
  const first = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=4')).json;
  const newcomer = await register(srv, 'newcomer');
  players.push(newcomer);
  await play(newcomer, 201); // the best score on the board
  const second = (await call(srv, 'GET', `/v1/leaderboards/schulte/3?limit=4&cursor=${first.next_cursor}`)).json;
  const seen = new Set(first.entries.map((e) => e.score_id));
  assert.ok(second.entries.every((e) => !seen.has(e.score_id)), 'no entry twice');
  const last = first.entries[first.entries.length - 1];
  assert.ok(second.entries.every((e) => e.score <= last.score),
    'the second page continues strictly after the first page\'s last entry');
  const now = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  assert.deepEqual(second.entries.map((e) => e.rank),
    second.entries.map((e) => 1 + now.filter((o) => o.score > e.score).length), 'shared ranks on a later page');
  const moved = now.find((e) => e.score_id === last.score_id);
  assert.equal(moved.rank, last.rank + 1, 'ranks moved down by the newcomer');
});

test('a backwards cursor stays correct when scores arrive between pages', async () => {
  const all = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  const back = (await call(srv, 'GET', `/v1/leaderboards/schulte/3?limit=3&cursor=p.${all[8].score}.0`)).json;
  // A key between entries: the page before it. Then scores land above and below.
  const top = await register(srv, 'late-top');
  players.push(top);
  await play(top, 201);
  const bottom = await register(srv, 'late-bottom');
  players.push(bottom);
  await play(bottom, 900);
  const before = (await call(srv, 'GET', `/v1/leaderboards/schulte/3?limit=3&cursor=${back.prev_cursor}`)).json;
  const ids = new Set(back.entries.map((e) => e.score_id));
  assert.ok(before.entries.every((e) => !ids.has(e.score_id)), 'no entry twice');
  const first = back.entries[0];
  assert.ok(before.entries.every((e) => e.score >= first.score), 'the earlier page is above the later one');
  // Adjacent: the page ends right above the later page's first entry.
  const now = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  const at = now.findIndex((e) => e.score_id === first.score_id);
  assert.equal(before.entries[before.entries.length - 1].score_id, now[at - 1].score_id);
  assert.deepEqual(now.map((e) => e.rank), sharedRanks(now));
});

test('around me includes my entry with neighbours either side', async () => {
  const all = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  const mid = all[6];
  const me = players.find((p) => p.player_id === mid.player_id);
  const r = await call(srv, 'GET', '/v1/leaderboards/schulte/3/me?around=2', { token: me.token });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.rank, sharedRanks(all)[6]);
  assert.deepEqual(r.json.entries.map((e) => e.score_id), all.slice(4, 9).map((e) => e.score_id));
  assert.deepEqual(r.json.entries.map((e) => e.rank), sharedRanks(all).slice(4, 9));
  assert.equal(r.json.me.player_id, me.player_id);
  const top = players.find((p) => p.player_id === all[0].player_id);
  const t = await call(srv, 'GET', '/v1/leaderboards/schulte/3/me?around=3', { token: top.token });
  assert.deepEqual(t.json.entries.map((e) => e.rank), sharedRanks(all).slice(0, 4));
  const bottom = players.find((p) => p.player_id === all[all.length - 1].player_id);
  const b = await call(srv, 'GET', '/v1/leaderboards/schulte/3/me?around=1', { token: bottom.token });
  assert.deepEqual(b.json.entries.map((e) => e.rank), sharedRanks(all).slice(-2));
  const stranger = await register(srv, 'stranger');
  const none = await call(srv, 'GET', '/v1/leaderboards/schulte/3/me', { token: stranger.token });
  assert.equal(none.status, 404);
  const bad = await call(srv, 'GET', '/v1/leaderboards/schulte/3/me?around=1000', { token: me.token, offContract: true });
  assert.equal(bad.status, 400);
});

test('a level board keeps each player\'s best', async () => {
  const p = await register(srv, 'improver');
  const slow = await play(p, 500, 4);
  const fast = await play(p, 201, 4);
  const slower = await play(p, 600, 4);
  assert.ok(fast.score > slow.score && slow.score > slower.score);
  const r = await call(srv, 'GET', '/v1/leaderboards/schulte/4');
  const mine = r.json.entries.filter((e) => e.player_id === p.player_id);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].score, fast.score);
  assert.equal(mine[0].score_id, fast.score_id);
  assert.equal(slower.best, false);
  assert.equal(fast.best, true);
});
