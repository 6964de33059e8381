// The daily of era 2: on a Contraption day the server issues and checks
// Contraption's own date-derived seed (FNV-1a of "contraption:Y-M-D"), and
// every game of the rotation verifies its daily. The clock is shifted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, solve, replayCli, dailyOf } from './harness.mjs';

const DAY = 86400;

// Noon UTC of a date, as a clock offset from now.
function offsetTo(date) {
  return Math.floor(Date.parse(`${date}T12:00:00Z`) / 1000) - Math.floor(Date.now() / 1000);
}

test('a week of era-2 dailies, Contraption\'s own seed included', async () => {
  const start = Date.parse('2026-12-07T00:00:00Z') / 1000;
  const seen = new Set();
  for (let k = 0; k < 5; k++) {
    const date = new Date((start + k * DAY) * 1000).toISOString().slice(0, 10);
    const want = await dailyOf(date);
    // the public schedule's seeds (a sealed deployment serves its own: sealed.test.mjs)
    const srv = await startServer({ args: ['--set', `clock_offset_s=${offsetTo(date)}`, '--set', 'plausibility_slack_ms=600000',
      '--set', 'daily_seeds=public'] });
    try {
      const d = await call(srv, 'GET', '/v1/daily');
      assert.equal(d.json.date, date);
      assert.equal(d.json.game, want.game);
      assert.equal(d.json.schedule, 2);
      const p = await register(srv, `day${k}`);
      const t = await seed(srv, p.token, { daily: true });
      assert.equal(t.seed, want.seed);
      if (want.game === 'contraption') {
        assert.equal(t.seed, (await dailyOf(date, 'contraption')).seed, 'the Contraption daily uses its own seed');
      }
      const moves = await solve(t.game, t.level, t.seed, t.version);
      const offline = await replayCli(t.game, t.level, t.seed, moves, t.version);
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.score, offline.score);
      assert.equal(r.json.date, date);
      seen.add(want.game);
    } finally { await srv.stop(); srv.cleanup(); }
  }
  assert.deepEqual([...seen].sort(), ['contraption', 'opposites', 'pipes', 'schulte', 'target-sums']);
});
