// Durability under load: 8 concurrent clients, every acknowledged score
// present exactly once; a clean restart; a kill -9 during load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, awaitRun } from './harness.mjs';

const CLIENTS = 8;

// The load is bounded by counts, not by a clock alone: on a busy machine a
// fixed few seconds may hold only a few submissions. Every wait has a hard
// bound all the same.
const HARD_MS = 60000;

// One client: register, then seed + submit until shouldStop(acked) says so;
// onAck() after each acknowledged score. Returns the acknowledged score ids
// (200 answers only).
async function client(srv, name, shouldStop, onAck = () => {}) {
  const acked = [];
  let p;
  try { p = await register(srv, name); } catch { return acked; }
  while (!shouldStop(acked)) {
    try {
      const game = acked.length % 2 ? 'pipes' : 'schulte';
      const s = await seed(srv, p.token, { game, level: 1 });
      const moves = await solve(game, 1, s.seed);
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
      if (r.status === 200) {
        acked.push({ id: r.json.score_id, score: r.json.score, player: p.player_id });
        onAck();
      }
      else if (r.status !== 429) throw new Error(`${r.status} ${r.text}`);
    } catch (e) {
      if (!shouldStop(acked)) throw e;
    }
  }
  return acked;
}

async function allPresent(srv, acked) {
  for (const a of acked) {
    const r = await call(srv, 'GET', `/v1/scores/${a.id}`);
    assert.equal(r.status, 200, `acknowledged score ${a.id} is there`);
    assert.equal(r.json.score, a.score);
  }
}

async function boardTotal(srv, game) {
  return (await call(srv, 'GET', `/v1/leaderboards/${game}/1?limit=1`)).json.total;
}

test('8 concurrent clients, then a restart: nothing lost, nothing doubled', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-load-'));
  // Clients submit at once: the slack covers the human-paced runs they skip playing.
  const args = ['--set', 'rate_scores_per_player=100000', '--set', 'rate_seeds_per_player=100000', '--set', 'threads=4',
    '--set', 'plausibility_slack_ms=600000'];
  let srv;
  try {
    srv = await startServer({ dataDir: dir, args });
    // Each client: at least 4 s of load and 3 acknowledged scores (at most HARD_MS).
    const start = Date.now();
    const enough = (acked) => (Date.now() - start > 4000 && acked.length >= 3) || Date.now() - start > HARD_MS;
    const results = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(srv, `load${i}`, enough)));
    const acked = results.flat();
    assert.ok(acked.length >= CLIENTS * 3, `enough load: ${acked.length} scores`);
    assert.equal(new Set(acked.map((a) => a.id)).size, acked.length, 'every acknowledged id is distinct');
    await allPresent(srv, acked);
    const players = new Set(acked.map((a) => a.player));
    // Each client alternates games; a level board holds one best per player.
    assert.equal(await boardTotal(srv, 'schulte'), players.size);
    const stopped = await srv.stop('SIGTERM');
    assert.equal(stopped.code, 0, 'SIGTERM drains and exits cleanly');
    assert.match(srv.stderr(), /"event":"stopped"/);
    srv = await startServer({ dataDir: dir, args });
    await allPresent(srv, acked);
    assert.equal(await boardTotal(srv, 'schulte'), players.size);
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});

test('kill -9 during load: every acknowledged score survives', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-kill-'));
  // Clients submit at once: the slack covers the human-paced runs they skip playing.
  const args = ['--set', 'rate_scores_per_player=100000', '--set', 'rate_seeds_per_player=100000', '--set', 'threads=4',
    '--set', 'plausibility_slack_ms=600000'];
  let srv;
  try {
    srv = await startServer({ dataDir: dir, args });
    let killed = false;
    let total = 0;
    const run = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(srv, `kill${i}`, () => killed, () => total++)));
    // The kill lands mid-load: after 2.5 s and once CLIENTS scores are in (at most HARD_MS).
    const start = Date.now();
    while (Date.now() - start < HARD_MS && (Date.now() - start < 2500 || total < CLIENTS)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    killed = true;
    srv.child.kill('SIGKILL');
    const acked = (await run).flat();
    await srv.exited;
    assert.ok(acked.length > 0, 'some scores were acknowledged before the kill');
    srv = await startServer({ dataDir: dir, args });
    await allPresent(srv, acked);
    const h = await call(srv, 'GET', '/healthz');
    assert.equal(h.status, 200);
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});
