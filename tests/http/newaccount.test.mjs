// The new-account hold (issue 25, item 4), on default settings
// (new_account_runs = 10, new_account_hours = 24). The attack: register
// throwaway accounts and flood today's daily with solved runs; before,
// forty of them took ranks 1-40 and the best person came 41st. Now a
// daily score of an account younger than 24 hours with fewer than 10
// completed runs is held (off the board, in the review queue, the answer
// says why), and the player who has played ranks first. An account that
// ages past the bound ranks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, offLoop, solveSchulte, awaitRun, ADMIN_TOKEN } from './harness.mjs';
import { Rng } from '../../vectors/port/core.mjs';

// One solved daily run, submitted once its time has passed: a script's
// (every tap `jitter` ms later than the solver's, so no two accounts send
// the same moves), or with `pace` a person's (gaps of 450-750 ms drawn from
// that seed: not the scripts' twin).
async function playDaily(srv, p, jitter = 0, pace = 0) {
  const t = await seed(srv, p.token, { daily: true });
  const r = new Rng(pace);
  let at = 0;
  const moves = (await offLoop('solve', t.game, t.level, t.seed, t.version))
    .map((m) => ({ ...m, t: pace ? (at += 450 + r.below(301)) : m.t + jitter }));
  await awaitRun(t, moves, 80);
  return call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
}

test('a throwaway-account daily flood is held; a player with ten completed runs ranks; an aged account ranks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-newacct-'));
  try {
    let srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN });
    let aged;
    let date;
    try {
      // the player: ten completed level runs first (in parallel, each paced)
      const human = await register(srv, 'regular');
      const runs = await Promise.all(Array.from({ length: 10 }, async () => {
        const t = await seed(srv, human.token, { game: 'schulte', level: 1 });
        const moves = await offLoop('solveSchulte', 1, t.seed, 450, t.version);
        await awaitRun(t, moves, 80);
        return call(srv, 'POST', '/v1/scores', { token: human.token, body: { seed_token: t.seed_token, moves } });
      }));
      for (const r of runs) {
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.completed, true);
      }
      // the flood: 20 fresh accounts (the per-address registration limit is
      // 30 a minute), every one with a solved daily, submitted at once
      const bots = [];
      for (let i = 0; i < 20; i++) bots.push(await register(srv, `throwaway-${i}`));
      aged = bots[0];
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
      date = flood[0].json.date;
      const mine = await playDaily(srv, human, 0, 7);
      assert.equal(mine.status, 200, mine.text);
      assert.equal(mine.json.status, 'ranked');
      assert.equal(mine.json.held_reason, undefined);
      assert.equal(mine.json.rank, 1, 'the player who has played is first, not 21st');
      const board = await call(srv, 'GET', `/v1/leaderboards/daily/${date}`);
      assert.deepEqual(board.json.entries.map((e) => e.player_id), [human.player_id]);
      // the operator sees them in the review queue with the reason
      const q = await call(srv, 'GET', '/v1/admin/review?limit=100', { token: ADMIN_TOKEN });
      assert.equal(q.status, 200, q.text);
      const held = q.json.items.filter((it) => it.status === 'held' && bots.some((b) => b.player_id === it.player_id));
      assert.equal(held.length, 20);
      for (const r of flood) {
        const audit = await call(srv, 'GET', `/v1/admin/scores/${r.json.score_id}`, { token: ADMIN_TOKEN });
        assert.equal(audit.json.signals.new_account.completed_runs, 0);
        assert.equal(audit.json.signals.new_account.runs_needed, 10);
      }
      // a retry of a held run answers the same
      const again = await call(srv, 'GET', `/v1/scores/${flood[1].json.score_id}`);
      assert.equal(again.json.status, 'held');
    } finally { await srv.stop(); }

    // 25 hours later the first throwaway account is old enough: its next daily ranks
    srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${25 * 3600}`] });
    try {
      const r = await playDaily(srv, aged);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'ranked');
      assert.equal(r.json.rank, 1);
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
