// Fair play: each cheat of the fair-play issue, tried as a cheater would
// against a server on default settings, is refused or flagged; the honest
// path keeps working with realistic network delay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, solveSchulte, solvePipes, awaitRun, sleep, dailyOf }
  from './harness.mjs';

const ADMIN = 'fair-play-admin-credential-0123456789abcdef';
const DAY_MS = 86400000;
const admin = (srv, path) => call(srv, 'GET', path, { token: ADMIN });

// A run of one's own: the same solution at another pace (the daily seed is
// the same for everyone, so a pace is what makes two honest runs differ).
async function ownRun(game, level, seedValue, gap) {
  if (game === 'schulte') return solveSchulte(level, seedValue, gap);
  if (game === 'pipes') return solvePipes(level, seedValue, gap);
  throw new Error(`no paced solver for ${game}`);
}

// Noon UTC of a date, as a clock offset from now.
const offsetTo = (date) => Math.floor(Date.parse(`${date}T12:00:00Z`) / 1000) - Math.floor(Date.now() / 1000);

test('copying the daily: moves private until the day closes, a copied run refused, daily scores off the level boards', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-fair-'));
  // new_account_runs=0: copying, not account age, is what this plays (newaccount.test.mjs)
  let srv = await startServer({ dataDir: dir, admin: ADMIN, args: ['--set', 'new_account_runs=0'] });
  try {
    const leader = await register(srv, 'leader');
    const copier = await register(srv, 'copier');
    const t = await seed(srv, leader.token, { daily: true });
    const moves = await ownRun(t.game, t.level, t.seed, 330);
    await awaitRun(t, moves);
    const first = await call(srv, 'POST', '/v1/scores', { token: leader.token, body: { seed_token: t.seed_token, moves } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.status, 'ranked');

    // The cheater reads the board and the leader's audit: no moves yet.
    const board = await call(srv, 'GET', `/v1/leaderboards/daily/${t.date}`);
    assert.equal(board.json.entries[0].score_id, first.json.score_id);
    const audit = await call(srv, 'GET', `/v1/scores/${first.json.score_id}`);
    assert.equal(audit.status, 200);
    assert.equal(audit.json.moves_public, false);
    assert.equal(audit.json.moves, null);
    assert.equal(Date.parse(audit.json.moves_public_at), Date.parse(`${t.date}T00:00:00Z`) + DAY_MS + 3600 * 1000,
      'public from the end of the day plus the grace window');
    assert.equal(audit.json.moves_hash, first.json.moves_hash, 'the hash and the receipt stay public');

    // Moves that leaked some other way: the identical run is refused.
    const ct = await seed(srv, copier.token, { daily: true });
    assert.equal(ct.seed, t.seed);
    await awaitRun(ct, moves);
    const copied = await call(srv, 'POST', '/v1/scores', { token: copier.token, body: { seed_token: ct.seed_token, moves } });
    assert.equal(copied.status, 409, copied.text);
    assert.equal(copied.json.error.code, 'duplicate_run');
    // ... and the copier's token is still good for a run of their own.
    const own = await ownRun(ct.game, ct.level, ct.seed, 340);
    await awaitRun(ct, own);
    const honest = await call(srv, 'POST', '/v1/scores', { token: copier.token, body: { seed_token: ct.seed_token, moves: own } });
    assert.equal(honest.status, 200, honest.text);
    assert.equal(honest.json.rank, 2);

    // Daily scores go to the daily board only.
    const level = await call(srv, 'GET', `/v1/leaderboards/${t.game}/${t.level}`);
    assert.equal(level.json.total, 0, 'no daily run on the level board');
    const ops = await admin(srv, `/v1/admin/players/${copier.player_id}`);
    assert.equal(ops.json.tokens.completed, 1);
    await srv.stop();

    // Once the day and its grace window have passed, the moves are public.
    const later = Date.parse(audit.json.moves_public_at) + 60000;
    srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${Math.ceil((later - Date.now()) / 1000)}`, '--set', 'new_account_runs=0'] });
    const opened = await call(srv, 'GET', `/v1/scores/${first.json.score_id}`);
    assert.equal(opened.json.moves_public, true);
    assert.deepEqual(opened.json.moves, moves);
  } finally { await srv.stop(); rmSync(dir, { recursive: true, force: true }); }
});

test('copying an untimed daily (Contraption v1): recorded, held off the board, flagged for review', async () => {
  let date = null;
  for (let k = 0; k < 60 && !date; k++) {
    const d = new Date(Date.parse('2026-12-07T00:00:00Z') + k * DAY_MS).toISOString().slice(0, 10);
    if ((await dailyOf(d)).game === 'contraption') date = d;
  }
  assert.ok(date, 'a Contraption day in the first 60 days of era 2');
  const srv = await startServer({ args: ['--set', `clock_offset_s=${offsetTo(date)}`, '--set', 'issue_versions=contraption=1',
    '--set', 'new_account_runs=0'], admin: ADMIN });
  try {
    const a = await register(srv, 'builder');
    const b = await register(srv, 'tracer');
    const ta = await seed(srv, a.token, { daily: true });
    const tb = await seed(srv, b.token, { daily: true });
    assert.equal(ta.game, 'contraption');
    const plan = await solve('contraption', ta.level, ta.seed, ta.version);
    const ra = await call(srv, 'POST', '/v1/scores', { token: a.token, body: { seed_token: ta.seed_token, moves: plan } });
    assert.equal(ra.status, 200, ra.text);
    assert.equal(ra.json.status, 'ranked');
    const rb = await call(srv, 'POST', '/v1/scores', { token: b.token, body: { seed_token: tb.seed_token, moves: plan } });
    assert.equal(rb.status, 200, rb.text);
    assert.equal(rb.json.status, 'held');
    assert.equal(rb.json.rank, null, 'never ranked beside the original');
    const board = await call(srv, 'GET', `/v1/leaderboards/daily/${date}`);
    assert.equal(board.json.total, 1);
    const review = await admin(srv, `/v1/admin/scores/${rb.json.score_id}`);
    assert.equal(review.status, 200, review.text);
    assert.equal(review.json.status, 'held');
    assert.ok(review.json.duplicate_of_seq > 0);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('time that means something: no free slack; a human-paced run with network delay is accepted', async () => {
  const srv = await startServer();
  try {
    const p = await register(srv, 'sprinter');
    // A bot's run of 49 taps at 100 ms: under the game's own floors. Level
    // 12 (7x7, no reshuffles): solved from one gen, so the solve takes no
    // time to speak of even under ASan (a reshuffling level replays once
    // per move: under ASan at load 10, longer than the run claims, and the
    // run below was then on time)
    const s = await seed(srv, p.token, { game: 'schulte', level: 12 });
    const bot = await solveSchulte(12, s.seed, 100);
    const floor = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: bot } });
    assert.equal(floor.status, 422, floor.text);
    assert.equal(floor.json.error.reason, 'too_fast');
    // The same bot at a pace the floors allow, sent 200 ms after the seed:
    // the run claims far more time than has passed.
    const paced = await solveSchulte(12, s.seed, 310);
    await sleep(200);
    const fast = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: paced } });
    assert.equal(fast.status, 422, fast.text);
    assert.equal(fast.json.error.reason, 'duration_exceeds_elapsed');
    // The old 2 s of free slack: a run claiming 1.5 s more than has passed.
    const s2 = await seed(srv, p.token, { game: 'schulte', level: 1 });
    const run = await solveSchulte(1, s2.seed, 300);
    const claimed = run[run.length - 1].t;
    await sleep(claimed - 1500);
    const early = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s2.seed_token, moves: run } });
    assert.equal(early.status, 422, early.text);
    // The honest player: 150 ms for the token to arrive and the level to
    // draw, the run, 150 ms to send it.
    const s3 = await seed(srv, p.token, { game: 'pipes', level: 2 });
    await sleep(150);
    const mine = await solvePipes(2, s3.seed, 300);
    await sleep(mine[mine.length - 1].t + 150);
    const ok = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s3.seed_token, moves: mine } });
    assert.equal(ok.status, 200, ok.text);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('seed shopping: forfeits and open tokens counted, capped per level and day; the daily is exempt', async () => {
  const srv = await startServer({ admin: ADMIN });
  try {
    const p = await register(srv, 'shopper');
    let refused = null;
    let forfeits = 0;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'pipes', level: 15 } });
      if (r.status === 429) { refused = r; break; }
      assert.equal(r.status, 201, r.text);
      // A look at the board, then give up at once.
      const quit = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: r.json.seed_token, moves: [] } });
      assert.equal(quit.status, 200, quit.text);
      assert.equal(quit.json.completed, false);
      forfeits++;
    }
    assert.ok(refused, 'the shopping stops');
    assert.equal(refused.json.error.code, 'too_many_forfeits');
    assert.equal(forfeits, 10, 'the default cap: 10 forfeits, abandons and open tokens per level per day');
    const ops = await admin(srv, `/v1/admin/players/${p.player_id}`);
    assert.equal(ops.json.tokens.forfeited, 10, 'the trail is visible');
    assert.equal(ops.json.tokens.issued, 10);
    // Another level is not affected, and the daily never is.
    assert.equal((await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'pipes', level: 14 } })).status, 201);
    const d = await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { daily: true } });
    assert.equal(d.status, 201, d.text);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('rehearsal: a run started long after its token was issued is recorded as a signal', async () => {
  const srv = await startServer({ args: ['--set', 'rehearsal_bound_ms=1500'], admin: ADMIN });
  try {
    const p = await register(srv, 'rehearser');
    const s = await seed(srv, p.token, { game: 'pipes', level: 3 });
    const moves = await solvePipes(3, s.seed, 320);
    // 2 s solving it offline first, then the run itself
    await sleep(2000 + moves[moves.length - 1].t + 30);
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
    assert.equal(r.status, 200, r.text);
    const seen = await admin(srv, `/v1/admin/scores/${r.json.score_id}`);
    assert.equal(seen.json.signals.rehearsal, true, JSON.stringify(seen.json));
    assert.ok(seen.json.signals.idle_ms >= 1500, JSON.stringify(seen.json.signals));
    assert.equal(seen.json.signals.claimed_ms, moves[moves.length - 1].t);
    // Played at once: no signal.
    const s2 = await seed(srv, p.token, { game: 'pipes', level: 3 });
    const m2 = await solvePipes(3, s2.seed, 320);
    await awaitRun(s2, m2);
    const r2 = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s2.seed_token, moves: m2 } });
    assert.equal((await admin(srv, `/v1/admin/scores/${r2.json.score_id}`)).json.signals.rehearsal, false);
  } finally { await srv.stop(); srv.cleanup(); }
});
