// Fault injection: the disk starts failing every fsync (EIO) under load.
// No submission may be acknowledged that is not durable, the server must not
// crash, and once the disk recovers every failed submission retries cleanly
// and every acknowledged score is still there after a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, call, register, seed, solve, sqliteOnly } from './harness.mjs';
import { runOk } from './proc.mjs';

const here = dirname(fileURLToPath(import.meta.url));

test('fsync failures: errors, not lies; recovery; nothing acknowledged lost', { skip: sqliteOnly }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-fault-'));
  const shim = join(dir, 'fail_sync.so');
  await runOk('cc', ['-shared', '-fPIC', '-O1', join(here, '..', 'fault', 'fail_sync.c'), '-o', shim, '-ldl']);
  const trigger = join(dir, 'disk-is-failing');
  const env = { LD_PRELOAD: shim, REPLAYD_FAULT_FILE: trigger, ASAN_OPTIONS: `${process.env.ASAN_OPTIONS ?? ''}:verify_asan_link_order=0` };
  const data = join(dir, 'data');
  const args = ['--set', 'plausibility_slack_ms=600000', '--set', 'max_outstanding_tokens=1000',
    '--set', 'max_forfeits_per_level_day=0',
    '--set', 'rate_seeds_per_player=0', '--set', 'rate_scores_per_player=0'];
  let srv = await startServer({ dataDir: data, args, env });
  try {
    const p = await register(srv, 'survivor');
    const prepared = [];
    for (let i = 0; i < 12; i++) {
      const s = await seed(srv, p.token, { game: 'schulte', level: 1 });
      prepared.push({ seed_token: s.seed_token, moves: await solve('schulte', 1, s.seed) });
    }
    const acked = [];
    const submit = async (body) => call(srv, 'POST', '/v1/scores', { token: p.token, body });
    for (const body of prepared.slice(0, 4)) {
      const r = await submit(body);
      assert.equal(r.status, 200, r.text);
      acked.push(r.json.score_id);
    }
    writeFileSync(trigger, '');
    const failed = [];
    for (const body of prepared.slice(4, 8)) {
      const r = await submit(body);
      assert.ok(r.status === 500 || r.status === 503, `a failed commit is an error, not ${r.status} ${r.text}`);
      assert.equal(r.json.error.code, r.status === 503 ? 'busy' : 'internal');
      failed.push(body);
    }
    const h = await call(srv, 'GET', '/healthz');
    assert.equal(h.status, 200, 'still serving while the disk fails');
    unlinkSync(trigger);
    for (const body of [...failed, ...prepared.slice(8)]) {
      const r = await submit(body);
      assert.equal(r.status, 200, `after recovery: ${r.text}`);
      acked.push(r.json.score_id);
    }
    assert.equal(new Set(acked).size, acked.length);
    await srv.stop();
    srv = await startServer({ dataDir: data, args });
    for (const id of acked) assert.equal((await call(srv, 'GET', `/v1/scores/${id}`)).status, 200, `score ${id} survived`);
    const board = await call(srv, 'GET', '/v1/leaderboards/schulte/1/me', { token: p.token });
    assert.equal(board.status, 200);
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});
