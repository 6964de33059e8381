// Twin runs (issue 25, item 7), on default settings. The attack: play the
// daily on account A, then submit A's taps re-timed x0.7 on account B (B
// was rank 1, nothing linked them), or A's run with one tap moved by 1 ms
// on account D (a new moves hash, accepted at rank 2). Now a run with
// another player's progress whose gaps rank-correlate at 0.95 or more is
// linked to it: both held (the answer says "twin"), `signals.twin` on the
// later, 300 more suspicion on both, and the review queue shows the pair
// side by side with both players. A person who plays the same cells in the same order at
// their own pace (Schulte has one order) is not linked.
import { test } from 'node:test';
import { parseCheckpoint, tilesForSize, parseEntryBundle, decodeLeaf } from '../../clients/js/src/log.mjs';
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
      const cells = await solveSchulte(toks[0].level, toks[0].seed, 500, toks[0].version);
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

      // both runs of a pair are held: the leader's too, until an operator decides
      const board = await call(srv, 'GET', `/v1/leaderboards/daily/${DATE}`);
      assert.deepEqual(new Set(board.json.entries.map((e) => e.player_id)), new Set([person.player_id]));
      // the leader's run left its board without an operator: the score log
      // has a hold leaf for it, caused by the twin's leaf (docs/LOG.md section 7)
      const cp = parseCheckpoint((await (await fetch(`${srv.base}/v1/log/checkpoint`)).text()).split('\n\n')[0] + '\n');
      const leaves = [];
      for (const t of tilesForSize(cp.size, { entries: true })) {
        if (t.entries) leaves.push(...parseEntryBundle(new Uint8Array(await (await fetch(`${srv.base}/v1/log/${t.path}`)).arrayBuffer()), { width: t.width }));
      }
      const decoded = leaves.map((l) => decodeLeaf(l));
      const holds = decoded.filter((d) => d.kind === 'hold');
      assert.equal(holds.length, 2, 'one hold leaf per twin that arrived (the leader held twice)');
      for (const h of holds) {
        assert.equal(h.score_id, ra.json.score_id);
        assert.equal(h.player_id, BigInt(leader.player_id));
        const cause = decoded[Number(h.action_id)];
        assert.equal(cause.kind, 'score');
        assert.ok([rb.json.score_id, rd.json.score_id].includes(cause.score_id), 'caused by a twin\'s own leaf');
        assert.equal(`v3.${h.action_id}`, cause.score_id === rb.json.score_id ? rb.json.receipt : rd.json.receipt);
      }

      // the record on both scores, the weight on both, the pair side by side
      const [sa, sb, sc] = [await audit(ra.json.score_id), await audit(rb.json.score_id), await audit(rc.json.score_id)];
      assert.equal(sb.signals.twin.player_id, leader.player_id);
      assert.ok(sb.signals.twin.correlation_permille >= 950, JSON.stringify(sb.signals.twin));
      assert.equal(sc.signals.twin, undefined);
      assert.equal(sa.status, 'held', 'the first run of the pair is held too');
      assert.equal(sc.status, 'ranked');
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
      const lead = paced(await solveSchulte(toks[0].level, toks[0].seed, 500, toks[0].version), 1);
      const r1 = await submit(srv, players[0], toks[0], lead);
      assert.equal(r1.status, 200, r1.text);
      const r2 = await submit(srv, players[1], toks[1], lead.map((m) => ({ ...m, t: Math.round(m.t * 0.7) })));
      assert.equal(r2.status, 200, r2.text);
      assert.equal(r2.json.status, 'ranked');
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

// Twins judged as a pair (issue 37): whichever run came first, both are
// held; the shape is the progress (slips dropped and ignored taps added
// leave it), the timing test is by rank (clamped pauses keep the order),
// every run of the shape is a candidate (newest first, up to 4096), and
// two runs sent at once still meet (the lookup runs again inside the
// writer's transaction).
test('twins are held as a pair, whichever came first, through slips, ignored taps, clamped pauses, crowds and races', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-twins-pair-'));
  const names = ['copied-first', 'copier-first', 'slipper', 'tidy-copy', 'pauser', 'clamper', 'racer-a', 'racer-b',
    'buried', 'digger'];
  const FILL = 34; // more than the 32 best-scoring runs compared before
  for (let i = 0; i < FILL; i++) names.push(`filler-${i}`);
  try {
    let srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600 - 2 * 86400)}`,
      '--set', 'rate_register_per_ip=1000', '--set', 'rate_register_per_prefix=1000'] });
    const p = {};
    try {
      for (const n of names) p[n] = await register(srv, n);
    } finally { await srv.stop(); }
    srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: ['--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600)}`,
      '--set', 'new_account_runs=0', '--set', 'rate_seeds_per_player=1000'] });
    try {
      const tok = {};
      for (const n of names) tok[n] = await seed(srv, p[n].token, { daily: true });
      const t0 = tok['copied-first'];
      assert.equal(t0.game, 'schulte');
      const cells = await solveSchulte(t0.level, t0.seed, 500, t0.version);
      assert.ok(cells.length >= 16);
      const send = (n, moves) => submit(srv, p[n], tok[n], moves);
      const audit = async (r) => (await call(srv, 'GET', `/v1/admin/scores/${r.json.score_id}`, { token: ADMIN_TOKEN })).json;
      const heldAsTwins = async (a, b, what) => {
        for (const r of [a, b]) assert.equal(r.status, 200, `${what}: ${r.text}`);
        const [sa, sb] = [await audit(a), await audit(b)];
        assert.equal(sa.status, 'held', `${what}: the first run is held too`);
        assert.equal(sb.status, 'held', `${what}: the second run is held`);
        assert.equal(b.json.held_reason, 'twin', what);
        return [sa, sb];
      };

      // 1. the copy comes first: account B posts A's run x0.7 before A plays it
      const lead = paced(cells, 11);
      const early = await send('copier-first', lead.map((m) => ({ ...m, t: Math.round(m.t * 0.7) })));
      assert.equal(early.status, 200, early.text);
      assert.equal(early.json.status, 'ranked', 'alone, the copy ranks');
      const late = await send('copied-first', lead);
      const [se] = await heldAsTwins(early, late, 'copy first');
      assert.equal(se.suspicion >= 300, true, 'the earlier run carries the twin weight');

      // 2. slips dropped and an ignored tap added: the progress is the same
      const own = paced(cells, 12);
      const slip = { t: own[2].t - 150, cell: own[own.length - 1].cell }; // the last number while another is next: a mistake
      const slipped = [...own.slice(0, 2), slip, ...own.slice(2)];
      const r2a = await send('slipper', slipped);
      const tidy = own.map((m) => ({ ...m, t: Math.round(m.t * 0.9) }));
      tidy.splice(4, 0, { t: tidy[3].t + 40, cell: tidy[0].cell }); // the first number again: ignored
      const r2b = await send('tidy-copy', tidy);
      await heldAsTwins(r2a, r2b, 'slips dropped, an ignored tap added');
      assert.ok(r2b.json.score > r2a.json.score, 'the copy without the slip would have ranked higher');

      // 3. the long pauses clamped (Pearson's r of these gaps is far below 0.95)
      let t = 0;
      const gaps = paced(cells, 13).map((m, i, a) => m.t - (i ? a[i - 1].t : 0)).map((g, i) => (i % 5 === 4 ? g + 2500 : g));
      const pauses = cells.map((m, i) => ({ ...m, t: (t += gaps[i]) }));
      t = 0;
      const clamped = cells.map((m, i) => ({ ...m, t: (t += Math.min(gaps[i], 700)) }));
      const r3a = await send('pauser', pauses);
      const r3b = await send('clamper', clamped);
      const [, s3b] = await heldAsTwins(r3a, r3b, 'pauses clamped');
      assert.ok(s3b.signals.twin.correlation_permille >= 950, JSON.stringify(s3b.signals.twin));

      // 4. sent at the same instant: the writer's transaction still links them
      const race = paced(cells, 14);
      const [r4a, r4b] = await Promise.all([send('racer-a', race), send('racer-b', race.map((m, i) => (i === 3 ? { ...m, t: m.t + 1 } : m)))]);
      for (const r of [r4a, r4b]) assert.equal(r.status, 200, r.text);
      const [s4a, s4b] = [await audit(r4a), await audit(r4b)];
      assert.equal(s4a.status, 'held', 'a racing pair: the first is held');
      assert.equal(s4b.status, 'held', 'a racing pair: the second is held');
      assert.ok(s4a.signals.twin || s4b.signals.twin, 'one of the pair records the link');

      // 5. the source buried under more than 32 better runs of its shape, then copied
      const slow = paced(cells, 15).map((m) => ({ ...m, t: Math.round(m.t * 1.3) }));
      const r5a = await send('buried', slow);
      assert.equal(r5a.status, 200, r5a.text);
      const fills = await Promise.all(Array.from({ length: FILL }, (_, i) => send(`filler-${i}`, paced(cells, 100 + i))));
      for (const f of fills) assert.equal(f.status, 200, f.text);
      assert.ok(fills.every((f) => f.json.score > r5a.json.score), 'every filler outscores the buried source');
      const r5b = await send('digger', slow.map((m) => ({ ...m, t: Math.round(m.t * 0.75) })));
      const [, s5b] = await heldAsTwins(r5a, r5b, 'buried under better runs');
      assert.equal(s5b.signals.twin.player_id, p.buried.player_id);

      // off the board, every one of them; the review queue shows both sides
      const board = await call(srv, 'GET', `/v1/leaderboards/daily/${DATE}?limit=100`);
      const on = new Set(board.json.entries.map((e) => e.player_id));
      for (const n of ['copied-first', 'copier-first', 'slipper', 'tidy-copy', 'pauser', 'clamper', 'racer-a', 'racer-b', 'buried', 'digger']) {
        assert.ok(!on.has(p[n].player_id), `${n} is off the board`);
      }
      assert.equal(on.size, FILL, 'the fillers, people at their own pace, rank');
      const q = await call(srv, 'GET', '/v1/admin/review?limit=100', { token: ADMIN_TOKEN });
      const item = (r) => q.json.items.find((it) => it.score_id === r.json.score_id);
      assert.equal(item(late).twin.score_id, early.json.score_id);
      assert.equal(item(early).twin.score_id, late.json.score_id, 'the first run points at the second');
      assert.equal(item(late).twin.came_first, true);
      assert.equal(item(early).twin.came_first, false);
      // the progress gaps side by side: the copy's are the source's x0.7
      const g = item(late).gaps_ms, gc = item(late).twin.gaps_ms;
      assert.equal(g.length, cells.length);
      assert.deepEqual(gc, item(early).gaps_ms);
      assert.deepEqual(g, lead.map((m, i) => m.t - (i ? lead[i - 1].t : 0)));
      g.forEach((x, i) => assert.ok(Math.abs(gc[i] - x * 0.7) <= 1, `gap ${i}: ${gc[i]} against ${x}`));
      // approving one of a pair ranks it
      const ok = await call(srv, 'POST', `/v1/admin/scores/${late.json.score_id}/approve`, { token: ADMIN_TOKEN, body: { reason: 'played it' } });
      assert.equal(ok.status, 200, ok.text);
      const after = await call(srv, 'GET', `/v1/leaderboards/daily/${DATE}?limit=100`);
      assert.ok(after.json.entries.some((e) => e.player_id === p['copied-first'].player_id));
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
