// The new-account hold (issue 25, item 4; issue 37, item 3). The attack:
// register throwaway accounts and flood today's daily with solved runs;
// before issue 25, forty of them took ranks 1-40; before issue 37, ten
// completed level runs at the levels' floors (about 1.5 s of a script's
// time) aged an account past the hold. Now a guest's daily score is held
// (off the board, in the review queue, the answer says why) until the
// account is BOTH new_account_hours old AND has played
// new_account_play_minutes across new_account_levels boards in
// new_account_runs runs, played time being the union of its runs'
// intervals on the server's clock (parallel tokens count once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, solveSchulte, awaitRun, ADMIN_TOKEN } from './harness.mjs';
import { Rng } from '../../vectors/port/core.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const DAY_AND_AN_HOUR = `clock_offset_s=${25 * 3600}`;

// One solved daily run, submitted once its time has passed: a script's
// (every tap `jitter` ms later than the solver's, so no two accounts send
// the same moves), or with `pace` a person's (gaps of 450-750 ms drawn from
// that seed: not the scripts' twin).
async function playDaily(srv, p, jitter = 0, pace = 0) {
  const t = await seed(srv, p.token, { daily: true });
  const r = new Rng(pace);
  let at = 0;
  const moves = (await solve(t.game, t.level, t.seed, t.version))
    .map((m) => ({ ...m, t: pace ? (at += 450 + r.below(301)) : m.t + jitter }));
  await awaitRun(t, moves, 80);
  return call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
}

// One completed Schulte level run: at the level's floors (a script's pace,
// `pace` 0) or with a person's gaps of 450-750 ms drawn from `pace`;
// submitted `holdMs` after the token arrived at the earliest. Answers the
// score and the run's claimed time.
async function playLevel(srv, p, level, pace = 0, holdMs = 0) {
  const t = await seed(srv, p.token, { game: 'schulte', level });
  let moves = await solveSchulte(level, t.seed, undefined, t.version);
  if (pace) {
    const r = new Rng(pace);
    let at = 0;
    moves = moves.map((m) => ({ ...m, t: (at += 450 + r.below(301)) }));
  }
  await awaitRun(t, moves, 80);
  const claimed = moves[moves.length - 1].t;
  if (holdMs > claimed) await sleep(holdMs - claimed);
  const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.completed, true, r.text);
  assert.equal(r.json.status, 'ranked', r.text);
  return { r, claimed };
}

async function signalsOf(srv, scoreId) {
  const audit = await call(srv, 'GET', `/v1/admin/scores/${scoreId}`, { token: ADMIN_TOKEN });
  assert.equal(audit.status, 200, audit.text);
  return audit.json.signals.new_account;
}

test('defaults: a daily flood is held; ten quick level runs no longer age an account, nor does a day without play', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-newacct-'));
  try {
    let srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN });
    let aged;
    try {
      // the ageing script of issue 37: ten completed level-1 runs at the
      // floors, in parallel (about 1.5 s), then the daily
      aged = await register(srv, 'aged-by-script');
      await Promise.all(Array.from({ length: 10 }, () => playLevel(srv, aged, 1)));
      const d = await playDaily(srv, aged, 0, 5); // (paced: not the flood's twin)
      assert.equal(d.status, 200, d.text);
      assert.equal(d.json.status, 'held', d.text);
      assert.equal(d.json.held_reason, 'new_account', d.text);
      const sig = await signalsOf(srv, d.json.score_id);
      assert.equal(sig.completed_runs, 10, 'ten runs are not enough any more');
      assert.equal(sig.runs_needed, 10);
      assert.equal(sig.hours_needed, 24);
      assert.equal(sig.play_minutes_needed, 30);
      assert.equal(sig.levels_needed, 3);
      assert.equal(sig.levels, 1);
      assert.ok(sig.played_ms < 30000, `ten parallel floor runs played ${sig.played_ms} ms`);

      // the flood: 20 fresh accounts (the per-address registration limit is
      // 30 a minute), every one with a solved daily, submitted at once
      const bots = [];
      for (let i = 0; i < 20; i++) bots.push(await register(srv, `throwaway-${i}`));
      const flood = await Promise.all(bots.map((b, i) => playDaily(srv, b, 1 + i)));
      // (the script's runs are one run shifted by a few ms: once committed
      // they are also each other's twins, which the answer names first)
      for (const r of flood) {
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.status, 'held');
        assert.ok(['new_account', 'twin'].includes(r.json.held_reason), r.text);
        assert.equal(r.json.rank, null, 'held: no rank');
      }
      assert.ok(flood.some((r) => r.json.held_reason === 'new_account'), 'the first looked up has no twin yet');
      const board = await call(srv, 'GET', `/v1/leaderboards/daily/${flood[0].json.date}`);
      assert.deepEqual(board.json.entries, [], 'no throwaway account ranks');
      // the operator sees them in the review queue with the reason
      const q = await call(srv, 'GET', '/v1/admin/review?limit=100', { token: ADMIN_TOKEN });
      assert.equal(q.status, 200, q.text);
      const held = q.json.items.filter((it) => it.status === 'held' && bots.some((b) => b.player_id === it.player_id));
      assert.equal(held.length, 20);
      for (const r of flood) {
        const s = await signalsOf(srv, r.json.score_id);
        assert.equal(s.completed_runs, 0);
        assert.equal(s.played_ms, 0);
        assert.equal(s.levels, 0);
      }
      // a retry of a held run answers the same
      const again = await call(srv, 'GET', `/v1/scores/${flood[1].json.score_id}`);
      assert.equal(again.json.status, 'held');
    } finally { await srv.stop(); }

    // 25 hours later the script-aged account is old enough but has not
    // played: its next daily is still held
    srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: ['--set', DAY_AND_AN_HOUR] });
    try {
      const r = await playDaily(srv, aged, 0, 6);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'held', r.text);
      assert.equal(r.json.held_reason, 'new_account');
      const sig = await signalsOf(srv, r.json.score_id);
      assert.ok(sig.age_ms >= 25 * 3600000, `age ${sig.age_ms}`);
      assert.ok(sig.played_ms < 30000);
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

// Smaller bounds (one minute across three boards in three runs) so that
// real play fits in the test: about 70 s of wall time.
test('played time: paced runs over three levels and a day rank; twenty parallel tokens count once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-newacct-'));
  const bounds = ['--set', 'new_account_play_minutes=1', '--set', 'new_account_levels=3', '--set', 'new_account_runs=3'];
  try {
    let srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: bounds });
    let human, farm;
    try {
      human = await register(srv, 'regular');
      farm = await register(srv, 'parallel-farm');
      // the person: one run after another on levels 1, 2 and 3, each
      // submitted 23 s after its token (three disjoint intervals: ~69 s);
      // the farm: twenty tokens over the same three levels drawn at once and
      // played in parallel (their claimed times add up past a minute, their
      // union is a few seconds)
      const person = (async () => {
        for (const level of [1, 2, 3]) await playLevel(srv, human, level, 10 + level, 23000);
      })();
      const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => playLevel(srv, farm, 1 + (i % 3), 100 + i)));
      const claimedSum = runs.reduce((a, x) => a + x.claimed, 0);
      assert.ok(claimedSum > 60000, `the farm's runs claim ${claimedSum} ms in all`);
      await person;

      // today both are too young: held, with their played time
      const mine = await playDaily(srv, human, 0, 7);
      assert.equal(mine.json.status, 'held', mine.text);
      assert.equal(mine.json.held_reason, 'new_account');
      const ms = await signalsOf(srv, mine.json.score_id);
      assert.ok(ms.played_ms >= 60000, `the person played ${ms.played_ms} ms`);
      assert.equal(ms.levels, 3);
      assert.equal(ms.completed_runs, 3);
      assert.equal(ms.play_minutes_needed, 1);
      const theirs = await playDaily(srv, farm, 0, 8);
      assert.equal(theirs.json.status, 'held', theirs.text);
      const fs = await signalsOf(srv, theirs.json.score_id);
      assert.equal(fs.completed_runs, 20);
      assert.equal(fs.levels, 3);
      // counted once (their union), not summed; the bound that matters is
      // the minute (a busy machine stretches the union past 30 s: ASan at load 10)
      assert.ok(fs.played_ms < 60000 && fs.played_ms * 2 < claimedSum,
        `twenty parallel tokens counted once: ${fs.played_ms} ms, not ${claimedSum}`);
    } finally { await srv.stop(); }

    // a day later: the person has the age and the play and ranks; the farm
    // has the age, the boards and the runs but not the played time
    srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: [...bounds, '--set', DAY_AND_AN_HOUR] });
    try {
      const mine = await playDaily(srv, human, 0, 17);
      assert.equal(mine.status, 200, mine.text);
      assert.equal(mine.json.status, 'ranked', mine.text);
      assert.equal(mine.json.held_reason, undefined);
      assert.equal(mine.json.rank, 1);
      const theirs = await playDaily(srv, farm, 0, 18);
      assert.equal(theirs.json.status, 'held', theirs.text);
      assert.equal(theirs.json.held_reason, 'new_account');
      const fs = await signalsOf(srv, theirs.json.score_id);
      assert.ok(fs.age_ms >= 25 * 3600000);
      assert.ok(fs.played_ms < 60000, `the farm played ${fs.played_ms} ms`);
      const board = await call(srv, 'GET', `/v1/leaderboards/daily/${mine.json.date}`);
      assert.deepEqual(board.json.entries.map((e) => e.player_id), [human.player_id]);
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('new_account_runs = 0 turns the hold off', async () => {
  const srv = await startServer({ args: ['--set', 'new_account_runs=0'] });
  try {
    const p = await register(srv, 'fresh');
    const r = await playDaily(srv, p);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'ranked');
  } finally { await srv.stop(); srv.cleanup(); }
});
