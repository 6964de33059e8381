// The daily challenge: derivation, one token per player per UTC day, the
// grace window after the day ends, and the daily board. The server's clock
// is shifted (clock_offset_s) to stand just before midnight.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, replayCli, dailyOf as cliDaily } from './harness.mjs';
import { checkReveal } from '../../vectors/port/sealed.mjs';

const dir = mkdtempSync(join(tmpdir(), 'replayd-daily-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86400;
const nowS = Math.floor(Date.now() / 1000);
// Server time 23:59:50 UTC of today.
const toMidnight = DAY - (nowS % DAY);
const beforeMidnight = toMidnight - 10;
const today = new Date((nowS + beforeMidnight) * 1000).toISOString().slice(0, 10);
const tomorrow = new Date((nowS + beforeMidnight + DAY) * 1000).toISOString().slice(0, 10);

// new_account_runs=0: the daily's mechanics here, the new-account hold in newaccount.test.mjs
async function withServer(offset, fn) {
  const srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offset}`, '--set', 'daily_grace_s=3600', '--set', 'new_account_runs=0'] });
  try { return await fn(srv); } finally { await srv.stop(); }
}

test('daily flow across midnight and the grace window', async () => {
  let early, late, tokEarly, tokLate, commitment;
  await withServer(beforeMidnight, async (srv) => {
    const d = await call(srv, 'GET', '/v1/daily');
    assert.equal(d.status, 200);
    const want = await cliDaily(today);
    assert.equal(d.json.date, today);
    assert.equal(d.json.game, want.game);
    assert.equal(d.json.level, want.level);
    // sealed from the deployment's first day: not the public derivation, and checkable
    assert.equal(d.json.sealed, true);
    assert.notEqual(d.json.seed, want.seed);
    assert.equal(checkReveal(today, d.json.reveal, d.json.commitment), d.json.seed);
    assert.equal(d.json.resets_at, `${tomorrow}T00:00:00.000Z`);
    // sealed (the default): tomorrow is only a commitment until midnight
    const other = await call(srv, 'GET', `/v1/daily?date=${tomorrow}`);
    assert.equal(other.json.seed, undefined);
    assert.equal(other.json.sealed, true);
    commitment = other.json.commitment;

    early = await register(srv, 'early');
    late = await register(srv, 'late');
    tokEarly = await seed(srv, early.token, { daily: true });
    assert.equal(tokEarly.date, today);
    assert.equal(tokEarly.seed, d.json.seed, "the token plays the sealed seed GET /v1/daily revealed");
    assert.equal(tokEarly.game, want.game);
    assert.equal(tokEarly.level, want.level);
    const again = await call(srv, 'POST', '/v1/seeds', { token: early.token, body: { daily: true } });
    assert.equal(again.status, 200, 'asking again returns the same outstanding token');
    assert.equal(again.json.seed_token, tokEarly.seed_token);
    tokLate = await seed(srv, late.token, { daily: true });
  });

  // One minute after midnight: inside the grace window, yesterday's token still counts.
  await withServer(beforeMidnight + 70, async (srv) => {
    const moves = await solve(tokEarly.game, tokEarly.level, tokEarly.seed);
    const r = await call(srv, 'POST', '/v1/scores', { token: early.token, body: { seed_token: tokEarly.seed_token, moves } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.date, today);
    assert.equal(r.json.score, (await replayCli(tokEarly.game, tokEarly.level, tokEarly.seed, moves)).score);
    assert.equal(r.json.rank, 1);
    const redeemed = await call(srv, 'POST', '/v1/seeds', { token: early.token, body: { daily: true } });
    assert.equal(redeemed.status, 201, 'a new day gives a new daily token');
    assert.equal(redeemed.json.date, tomorrow);
    // the day opened: its seed is the one the commitment sealed
    const opened = await call(srv, 'GET', '/v1/daily');
    assert.equal(opened.json.commitment, commitment);
    assert.equal(checkReveal(tomorrow, opened.json.reveal, commitment), redeemed.json.seed);
    const board = await call(srv, 'GET', `/v1/leaderboards/daily/${today}`);
    assert.equal(board.status, 200);
    assert.equal(board.json.date, today);
    assert.equal(board.json.entries.length, 1);
    assert.equal(board.json.entries[0].player_id, early.player_id);
    const me = await call(srv, 'GET', `/v1/leaderboards/daily/${today}/me`, { token: early.token });
    assert.equal(me.status, 200);
    assert.equal(me.json.rank, 1);
    const notMe = await call(srv, 'GET', `/v1/leaderboards/daily/${today}/me`, { token: late.token });
    assert.equal(notMe.status, 404);
    const empty = await call(srv, 'GET', `/v1/leaderboards/daily/${tomorrow}`);
    assert.equal(empty.json.entries.length, 0);
  });

  // Past the grace window: refused as expired.
  await withServer(beforeMidnight + 3600 + 70, async (srv) => {
    const moves = await solve(tokLate.game, tokLate.level, tokLate.seed);
    const r = await call(srv, 'POST', '/v1/scores', { token: late.token, body: { seed_token: tokLate.seed_token, moves } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'token_expired');
  });
});

test('a redeemed daily cannot be drawn again the same day', async () => {
  const d2 = mkdtempSync(join(tmpdir(), 'replayd-daily2-'));
  const srv = await startServer({ dataDir: d2, args: ['--set', 'plausibility_slack_ms=600000'] });
  try {
    const p = await register(srv, 'once');
    const t = await seed(srv, p.token, { daily: true });
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves: await solve(t.game, t.level, t.seed) } });
    assert.equal(r.status, 200, r.text);
    const again = await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { daily: true } });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'daily_already_played');
  } finally { await srv.stop(); rmSync(d2, { recursive: true, force: true }); }
});
