// The score log through kill -9 cycles under load (docs/LOG.md section 8:
// the leaves and the checkpoint that seals them commit in one transaction):
// one server, several clients submitting at once and operators renaming
// players (one leaf each: the log crosses its first full tile), killed
// mid-load and restarted on the same data three times, then a few scores
// more. After
// each restart the checkpoint covers every committed leaf; at the end the
// whole log, checked from the outside (tests/http/log_check.mjs, with the
// independent verifier clients/js/src/log.mjs): nothing acknowledged lost,
// each at its receipt's index, no index or score doubled, every leaf
// decodes, every tile and entry bundle verifies, every checkpoint kept
// before a kill and every log_proof's checkpoint is a prefix of the latest;
// every acknowledged rename one leaf.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, solve, dbExec, sleep, ADMIN_TOKEN } from './harness.mjs';
import { logKey, openedCheckpoint, auditLog } from './log_check.mjs';
import { toHex } from '../../clients/js/src/log.mjs';

const CLIENTS = 6;
const CYCLES = 3;
const OPERATORS = 3;
// Each cycle's load before its kill: at least a moment (varied, so that
// the kill lands at different points of the writer's work), a score per
// client, and as many leaves acknowledged in all as the cycle's target
// (the second kill near the first full tile's end, 256 leaves: the seal
// then stores its first level-8 hash), at most HARD_MS (a busy machine
// fits fewer submissions).
const HARD_MS = 20000;
const TARGETS = [80, 245, 330];
// Clients submit at once (the slack covers the runs they skip playing); no
// per-player or per-address limit is in the way.
const ARGS = ['--set', 'plausibility_slack_ms=600000', '--set', 'rate_scores_per_player=100000',
  '--set', 'rate_seeds_per_player=100000', '--set', 'rate_register_per_ip=100000', '--set', 'rate_per_ip=1000000',
  '--set', 'max_outstanding_tokens=1000', '--set', 'max_forfeits_per_level_day=0', '--set', 'max_draws_per_level_day=0',
  '--set', 'threads=4'];

// One request as a client makes it: a 503 (load shed) is sent again after
// its Retry-After, at most 5 times; a connection that fails throws.
async function patient(srv, method, path, opts) {
  for (let i = 0; ; i++) {
    const r = await call(srv, method, path, opts);
    if (r.status !== 503 || i === 4) return r;
    await sleep(1000 * Math.min(Number(r.headers.get('retry-after')) || 1, 3));
  }
}

// One client: register, then seed + solve + submit Schulte level 1 until
// stop() says so or the server is gone (a failed connection); onAck({
// answer, token }) for each acknowledged score. Any answer other than a
// success fails the test. Resolves to whether the server went away under it.
async function client(srv, name, stop, onAck) {
  let p;
  try { p = await register(srv, name); } catch (e) {
    if (stop()) return true;
    throw e;
  }
  for (let k = 0; k < 10000 && !stop(); k++) { // bounded: 10000 scores
    let s, r;
    try {
      s = await patient(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'schulte', level: 1 } });
      if (s.status !== 201) throw new Error(`seed: ${s.status} ${s.text}`);
      const moves = await solve('schulte', 1, s.json.seed);
      r = await patient(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.json.seed_token, moves } });
    } catch (e) {
      if (/^seed: /.test(e.message) || !stop()) throw e;
      return true; // the server was killed under the request
    }
    assert.equal(r.status, 200, r.text);
    onAck({ answer: r.json, token: s.json });
  }
  return false;
}

// An operator: renames player `id` again and again until stop() says so
// or the server is gone; onAck(answer) for each acknowledged action.
async function operator(srv, id, stop, onAck) {
  for (let k = 0; k < 100000 && !stop(); k++) { // bounded: 100000 renames
    const name = `renamed-${Date.now().toString(36)}-${k}`;
    let r;
    try {
      r = await patient(srv, 'POST', `/v1/admin/players/${id}/rename`, { token: ADMIN_TOKEN, body: { name, reason: 'log crash test' } });
    } catch (e) {
      if (!stop()) throw e;
      return true;
    }
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.action, 'rename');
    onAck({ ...r.json, name });
  }
  return false;
}

// The log's state in the database: log_head's size, and the leaves
// log_entries holds (their count, and the highest index + 1).
async function stored(dir) {
  const q = async (sql) => {
    const r = await dbExec(dir, sql);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  const [count, next] = (await q('SELECT COUNT(*), COALESCE(MAX(idx) + 1, 0) FROM log_entries')).split('|').map(BigInt);
  return { head: BigInt(await q('SELECT size FROM log_head')), count, next, q };
}

test(`kill -9 under load ${CYCLES} times: every acknowledged score in the log at its receipt's index, none doubled, every checkpoint consistent, every tile verified`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-logcrash-'));
  const start = () => startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: ARGS });
  let srv = await start();
  const acked = [];
  const actions = []; // the acknowledged renames
  const kept = []; // the checkpoint fetched just before each kill
  try {
    const key = await logKey(srv);
    const renamed = [];
    for (let i = 0; i < OPERATORS; i++) renamed.push(await register(srv, `renamed${i}`));
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      let killed = false;
      let n = 0;
      const runs = Array.from({ length: CLIENTS }, (_, i) => client(srv, `crash${cycle}-${i}`, () => killed,
        (a) => { acked.push(a); n++; }));
      for (const p of renamed) runs.push(operator(srv, p.player_id, () => killed, (a) => actions.push({ ...a, player_id: p.player_id })));
      const from = Date.now();
      const min = 1200 + cycle * 450;
      while (Date.now() - from < HARD_MS && (Date.now() - from < min || n < CLIENTS ||
        acked.length + actions.length < TARGETS[cycle])) await sleep(10);
      kept.push(await openedCheckpoint(srv, key)); // under load: the next commits go on
      killed = true;
      srv.child.kill('SIGKILL');
      assert.equal((await srv.exited).signal, 'SIGKILL');
      const died = await Promise.all(runs);
      assert.ok(n >= CLIENTS, `cycle ${cycle}: load before the kill (${n} scores acknowledged)`);
      t.diagnostic(`cycle ${cycle}: ${n} scores acknowledged (${actions.length} renames in all so far), killed after ${Date.now() - from} ms` +
        ` at log size ${kept.at(-1).size} or later; ${died.filter(Boolean).length} of ${runs.length} clients cut off by the kill`);
      srv = await start();
      // the restarted server's checkpoint covers every leaf the database holds
      const cp = await openedCheckpoint(srv, key);
      const s = await stored(dir);
      assert.equal(s.count, s.next, `cycle ${cycle}: log_entries has no gap`);
      assert.equal(s.head, s.count, `cycle ${cycle}: log_head's size is the leaves stored`);
      assert.equal(cp.size, s.head, `cycle ${cycle}: the checkpoint after the restart covers every committed leaf`);
      assert.ok(cp.size >= kept.at(-1).size, `cycle ${cycle}: the checkpoint kept before the kill (${kept.at(-1).size}) is not past the one after (${cp.size})`);
      assert.deepEqual(await logKey(srv), key, 'the same log and key after the restart');
    }
    // after the last restart, scores go on from where the log ended
    let m = 0;
    await Promise.all([0, 1].map((i) => client(srv, `after-${i}`, () => m >= 6, (a) => { acked.push(a); m++; })));
    const audit = await auditLog(srv, key, { acked, kept });
    const s = await stored(dir);
    assert.equal(audit.size, s.head, 'the latest checkpoint covers log_head');
    assert.equal(s.count, s.head, 'log_entries holds log_head\'s leaves');
    assert.equal(s.next, s.head, 'indexes 0..size-1');
    // every leaf is a score or a rename; each row of scores and of admin_log has one
    assert.ok(audit.size > 256n, `the log crossed its first full tile (${audit.size} leaves)`);
    const renames = audit.decoded.filter((d) => d.kind === 'rename');
    assert.equal(renames.length + audit.decoded.filter((d) => d.kind === 'score').length, audit.decoded.length, 'every leaf is a score or a rename');
    assert.deepEqual(renames.map((d) => d.action_id).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
      (await s.q('SELECT id FROM admin_log ORDER BY id')).split('\n').filter(Boolean).map(BigInt), 'each operator action is one leaf');
    for (const a of actions) {
      const leaf = renames.filter((d) => d.action_id === BigInt(a.log_id));
      assert.equal(leaf.length, 1, `acknowledged rename ${a.log_id} is one leaf`);
      assert.equal(leaf[0].name, a.name);
      assert.equal(leaf[0].player_id, BigInt(a.player_id));
    }
    const ids = (await s.q('SELECT score_id FROM scores')).split('\n').filter(Boolean).sort();
    assert.deepEqual(audit.decoded.filter((d) => d.kind === 'score').map((d) => d.score_id).sort(), ids, 'each recorded score is one leaf, and no leaf is of a score not recorded');
    const acks = new Set(acked.map((a) => a.answer.score_id));
    assert.equal(acks.size, acked.length, 'each acknowledged score once');
    const unanswered = audit.size - BigInt(acked.length + actions.length);
    t.diagnostic(`log of ${audit.size} leaves (${acked.length} scores and ${actions.length} renames acknowledged, ${unanswered} committed under a kill without an answer),` +
      ` ${audit.proofs} log_proofs verified, ${kept.length} checkpoints kept before kills (sizes ${kept.map((c) => c.size).join(', ')}),` +
      ` root ${toHex(audit.root).slice(0, 16)}`);
  } finally {
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
