// The one-way submission pipeline: a submission's request is suspended
// while its write waits for the commit. These tests hold SQLite's write
// lock from outside (the sqlite3 shell in BEGIN IMMEDIATE) so that
// submissions pile up suspended, then check what happens to them when the
// client goes away, when the server is told to stop, and when the writer
// gives up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, sleep, sqliteOnly } from './harness.mjs';
import { runOk } from './proc.mjs';

const ARGS = ['--set', 'plausibility_slack_ms=600000', '--set', 'rate_seeds_per_player=0',
  '--set', 'rate_scores_per_player=0', '--set', 'max_outstanding_tokens=1000',
  '--set', 'max_forfeits_per_level_day=0'];

// Holds the database's write lock until release() (bounded: 20 s at most).
async function holdWriteLock(dbPath) {
  const sh = spawn('sqlite3', [dbPath], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  sh.stdout.on('data', (d) => { out += d; });
  sh.stdin.write('PRAGMA busy_timeout=5000;\nBEGIN IMMEDIATE;\nSELECT \'locked\';\n');
  for (let i = 0; i < 200 && !out.includes('locked'); i++) await sleep(25);
  assert.ok(out.includes('locked'), 'the sqlite3 shell took the write lock');
  const guard = setTimeout(() => sh.kill('SIGKILL'), 20000);
  return {
    release() {
      clearTimeout(guard);
      sh.stdin.end('ROLLBACK;\n.quit\n');
      return new Promise((resolve) => sh.on('exit', resolve));
    },
  };
}

async function prepare(srv, token, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const s = await seed(srv, token, { game: 'schulte', level: 1 });
    out.push({ seed_token: s.seed_token, moves: await solve('schulte', 1, s.seed) });
  }
  return out;
}

async function sqlCount(dbPath, sql) {
  return Number((await runOk('sqlite3', ['-cmd', '.timeout 10000', dbPath, sql], { encoding: 'utf8' })).trim());
}

// One submission on a raw socket that is closed before any answer.
function submitAndHangUp(srv, token, body) {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const sock = connect(srv.port, '127.0.0.1', () => {
      sock.write(`POST /v1/scores HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Authorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      setTimeout(() => { sock.destroy(); resolve(); }, 300);
    });
    sock.on('error', reject);
  });
}

test('a client that hangs up while its submission waits: recorded once, a retry gets the same answer', { skip: sqliteOnly }, async () => {
  const srv = await startServer({ args: [...ARGS, '--set', 'busy_timeout_ms=10000'] });
  const db = join(srv.dir, 'replayd.db');
  try {
    const p = await register(srv, 'hangs-up');
    const [body] = await prepare(srv, p.token, 1);
    const lock = await holdWriteLock(db);
    await submitAndHangUp(srv, p.token, body);
    await lock.release();
    let count = 0;
    for (let i = 0; i < 100 && count === 0; i++) {
      await sleep(20);
      count = await sqlCount(db, 'SELECT COUNT(*) FROM scores');
    }
    assert.equal(count, 1, 'the suspended submission was committed after its client left');
    const retry = await call(srv, 'POST', '/v1/scores', { token: p.token, body });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.json.rank, 1);
    const audit = await call(srv, 'GET', `/v1/scores/${retry.json.score_id}`);
    assert.equal(audit.status, 200);
    assert.equal(audit.json.score, retry.json.score);
    assert.equal(await sqlCount(db, 'SELECT COUNT(*) FROM scores'), 1, 'still exactly one score');
    assert.equal((await call(srv, 'GET', '/healthz')).status, 200);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('SIGTERM while submissions are suspended: every one is answered and none is lost', { skip: sqliteOnly }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-drain-'));
  let srv = await startServer({ dataDir: dir, args: [...ARGS, '--set', 'busy_timeout_ms=10000'] });
  try {
    const p = await register(srv, 'drained');
    const bodies = await prepare(srv, p.token, 24);
    const lock = await holdWriteLock(join(dir, 'replayd.db'));
    const pending = bodies.map((body) => call(srv, 'POST', '/v1/scores', { token: p.token, body }));
    await sleep(400); // all of them reach the server and suspend
    srv.child.kill('SIGTERM');
    await sleep(300); // the server is draining, the writer still waits for the lock
    await lock.release();
    const answers = await Promise.all(pending);
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const exit = await srv.exited;
    assert.equal(exit.code, 0, 'a clean stop after the drain');
    srv = await startServer({ dataDir: dir, args: ARGS });
    for (const a of answers) {
      const audit = await call(srv, 'GET', `/v1/scores/${a.json.score_id}`);
      assert.equal(audit.status, 200, `score ${a.json.score_id} was kept`);
    }
  } finally { await srv.stop(); rmSync(dir, { recursive: true, force: true }); }
});

test('a writer that gives up: every suspended request is answered 503, none hangs, then all retry', { skip: sqliteOnly }, async () => {
  const srv = await startServer({ args: [...ARGS, '--set', 'busy_timeout_ms=300'] });
  const db = join(srv.dir, 'replayd.db');
  try {
    const p = await register(srv, 'busy');
    const bodies = await prepare(srv, p.token, 16);
    const lock = await holdWriteLock(db);
    const started = Date.now();
    const answers = await Promise.all(bodies.map((body) => call(srv, 'POST', '/v1/scores', { token: p.token, body })));
    for (const a of answers) {
      assert.equal(a.status, 503, a.text);
      assert.equal(a.json.error.code, 'busy');
    }
    assert.ok(Date.now() - started < 15000, 'answered well before any client timeout');
    await lock.release();
    for (const body of bodies) {
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body });
      assert.equal(r.status, 200, r.text);
    }
    assert.equal(await sqlCount(db, 'SELECT COUNT(*) FROM scores'), bodies.length);
  } finally { await srv.stop(); srv.cleanup(); }
});
