// Records are reviewed (issue 37): a daily run that would enter the top
// review_top (3) of its board, from a player none of whose runs an operator
// has approved, is held ("record") with its would-be rank until approved;
// the approval is the player's history, so their next record ranks at once;
// a run below the top ranks as before. A held answer carries every field a
// ranked one does (best among them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, awaitRun, ADMIN_TOKEN } from './harness.mjs';
import { Rng } from '../../vectors/port/core.mjs';

// A player's daily on the day's plan at a person's pace (seeded gaps of
// 450-750 ms); `cut` moves only (an unfinished run scores less).
async function daily(srv, p, pace, cut) {
  const t = await seed(srv, p.token, { daily: true });
  const plan = await solve(t.game, t.level, t.seed, t.version);
  const r = new Rng(pace);
  let at = 0;
  const moves = plan.slice(0, cut ?? plan.length).map((m) => ({ ...m, t: (at += 450 + r.below(301)) }));
  await awaitRun(t, moves, 80);
  return call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
}

const approve = (srv, id) =>
  call(srv, 'POST', `/v1/admin/scores/${id}/approve`, { token: ADMIN_TOKEN, body: { reason: 'watched the replay' } });

test('a record from a player with no approved run is held with its would-be rank; approved, it ranks, and the next one ranks at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-records-'));
  // the record review alone: the new-account hold and the suspicion hold off
  const args = ['--set', 'review_top=3', '--set', 'new_account_runs=0', '--set', 'review_hold_threshold=0'];
  let srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args });
  let first;
  try {
    const players = [];
    for (let i = 0; i < 4; i++) players.push(await register(srv, `p${i}`));
    const held = await daily(srv, players[0], 1);
    assert.equal(held.status, 200, held.text);
    assert.equal(held.json.status, 'held');
    assert.equal(held.json.held_reason, 'record');
    assert.equal(held.json.would_be_rank, 1, 'pending review, with the rank it would take');
    assert.equal(held.json.rank, null);
    assert.equal(held.json.best, false, 'a held answer has every field a ranked one has');
    const board0 = await call(srv, 'GET', `/v1/leaderboards/daily/${held.json.date}`);
    assert.equal(board0.json.entries.length, 0, 'off the board until reviewed');
    const audit = await call(srv, 'GET', `/v1/admin/scores/${held.json.score_id}`, { token: ADMIN_TOKEN });
    assert.deepEqual(audit.json.signals.record, { would_be_rank: 1, review_top: 3, approved_runs: 0 });
    assert.equal((await approve(srv, held.json.score_id)).status, 200);
    first = players[0];
    // two more records held and approved fill the top three
    for (const p of players.slice(1, 3)) {
      const r = await daily(srv, p, 2 + players.indexOf(p));
      assert.equal(r.json.held_reason, 'record', r.text);
      assert.ok(r.json.would_be_rank <= 3);
      assert.equal((await approve(srv, r.json.score_id)).status, 200);
    }
    // a run below the top three is not a record: it ranks at once
    const low = await daily(srv, players[3], 9, 1);
    assert.equal(low.status, 200, low.text);
    assert.equal(low.json.status, 'ranked', low.text);
    assert.equal(low.json.rank, 4);
    assert.equal(low.json.best, true);
  } finally { await srv.stop(); }
  // the next day the approved player's record ranks at once: an approval is history
  srv = await startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: [...args, '--set', `clock_offset_s=${26 * 3600}`] });
  try {
    const next = await daily(srv, first, 5);
    assert.equal(next.status, 200, next.text);
    assert.equal(next.json.status, 'ranked', next.text);
    assert.equal(next.json.rank, 1);
    // while a stranger's record that day waits
    const stranger = await register(srv, 'stranger');
    const s = await daily(srv, stranger, 6);
    assert.equal(s.json.status, 'held', s.text);
    assert.equal(s.json.held_reason, 'record');
  } finally { await srv.stop(); rmSync(dir, { recursive: true, force: true }); }
});
