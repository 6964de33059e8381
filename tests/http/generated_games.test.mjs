// Driftlings and Contraption over HTTP: the generator's own plan verifies,
// corrupted plans are answered exactly as the offline replay answers them,
// and the bare ball never wins.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, gen, replayCli } from './harness.mjs';

let srv, p;
before(async () => {
  srv = await startServer({ args: ['--set', 'plausibility_slack_ms=600000', '--set', 'max_outstanding_tokens=1000',
    '--set', 'rate_seeds_per_player=100000', '--set', 'rate_scores_per_player=100000'] });
  p = await register(srv, 'engineer');
});
after(async () => { await srv.stop(); srv.cleanup(); });

// Submit moves on a fresh token; the answer must match the offline replay.
async function submitLike(game, level, moves) {
  const s = await seed(srv, p.token, { game, level });
  const level_ = await gen(game, level, s.seed);
  const original = level_.plan ?? [];
  const plan = moves(original);
  const offline = await replayCli(game, level, s.seed, plan);
  const base = await replayCli(game, level, s.seed, original);
  const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: plan } });
  if (offline.rejected) {
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.error.reason, offline.rejected.reason);
    assert.equal(r.json.error.move, offline.rejected.move);
  } else {
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.score, offline.score);
    assert.equal(r.json.completed, offline.completed);
  }
  return { offline, base, http: r.json, level: level_ };
}

test('driftlings: every level\'s plan verifies; corrupted plans get exactly the spec\'s answer', async () => {
  for (let level = 1; level <= 15; level++) {
    const good = await submitLike('driftlings', level, (plan) => plan);
    assert.equal(good.offline.completed, true, `level ${level} plan wins`);
    const empty = await submitLike('driftlings', level, () => []);
    assert.equal(empty.offline.completed, false, `level ${level}: doing nothing does not win`);
    await submitLike('driftlings', level, (plan) => plan.map((m, i) => (i === 0 ? { ...m, tick: m.tick + 3 } : m)));
    await submitLike('driftlings', level, (plan) => plan.map((m, i) => (i === 0 ? { ...m, walker: m.walker + 1 } : m)));
    const extra = await submitLike('driftlings', level, (plan) => [...plan, { ...plan[plan.length - 1], tick: plan[plan.length - 1].tick + 1, skill: 2 }]);
    if (!extra.offline.rejected) assert.ok(extra.offline.score <= extra.base.score, 'an extra skill never scores higher');
  }
});

test('contraption: the sweep\'s placement reaches the goal, the bare ball does not', async () => {
  for (let level = 1; level <= 15; level++) {
    for (let k = 0; k < 4; k++) {
      const good = await submitLike('contraption', level, (plan) => plan);
      if (!good.level.fallback) assert.equal(good.offline.completed, true, `level ${level}: the sweep's placement wins`);
      const bare = await submitLike('contraption', level, () => []);
      assert.equal(bare.offline.completed, false, `level ${level}: the bare ball never reaches the goal`);
      await submitLike('contraption', level, (plan) => plan.map((m) => ({ ...m, x: 500 })));
    }
  }
});
