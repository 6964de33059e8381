// Twin runs (issue 25, item 7), on default settings. The attack: play the
// daily on account A, then submit A's taps re-timed x0.7 on account B (B
// was rank 1, nothing linked them), or A's run with one tap moved by 1 ms
// on account D (a new moves hash, accepted at rank 2). Now a run with
// another player's moves whose gaps correlate at 0.95 or more is linked
// to it: held (the answer says "twin"), `signals.twin` on it, 300 more
// suspicion on both, and the review queue shows the pair side by side with
// both players. A person who plays the same cells in the same order at
// their own pace (Schulte has one order) is not linked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solveSchulte, awaitRun, ADMIN_TOKEN } from './harness.mjs';
import { Rng } from '../../vectors/port/core.mjs';

// A Schulte level-4 daily (16 taps) of era 1, as a clock offset to its noon.
const DATE = '2026-10-06';
const offsetAt = (date, s) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) + s - Math.floor(Date.now() / 1000);

// The solver's taps at a person's pace: gaps of 420-700 ms drawn from seed.
function paced(moves, seedValue) {
  const r = new Rng(seedValue);
  let t = 0;
  return moves.map((m) => ({ ...m, t: (t += 420 + r.below(281)) }));
}

async function submit(srv, p, tok, moves) {
  await awaitRun(tok, moves, 80);
  return call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: tok.seed_token, moves } });
}

test('a re-timed copy and a 1 ms copy of the daily leader are linked as twins and held; a person at their own pace is not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-twins-'));
  try {
    // the accounts are two days old by the daily; the new-account hold (which
    // now also wants played time) is off: newaccount.test.mjs plays it
    let srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600 - 2 * 86400)}`] });
    const players = [];
    try {
      for (const n of ['leader', 'retimer', 'person', 'nudger']) players.push(await register(srv, n));
    } finally { await srv.stop(); }
    const [leader, retimer, person, nudger] = players;
    srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: ['--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600)}`, '--set', 'new_account_runs=0'] });
    try {
      const toks = await Promise.all(players.map((p) => seed(srv, p.token, { daily: true })));
      assert.equal(toks[0].game, 'schulte');
      const cells = solveSchulte(toks[0].level, toks[0].seed, 500, toks[0].version);
      assert.ok(cells.length >= 16);
      const lead = paced(cells, 1);
      const own = paced(cells, 2); // the same cells, another person's timing
      const [ra, rc] = await Promise.all([submit(srv, leader, toks[0], lead), submit(srv, person, toks[2], own)]);
      assert.equal(ra.status, 200, ra.text);
      assert.equal(ra.json.status, 'ranked');
      assert.equal(rc.status, 200, rc.text);
      assert.equal(rc.json.status, 'ranked', 'the same order at a person\'s own pace is not a twin');
      const audit = async (id) => (await call(srv, 'GET', `/v1/admin/scores/${id}`, { token: ADMIN_TOKEN })).json;
      const before = (await audit(ra.json.score_id)).suspicion;

      const retimed = lead.map((m) => ({ ...m, t: Math.round(m.t * 0.7) }));
      const nudged = lead.map((m, i) => (i === 5 ? { ...m, t: m.t + 1 } : m));
      const [rb, rd] = await Promise.all([submit(srv, retimer, toks[1], retimed), submit(srv, nudger, toks[3], nudged)]);
      for (const r of [rb, rd]) {
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.status, 'held');
        assert.equal(r.json.held_reason, 'twin');
        assert.equal(r.json.rank, null);
      }
      assert.ok(rb.json.score > ra.json.score, 'the re-timed copy would have taken rank 1');

      const board = await call(srv, 'GET', `/v1/leaderboards/daily/${DATE}`);
      assert.deepEqual(new Set(board.json.entries.map((e) => e.player_id)), new Set([leader.player_id, person.player_id]));

      // the record on both scores, the weight on both, the pair side by side
      const [sa, sb, sc] = [await audit(ra.json.score_id), await audit(rb.json.score_id), await audit(rc.json.score_id)];
      assert.equal(sb.signals.twin.player_id, leader.player_id);
      assert.ok(sb.signals.twin.correlation_permille >= 950, JSON.stringify(sb.signals.twin));
      assert.equal(sc.signals.twin, undefined);
      const q = await call(srv, 'GET', '/v1/admin/review?limit=100', { token: ADMIN_TOKEN });
      assert.equal(q.status, 200, q.text);
      const item = (id) => q.json.items.find((it) => it.score_id === id);
      assert.equal(item(rb.json.score_id).twin.score_id, ra.json.score_id);
      assert.equal(item(rb.json.score_id).twin.player_id, leader.player_id);
      assert.equal(item(rb.json.score_id).twin.name, 'leader');
      assert.ok(item(ra.json.score_id).twin, 'the leader\'s score is linked back');
      assert.ok([retimer.player_id, nudger.player_id].includes(item(ra.json.score_id).twin.player_id));
      assert.equal(item(rc.json.score_id).twin, undefined);
      // accounts registered together from one prefix (here all 127.0.0.1) show as linked
      const view = await call(srv, 'GET', `/v1/admin/players/${leader.player_id}`, { token: ADMIN_TOKEN });
      assert.equal(view.status, 200, view.text);
      assert.deepEqual(view.json.linked_accounts.map((l) => l.player_id).sort((x, y) => x - y),
        [retimer, person, nudger].map((p) => p.player_id).sort((x, y) => x - y));
      assert.ok(item(rb.json.score_id).linked_accounts.some((l) => l.player_id === leader.player_id));
      const late = await register(srv, 'two-days-later');
      const lv = await call(srv, 'GET', `/v1/admin/players/${late.player_id}`, { token: ADMIN_TOKEN });
      assert.deepEqual(lv.json.linked_accounts, [], 'outside linked_window_s: not linked');
      const gained = sa.suspicion - before;
      assert.ok(gained >= 300 && gained % 300 === 0, `the leader carries the twin weight too (+${gained})`);
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('twin_correlation_permille = 0 turns twin links off', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-twins-off-'));
  try {
    let srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600 - 2 * 86400)}`] });
    const players = [];
    try {
      for (const n of ['one', 'two']) players.push(await register(srv, n));
    } finally { await srv.stop(); }
    // new_account_runs=0: two days' age no longer lifts the new-account hold (newaccount.test.mjs)
    srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600)}`, '--set', 'twin_correlation_permille=0',
      '--set', 'new_account_runs=0'] });
    try {
      const toks = await Promise.all(players.map((p) => seed(srv, p.token, { daily: true })));
      const lead = paced(solveSchulte(toks[0].level, toks[0].seed, 500, toks[0].version), 1);
      const r1 = await submit(srv, players[0], toks[0], lead);
      assert.equal(r1.status, 200, r1.text);
      const r2 = await submit(srv, players[1], toks[1], lead.map((m) => ({ ...m, t: Math.round(m.t * 0.7) })));
      assert.equal(r2.status, 200, r2.text);
      assert.equal(r2.json.status, 'ranked');
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
