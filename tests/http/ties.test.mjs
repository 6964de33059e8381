// Ties (issue 25, item 6): equal scores share a rank on every board. The
// attack: a Contraption daily (its score does not depend on time) solved
// by a script and submitted first, then the same machine placed by a
// person later. Before, the first submission was rank 1 and the person rank
// 2 for ever; now both are rank 1 on the daily board, in the submit answer
// and around me. Default settings; the clock is shifted to the day (and
// the accounts made two days before it; the new-account hold is off here,
// newaccount.test.mjs plays it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, gen, replayCli, sleep } from './harness.mjs';
import { dailyOf, contraptionDay } from './solvers.mjs';


function offsetTo(date) {
  return Math.floor(Date.parse(`${date}T12:00:00Z`) / 1000) - Math.floor(Date.now() / 1000);
}


// The generator's plan placed from `first` ms on, a part each 1.5 s.
function machine(g, first) {
  return g.plan.map((m, i) => ({ ...m, t: first + 1500 * i }));
}

// Submits once the run's claimed time (its duration_ms, as replay gives
// it) has passed since the token was issued at `issued` (Date.now()).
async function submit(srv, p, t, issued, moves) {
  const run = await replayCli('contraption', t.level, t.seed, moves, t.version);
  const wait = issued + run.duration_ms + 150 - Date.now();
  if (wait > 0) await sleep(wait);
  return call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
}

test('a scripted Contraption daily submitted first and a person\'s equal score later share rank 1', async () => {
  const date = await contraptionDay();
  const dir = mkdtempSync(join(tmpdir(), 'replayd-ties-'));
  // the accounts are made two days before (the new-account hold, which now
  // also wants played time, is off: newaccount.test.mjs plays it)
  const early = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetTo(date) - 2 * 86400}`] });
  let bot, human, third;
  try {
    bot = await register(early, 'midnight-bot');
    human = await register(early, 'person');
    third = await register(early, 'fewer-parts-later');
  } finally { await early.stop(); }
  const srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetTo(date)}`, '--set', 'new_account_runs=0'] });
  try {
    // each token's run is timed from when its answer arrived (after the server issued it)
    const tb = await seed(srv, bot.token, { daily: true });
    const th = await seed(srv, human.token, { daily: true });
    const tt = await seed(srv, third.token, { daily: true });
    const issued = Date.now();
    assert.equal(tb.game, 'contraption');
    const g = await gen('contraption', tb.level, tb.seed, tb.version);
    assert.ok(Array.isArray(g.plan) && g.plan.length > 0, 'the level has a plan');
    const rb = await submit(srv, bot, tb, issued, machine(g, 1000));
    assert.equal(rb.status, 200, rb.text);
    assert.equal(rb.json.rank, 1);
    const rh = await submit(srv, human, th, issued, machine(g, 2500));
    assert.equal(rh.status, 200, rh.text);
    assert.equal(rh.json.score, rb.json.score, 'the same machine earns the same score whatever its timing');
    assert.equal(rh.json.status, 'ranked');
    assert.equal(rh.json.rank, 1, 'the later equal score shares rank 1 in its submit answer');

    // a worse run (no parts: score 0) ranks after both, at 3
    const rt = await submit(srv, third, tt, issued, []);
    assert.equal(rt.status, 200, rt.text);
    assert.ok(rt.json.score < rb.json.score);
    assert.equal(rt.json.rank, 3, 'the next score skips the places the tie took');

    const board = await call(srv, 'GET', `/v1/leaderboards/daily/${date}`);
    assert.equal(board.status, 200, board.text);
    assert.deepEqual(board.json.entries.map((e) => e.rank), [1, 1, 3]);
    // the order inside a tie is the listing order only (API.md): earlier first
    assert.deepEqual(board.json.entries.slice(0, 2).map((e) => e.player_id), [bot.player_id, human.player_id]);
    for (const p of [bot, human]) {
      const me = await call(srv, 'GET', `/v1/leaderboards/daily/${date}/me`, { token: p.token });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.json.rank, 1);
      assert.equal(me.json.me.rank, 1);
    }
    const page1 = await call(srv, 'GET', `/v1/leaderboards/daily/${date}?limit=1`);
    const page2 = await call(srv, 'GET', `/v1/leaderboards/daily/${date}?limit=1&cursor=${page1.json.next_cursor}`);
    assert.equal(page2.status, 200, page2.text);
    assert.equal(page2.json.entries[0].rank, 1, 'a page that starts inside a tie shows the shared rank');
  } finally { await srv.stop(); rmSync(dir, { recursive: true, force: true }); }
});
