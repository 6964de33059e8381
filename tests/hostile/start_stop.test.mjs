// Issue 12, rows 6 and 7: SIGKILL during a fresh data dir's first start
// must never leave a data dir that cannot start; SIGTERM at any point of
// start-up drains and exits 0 instead of dying by the signal. 200 and 100
// tries under `make check`, 30 and 20 under `make test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, BIN, sleep, LONG } from './lib.mjs';

const KILLS = LONG ? 200 : 30;
const TERMS = LONG ? 100 : 20;

function spawnServe(dir) {
  return spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--data', dir, '--set', 'log_requests=false', '--set', 'drain_grace_s=0'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
}

// Until the process blocks SIGTERM (its first act in `serve`): before that
// it is still in the dynamic loader or main's argument parsing, where the
// default action is all any program can have.
async function untilSignalsBlocked(pid, limitMs = 5000) {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    try {
      const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/SigBlk:\s+([0-9a-f]+)/);
      if (m && (BigInt('0x' + m[1]) & (1n << 14n))) return true;
    } catch { return false; }
    await sleep(1);
  }
  return false;
}

test(`${KILLS} SIGKILLs during first start leave no unstartable data dir`, { timeout: 600000 }, async () => {
  let unstartable = 0;
  const deadline = Date.now() + 400000;
  let tries = 0;
  for (; tries < KILLS && Date.now() < deadline; tries++) {
    const dir = mkdtempSync(join(tmpdir(), 'replayd-kill-'));
    const child = spawnServe(dir);
    const exited = new Promise((r) => child.on('exit', r));
    // spread the kills over the first start: key files, database, migrations
    await sleep(Math.floor(Math.random() * 60));
    child.kill('SIGKILL');
    await exited;
    try {
      const srv = await startServer({ dataDir: dir });
      await srv.stop();
    } catch (e) {
      unstartable++;
      console.log(`# unstartable after a kill: ${String(e.message).slice(0, 200)}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`# ${tries} kills during first start: ${unstartable} unstartable data dirs`);
  assert.equal(tries, KILLS, 'every try ran in time');
  assert.equal(unstartable, 0);
});

test('a partial key file from an interrupted first start is repaired; with a database it is refused', { timeout: 30000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-partial-'));
  try {
    mkdirSync(join(dir, 'keys'), { mode: 0o700 });
    writeFileSync(join(dir, 'keys', 'token-hash.key'), Buffer.alloc(7), { mode: 0o600 }); // half-written
    writeFileSync(join(dir, 'keys', 'mac-1.key'), Buffer.alloc(0), { mode: 0o600 });      // empty
    const srv = await startServer({ dataDir: dir });
    assert.match(srv.stderr(), /"event":"keys_repaired"/);
    await srv.stop();
    // now a database exists: a damaged key file must stop the server
    writeFileSync(join(dir, 'keys', 'mac-1.key'), Buffer.alloc(3), { mode: 0o600 });
    await assert.rejects(startServer({ dataDir: dir }), /not a 32-byte key file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SIGTERM at ${TERMS} points of start-up drains and exits 0`, { timeout: 300000 }, async () => {
  const outcomes = [];
  for (let i = 0; i < TERMS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'replayd-term-'));
    const child = spawnServe(dir);
    let stderr = '';
    child.stderr.on('data', (c) => { stderr += c; });
    const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
    await untilSignalsBlocked(child.pid);
    await sleep(Math.floor((i / TERMS) * 1000));
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    outcomes.push({ code, signal, stopped: /"event":"stopped"/.test(stderr) });
    rmSync(dir, { recursive: true, force: true });
  }
  const bad = outcomes.filter((o) => o.code !== 0 || !o.stopped);
  console.log(`# ${TERMS} SIGTERMs in the first second: ${bad.length} not drained ${JSON.stringify(bad.slice(0, 3))}`);
  assert.equal(bad.length, 0);
});
