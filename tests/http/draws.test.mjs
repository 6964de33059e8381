// Seed draws (issue 25, item 3), on default settings. The attack: shop
// for an easy Pipes level-15 seed past the forfeit cap by redeeming every
// unwanted token with one move at t = 20001 (an incomplete run, not a
// forfeit), 100 times. Now every token issued counts toward
// max_draws_per_level_day (30) whatever happens to it: the 31st is refused,
// and the operator's accounting shows the draws, not just "forfeited 0".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, sleep, solveSchulte } from './harness.mjs';

const ADMIN = 'draw-cap-admin-credential-0123456789abcdef';

test('shopping past the cap: 100 Pipes level-15 seeds redeemed with one move at t = 20001 stop at 30 draws', async () => {
  const srv = await startServer({ admin: ADMIN });
  try {
    const p = await register(srv, 'shopper');
    let drawn = 0;
    let redeemed = 0;
    let refused = null;
    // Draw until refused; refused by the forfeit cap (10 open tokens count),
    // redeem the batch once its 20 s have passed and go on. Bounded: 100 draws.
    for (let round = 0; round < 10 && !refused && drawn < 100; round++) {
      const batch = [];
      while (drawn < 100) {
        const r = await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'pipes', level: 15 } });
        if (r.status === 429) {
          if (r.json.error.code !== 'too_many_forfeits') refused = r;
          break;
        }
        assert.equal(r.status, 201, r.text);
        batch.push(r.json);
        drawn++;
      }
      if (refused) break;
      await sleep(20001 + 200);
      for (const t of batch) {
        const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves: [{ t: 20001, cell: 0 }] } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.completed, false);
        redeemed++;
      }
    }
    assert.ok(refused, 'the shopping stops');
    assert.equal(refused.json.error.code, 'too_many_draws');
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After: until the next UTC day');
    assert.equal(drawn, 30, 'the default cap: 30 draws of one level a day');
    assert.equal(redeemed, 20);
    const ops = await call(srv, 'GET', `/v1/admin/players/${p.player_id}`, { token: ADMIN });
    assert.equal(ops.status, 200, ops.text);
    assert.equal(ops.json.tokens.forfeited, 0, 'not one forfeit: the trick hides from the forfeit cap');
    assert.equal(ops.json.tokens.incomplete, 20);
    assert.equal(ops.json.tokens.outstanding, 10);
    assert.equal(ops.json.tokens.draws_today, 30, 'but every draw is in the accounting');
    assert.equal(ops.json.tokens.most_draws_one_level_today, 30);
    // Another level is not affected, and the daily never is.
    assert.equal((await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'pipes', level: 14 } })).status, 201);
    assert.equal((await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { daily: true } })).status, 201);
    assert.equal((await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'pipes', level: 15 } })).json.error.code, 'too_many_draws');
  } finally { await srv.stop(); srv.cleanup(); }
});

test('max_draws_per_level_day counts completed runs too, and 0 turns it off', async () => {
  const srv = await startServer({ args: ['--set', 'max_draws_per_level_day=3', '--set', 'plausibility_slack_ms=600000'] });
  try {
    const p = await register(srv, 'replayer');
    for (let i = 0; i < 3; i++) {
      const t = await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'schulte', level: 1 } });
      assert.equal(t.status, 201, t.text);
      const moves = await solveSchulte(1, t.json.seed, 400);
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.json.seed_token, moves } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.completed, true);
    }
    const fourth = await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'schulte', level: 1 } });
    assert.equal(fourth.status, 429);
    assert.equal(fourth.json.error.code, 'too_many_draws');
  } finally { await srv.stop(); srv.cleanup(); }
  const off = await startServer({ args: ['--set', 'max_draws_per_level_day=0', '--set', 'max_forfeits_per_level_day=0'] });
  try {
    const p = await register(off, 'unlimited');
    for (let i = 0; i < 35; i++) {
      const t = await call(off, 'POST', '/v1/seeds', { token: p.token, body: { game: 'schulte', level: 1 } });
      assert.equal(t.status, 201, t.text);
      assert.equal((await call(off, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.json.seed_token, moves: [] } })).status, 200);
    }
  } finally { await off.stop(); off.cleanup(); }
});
