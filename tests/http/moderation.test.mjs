// Operators' actions (issue 11): void and restore re-rank a board in one
// step while readers keep reading; ban takes a player off the daily and
// level boards and refuses new tokens and scores (403 banned), unban puts
// the entries back; rename; rejections and the player view; every action
// in the append-only admin_log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, solveSchulte, ADMIN_TOKEN, dbExec, sharedRanks } from './harness.mjs';

let srv;
// No waiting for runs to take their claimed time: the slack covers it.
// new_account_runs=0: the accounts here are minutes old (the hold: newaccount.test.mjs)
before(async () => { srv = await startServer({ admin: ADMIN_TOKEN, args: ['--set', 'plausibility_slack_ms=600000', '--set', 'new_account_runs=0'] }); });
after(async () => { await srv.stop(); srv.cleanup(); });

const admin = (method, path, body, offContract = false) => call(srv, method, path, { token: ADMIN_TOKEN, body, offContract });

// One Schulte level-1 run whose score is set by the tap gap (9 numbers:
// a gap of g ms finishes at 9g, score 1000 + (30000 - 9g) div 100).
async function play(player, gap, level = 1) {
  const s = await seed(srv, player.token, { game: 'schulte', level });
  const moves = await solveSchulte(level, s.seed, gap);
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

async function board(path) {
  const r = await call(srv, 'GET', `${path}?limit=100`);
  assert.equal(r.status, 200, r.text);
  return r.json.entries;
}

// A board read is whole: ranks 1..n with no gap (equal scores sharing
// one), each player once.
function assertWhole(entries, what) {
  const ranks = sharedRanks(entries);
  entries.forEach((e, i) => assert.equal(e.rank, ranks[i], `${what}: rank ${ranks[i]} is ${e.rank}`));
  assert.equal(new Set(entries.map((e) => e.player_id)).size, entries.length, `${what}: a player twice`);
  for (let i = 1; i < entries.length; i++) assert.ok(entries[i - 1].score >= entries[i].score, `${what}: order`);
}

async function logOf() {
  const r = await admin('GET', '/v1/admin/log?limit=200');
  assert.equal(r.status, 200, r.text);
  return r.json.items;
}

test('void of a rank-1 level score: the next best takes its place, ranks move up, readers never see a gap or a duplicate; restore puts it back', async () => {
  const level = 2;
  const [a, b, c, d] = await Promise.all(['ace', 'bee', 'cee', 'dee'].map((n) => register(srv, n)));
  const aBest = await play(a, 200, level);
  const aNext = await play(a, 240, level);
  await play(b, 220, level);
  await play(c, 300, level);
  await play(d, 400, level);
  const path = `/v1/leaderboards/schulte/${level}`;
  const before = await board(path);
  assertWhole(before, 'before');
  assert.deepEqual(before.map((e) => e.player_id), [a.player_id, b.player_id, c.player_id, d.player_id]);
  assert.equal(before[0].score_id, aBest.score_id);
  assert.ok(aNext.score < before[1].score && aNext.score > before[2].score, 'a\'s next best lies between b and c');

  // Three readers in a loop (bounded) while voids and restores commit:
  // every answer whole, always 4 entries, a's entry either its best or its
  // next best and never both.
  let stop = false, reads = 0;
  const reader = async () => {
    for (let i = 0; i < 5000 && !stop; i++) {
      const e = await board(path);
      assertWhole(e, `read ${i}`);
      assert.equal(e.length, 4, `read ${i}: ${e.length} entries`);
      const mine = e.filter((x) => x.player_id === a.player_id).map((x) => x.score_id);
      assert.ok(mine[0] === aBest.score_id || mine[0] === aNext.score_id, `read ${i}: ${mine}`);
      reads++;
    }
  };
  const readers = [reader(), reader(), reader()];
  for (let cycle = 0; cycle < 5; cycle++) {
    const v = await admin('POST', `/v1/admin/scores/${aBest.score_id}/void`, { reason: 'cycle' });
    assert.equal(v.status, 200, v.text);
    const r = await admin('POST', `/v1/admin/scores/${aBest.score_id}/restore`, { reason: 'cycle' });
    assert.equal(r.status, 200, r.text);
  }
  const voided = await admin('POST', `/v1/admin/scores/${aBest.score_id}/void`, { reason: 'scripted run', operator: 'mod-anna' });
  assert.equal(voided.status, 200, voided.text);
  assert.equal(voided.json.boards.length, 1);
  assert.equal(voided.json.boards[0].entry.score_id, aNext.score_id, 'the board takes a\'s next best');
  for (let i = 0; i < 20; i++) await board(path); // a few reads after the commit too
  stop = true;
  await Promise.all(readers);
  assert.ok(reads >= 20, `the readers read while the voids ran (${reads})`);
  console.log(`board reads during 11 voids and restores: ${reads}`);

  const afterVoid = await board(path);
  assertWhole(afterVoid, 'after void');
  assert.deepEqual(afterVoid.map((e) => e.player_id), [b.player_id, a.player_id, c.player_id, d.player_id]);
  assert.equal(afterVoid[1].score_id, aNext.score_id);
  // a's own "me" view follows
  const me = await call(srv, 'GET', `${path}/me`, { token: a.token });
  assert.equal(me.json.rank ?? me.json.entry?.rank ?? me.json.me?.rank, 2, me.text);

  // The audit says voided, and why.
  const audit = await call(srv, 'GET', `/v1/scores/${aBest.score_id}`);
  assert.equal(audit.json.status, 'voided');
  assert.equal(audit.json.void_reason, 'scripted run');
  const again = await admin('POST', `/v1/admin/scores/${aBest.score_id}/void`, { reason: 'twice' });
  assert.equal(again.status, 409);
  assert.equal(again.json.error.code, 'already_voided');
  assert.equal((await admin('POST', `/v1/admin/scores/${aBest.score_id}/void`, {}, true)).json.error.code, 'reason_required');

  const restored = await admin('POST', `/v1/admin/scores/${aBest.score_id}/restore`, { reason: 'appeal upheld' });
  assert.equal(restored.status, 200, restored.text);
  const afterRestore = await board(path);
  assertWhole(afterRestore, 'after restore');
  assert.deepEqual(afterRestore.map((e) => e.score_id), before.map((e) => e.score_id));
  assert.equal((await admin('POST', `/v1/admin/scores/${aBest.score_id}/restore`)).json.error.code, 'not_voided');
  assert.equal((await admin('POST', '/v1/admin/scores/00000000000000000000000000000000/void', { reason: 'x' })).status, 404);

  // A void with nothing else to take its place: the player leaves the board.
  const dOnly = afterRestore[3];
  assert.equal((await admin('POST', `/v1/admin/scores/${dOnly.score_id}/void`, { reason: 'test' })).status, 200);
  const three = await board(path);
  assertWhole(three, 'after d leaves');
  assert.deepEqual(three.map((e) => e.player_id), [a.player_id, b.player_id, c.player_id]);

  const log = await logOf();
  const mine = log.filter((l) => l.target === aBest.score_id);
  assert.deepEqual(mine.map((l) => l.action), [...Array(5).fill(['void', 'restore']).flat(), 'void', 'restore']);
  const named = mine[10];
  assert.equal(named.reason, 'scripted run');
  assert.match(named.actor, /^mod-anna@127\.0\.0\.1$/);
  assert.equal(typeof named.at_ms, 'number');
  assert.equal(named.detail.board_entry_seq > 0, true);
  assert.match(mine[0].actor, /^admin@/);
});

test('ban: entries leave the daily and level boards, tokens and scores are refused 403 banned; unban puts them back', async () => {
  const level = 3;
  const [x, y] = await Promise.all([register(srv, 'banned-one'), register(srv, 'honest-one')]);
  await play(x, 200, level);
  await play(y, 300, level);
  // x plays today's daily (one solver run: a second player's identical run would be a duplicate)
  const daily = await seed(srv, x.token, { daily: true });
  const dmoves = await solve(daily.game, daily.level, daily.seed, daily.version);
  const dr = await call(srv, 'POST', '/v1/scores', { token: x.token, body: { seed_token: daily.seed_token, moves: dmoves } });
  assert.equal(dr.status, 200, dr.text);
  const date = daily.date;
  const levelPath = `/v1/leaderboards/schulte/${level}`, dailyPath = `/v1/leaderboards/daily/${date}`;
  const inBoth = async (id) => [(await board(levelPath)).some((e) => e.player_id === id),
    (await board(dailyPath)).some((e) => e.player_id === id)];
  assert.deepEqual(await inBoth(x.player_id), [true, true]);
  const pending = await seed(srv, x.token, { game: 'schulte', level }); // a token issued before the ban

  const ban = await admin('POST', `/v1/admin/players/${x.player_id}/ban`, { reason: 'bot' });
  assert.equal(ban.status, 200, ban.text);
  assert.equal(ban.json.boards.length, 2);
  assert.ok(ban.json.boards.every((bd) => bd.entry === null));
  assert.deepEqual(await inBoth(x.player_id), [false, false]);
  assert.ok((await board(levelPath)).some((e) => e.player_id === y.player_id));
  assertWhole(await board(levelPath), 'level after ban');
  assertWhole(await board(dailyPath), 'daily after ban');

  const refusedSeed = await call(srv, 'POST', '/v1/seeds', { token: x.token, body: { game: 'schulte', level } });
  assert.equal(refusedSeed.status, 403);
  assert.equal(refusedSeed.json.error.code, 'banned');
  const refusedScore = await call(srv, 'POST', '/v1/scores',
    { token: x.token, body: { seed_token: pending.seed_token, moves: await solveSchulte(level, pending.seed, 200) } });
  assert.equal(refusedScore.status, 403);
  assert.equal(refusedScore.json.error.code, 'banned');
  assert.equal((await admin('POST', `/v1/admin/players/${x.player_id}/ban`, { reason: 'again' })).json.error.code, 'already_banned');
  const view = await admin('GET', `/v1/admin/players/${x.player_id}`);
  assert.equal(view.json.banned, true);

  const unban = await admin('POST', `/v1/admin/players/${x.player_id}/unban`, { reason: 'appeal' });
  assert.equal(unban.status, 200, unban.text);
  assert.deepEqual(await inBoth(x.player_id), [true, true]);
  assertWhole(await board(levelPath), 'level after unban');
  assert.equal((await admin('POST', `/v1/admin/players/${x.player_id}/unban`)).json.error.code, 'not_banned');
  assert.equal((await admin('POST', '/v1/admin/players/999999/ban', { reason: 'nobody' })).status, 404);

  const log = await logOf();
  const mine = log.filter((l) => l.target === `player:${x.player_id}`).map((l) => [l.action, l.reason]);
  assert.deepEqual(mine, [['ban', 'bot'], ['unban', 'appeal']]);
});

test('rename, the player view (404 for nobody, counts), rejections paged and filtered, admin_log append-only and complete', async () => {
  const p = await register(srv, 'rude name');
  const other = await register(srv, 'other');
  await play(p, 300, 4);
  // three rejected replays: a tap on a wrong cell at t=0 breaks the first floor
  for (const who of [p, p, other]) {
    const s = await seed(srv, who.token, { game: 'schulte', level: 4 });
    const r = await call(srv, 'POST', '/v1/scores', { token: who.token, body: { seed_token: s.seed_token, moves: [{ t: 1, cell: 0 }] } });
    assert.equal(r.status, 422, r.text);
  }
  const renamed = await admin('POST', `/v1/admin/players/${p.player_id}/rename`, { name: 'Player 7', reason: 'offensive name' });
  assert.equal(renamed.status, 200, renamed.text);
  const entries = await board('/v1/leaderboards/schulte/4');
  assert.equal(entries.find((e) => e.player_id === p.player_id).name, 'Player 7', 'the board shows the new name');
  assert.equal((await admin('POST', `/v1/admin/players/${p.player_id}/rename`, { name: '', reason: 'x' }, true)).json.error.code, 'bad_name');
  assert.equal((await admin('POST', `/v1/admin/players/${p.player_id}/rename`, { name: 'ok' }, true)).json.error.code, 'reason_required');

  assert.equal((await admin('GET', '/v1/admin/players/987654')).status, 404);
  const view = await admin('GET', `/v1/admin/players/${p.player_id}`);
  assert.equal(view.status, 200, view.text);
  assert.equal(view.json.name, 'Player 7');
  assert.deepEqual(view.json.counts, { issued: 3, completed: 1, forfeited: 0, abandoned: 0, rejected: 2, voided: 0 });

  const all = await admin('GET', `/v1/admin/rejections?player=${p.player_id}&limit=1`);
  assert.equal(all.status, 200, all.text);
  assert.equal(all.json.items.length, 1);
  assert.ok(all.json.next_cursor);
  const page2 = await admin('GET', `/v1/admin/rejections?player=${p.player_id}&limit=1&cursor=${all.json.next_cursor}`);
  assert.equal(page2.json.items.length, 1);
  assert.equal(page2.json.next_cursor, null);
  assert.ok(page2.json.items[0].id < all.json.items[0].id, 'newest first');
  for (const it of [...all.json.items, ...page2.json.items]) {
    assert.equal(it.player_id, p.player_id);
    assert.equal(it.game, 'schulte');
    assert.equal(typeof it.reason, 'string');
  }
  const later = await admin('GET', `/v1/admin/rejections?game=schulte&since=${Date.now() + 60000}`);
  assert.deepEqual(later.json.items, []);
  const byGame = await admin('GET', '/v1/admin/rejections?game=pipes');
  assert.ok(byGame.json.items.every((it) => it.game === 'pipes'));
  assert.equal((await admin('GET', '/v1/admin/rejections?cursor=x')).status, 400);
  assert.equal((await admin('GET', '/v1/admin/rejections?game=nope', undefined, true)).status, 404);

  const log = await logOf();
  const rename = log.find((l) => l.action === 'rename' && l.target === `player:${p.player_id}`);
  assert.deepEqual(rename.detail, { from: 'rude name', to: 'Player 7' });
  assert.equal(rename.reason, 'offensive name');
  // every entry has who, what, on what, why, when
  for (const l of log) for (const k of ['id', 'at_ms', 'actor', 'action', 'target', 'reason']) assert.ok(k in l, k);
  assert.equal((await call(srv, 'GET', '/v1/admin/log')).status, 401, 'the log is behind the admin token');
  // append-only: the database itself refuses to change or drop a row
  for (const sql of ["UPDATE admin_log SET reason = 'edited'", 'DELETE FROM admin_log']) {
    const r = await dbExec(srv.dir, sql);
    assert.notEqual(r.status, 0, sql);
    assert.match(r.stderr, /admin_log is append-only/);
  }
  assert.equal((await logOf()).length, log.length, 'nothing changed');
});

test('the database agrees with the boards in memory: after a restart the boards load as the actions left them', async () => {
  const one = await startServer({ admin: ADMIN_TOKEN, args: ['--set', 'plausibility_slack_ms=600000'] });
  const dir = one.dir;
  const level = 5;
  const runOn = async (s, p, gap) => {
    const t = await seed(s, p.token, { game: 'schulte', level });
    const r = await call(s, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves: await solveSchulte(level, t.seed, gap) } });
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const path = `/v1/leaderboards/schulte/${level}`;
  const read = async (s) => (await call(s, 'GET', path)).json.entries.map((e) => e.score_id);
  let a, b, best, next, other, live;
  try {
    [a, b] = [await register(one, 'a'), await register(one, 'b')];
    best = await runOn(one, a, 200);
    next = await runOn(one, a, 260);
    other = await runOn(one, b, 230);
    assert.deepEqual(await read(one), [best.score_id, other.score_id]);
    assert.equal((await call(one, 'POST', `/v1/admin/scores/${best.score_id}/void`, { token: ADMIN_TOKEN, body: { reason: 'x' } })).status, 200);
    assert.equal((await call(one, 'POST', `/v1/admin/players/${b.player_id}/ban`, { token: ADMIN_TOKEN, body: { reason: 'y' } })).status, 200);
    live = await read(one);
    assert.deepEqual(live, [next.score_id]);
  } finally { await one.stop(); }
  const two = await startServer({ dataDir: dir, admin: ADMIN_TOKEN });
  try {
    assert.deepEqual(await read(two), live, 'loaded from the database: the same board');
    assert.equal((await call(two, 'POST', `/v1/admin/players/${b.player_id}/unban`, { token: ADMIN_TOKEN })).status, 200);
    assert.equal((await call(two, 'POST', `/v1/admin/scores/${best.score_id}/restore`, { token: ADMIN_TOKEN })).status, 200);
    assert.deepEqual(await read(two), [best.score_id, other.score_id]);
  } finally { await two.stop(); two.cleanup(); }
});

// Issue 39: an action that fails after it has written must leave nothing
// behind, on both backends. A ban settles the player's boards after it
// marks the player; a score of a game this build does not serve (a game
// retired from the build while its rows remain) makes the settling fail.
// The ban answers an error, the player is not banned, admin_log has no
// row, the boards are as they were, a retry answers the same, and each
// attempt logs its store_error once.
test('a ban that fails after writing commits nothing (SQLite and PostgreSQL alike); its retry answers the same', async () => {
  const [p, q] = [await register(srv, 'retired-game player'), await register(srv, 'bystander')];
  const level = 6;
  const kept = await play(p, 210, level); // on the board, and stays there
  const gone = await play(p, 250, level); // its row will name a retired game
  await play(q, 230, level);
  const path = `/v1/leaderboards/schulte/${level}`;
  const beforeBoard = await board(path);
  const beforeLog = (await logOf()).length;
  const sql = await dbExec(srv.dir, `UPDATE scores SET game = 'retired-game' WHERE score_id = '${gone.score_id}'`);
  assert.equal(sql.status, 0, sql.stderr);
  const errorsBefore = (srv.stderr().match(/"event":"store_error"/g) || []).length;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const r = await admin('POST', `/v1/admin/players/${p.player_id}/ban`, { reason: 'half-commit test' });
    assert.equal(r.status, 500, `attempt ${attempt}: ${r.text}`);
    assert.equal(r.json.error.code, 'internal', r.text);
    const view = await admin('GET', `/v1/admin/players/${p.player_id}`);
    assert.equal(view.json.banned, false, `attempt ${attempt}: not banned`);
    assert.equal((await logOf()).length, beforeLog, `attempt ${attempt}: no admin_log row`);
    assert.deepEqual((await board(path)).map((e) => e.score_id), beforeBoard.map((e) => e.score_id));
    assert.ok((await board(path)).some((e) => e.score_id === kept.score_id));
    // the player still plays: a ban that did not commit refuses nothing
    assert.equal((await seed(srv, p.token, { game: 'schulte', level: 1 })).seed_token.length > 0, true);
    const errors = (srv.stderr().match(/"event":"store_error"/g) || []).length;
    assert.equal(errors - errorsBefore, attempt, `one store_error line an attempt:\n${srv.stderr().split('\n').filter((l) => l.includes('store_error')).join('\n')}`);
  }
  // with the row put back, the ban goes through
  assert.equal((await dbExec(srv.dir, `UPDATE scores SET game = 'schulte' WHERE score_id = '${gone.score_id}'`)).status, 0);
  const ok = await admin('POST', `/v1/admin/players/${p.player_id}/ban`, { reason: 'half-commit test, mended' });
  assert.equal(ok.status, 200, ok.text);
  assert.ok(!(await board(path)).some((e) => e.player_id === p.player_id));
  assert.equal((await logOf()).length, beforeLog + 1);
});
