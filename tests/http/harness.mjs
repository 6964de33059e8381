// harness: starts the real bin/replayd on a free loopback port with a fresh
// data dir, and gives the tests small helpers to drive it over HTTP.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExchange } from '../contract/contract.mjs';

import { BIN, gen, replayCli, solveSchulte, solvePipes, solve, dailyOf, contraptionDay } from './solvers.mjs';
import { run, runOk } from './proc.mjs';

export { BIN, gen, replayCli, solveSchulte, solvePipes, solve, dailyOf, contraptionDay, run, runOk };

// An admin credential of the length the server requires (32 bytes at least).
export const ADMIN_TOKEN = 'operator-test-credential-0123456789abcdef';

// REPLAYD_PG (a postgres:// server URL, from tests/pg/pg_start.sh): every
// server runs on the PostgreSQL backend instead, with a database of its
// own named after its data dir (a restart on the same dir finds its data).
export const PG = process.env.REPLAYD_PG || '';
// Why a test that needs the SQLite file itself is skipped on PostgreSQL.
export const sqliteOnly = PG ? 'drives the SQLite file directly (the PostgreSQL run cannot)' : false;

// A fresh (or, for that name, the same) database on the REPLAYD_PG server.
export async function pgDatabase(name) {
  const exists = (await runOk('psql', [`${PG}/postgres`, '-qAtc',
    `SELECT 1 FROM pg_database WHERE datname = '${name}'`])).trim();
  if (!exists) await runOk('psql', [`${PG}/postgres`, '-qc', `CREATE DATABASE ${name}`]);
  return `${PG}/${name}`;
}

function pgName(dir) {
  return 't_' + createHash('sha256').update(dir).digest('hex').slice(0, 24);
}

async function pgArgs(dir, args) {
  if (!PG || args.some((a) => String(a).startsWith('database='))) return [];
  return ['--set', `database=${await pgDatabase(pgName(dir))}`];
}

// One SQL statement on the database of the server with that data dir, as
// an operator (or an attacker with the database) would run it: sqlite3 on
// its file, or psql on its PostgreSQL database: run's result ({status,
// stdout, stderr}).
export function dbExec(dir, sql) {
  if (PG) return run('psql', [`${PG}/${pgName(dir)}`, '-qAt', '-v', 'ON_ERROR_STOP=1', '-c', sql]);
  // a reader of a WAL database can meet SQLITE_BUSY while the server's
  // checkpointer resets the log: wait for it as the server's own readers do
  return run('sqlite3', ['-cmd', '.timeout 10000', join(dir, 'replayd.db'), sql]);
}

// A transaction held open on the database of the server with that data
// dir, as another client would hold one: sqlite3's BEGIN IMMEDIATE (the
// writer then waits in its own BEGIN), or psql's BEGIN and the statements
// given (e.g. a row locked FOR UPDATE). {ready} resolves true once the
// transaction holds its lock (false if the session ended first);
// {release()} ends it (ROLLBACK) and resolves once the session has exited.
export function dbHold(dir, pgSql = '') {
  const proc = PG
    ? spawn('psql', [`${PG}/${pgName(dir)}`, '-qAt', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'ignore'] })
    : spawn('sqlite3', [join(dir, 'replayd.db')], { stdio: ['pipe', 'pipe', 'ignore'] });
  // sqlite3 waits for a lock the server holds at that moment (it would
  // fail at once without .timeout); ready resolves once the lock is held
  proc.stdin.write(PG ? `BEGIN;\n${pgSql}\nSELECT 'held';\n` : `.timeout 5000\nBEGIN IMMEDIATE;\nSELECT 'held';\n`);
  let out = '';
  const ready = new Promise((resolve) => {
    proc.stdout.on('data', (c) => { out += c; if (out.includes('held')) resolve(true); });
    proc.on('exit', () => resolve(false));
  });
  const exited = new Promise((r) => proc.on('exit', r));
  return {
    ready,
    release: async () => {
      proc.stdin.end('ROLLBACK;\n');
      const timer = setTimeout(() => proc.kill(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// host: the loopback address to listen on ("127.0.0.1", or "::1" for IPv6);
// scheme: "https" when the args set tls_cert and tls_key; admin: an admin
// token, handed over as the operator would, in a file (admin_token_file),
// never on the command line.
// The review hold (review_hold_threshold, on by default) is off here unless
// a test asks for the defaults (holdDefault: true) or sets it: the suite's
// solvers play at fixed round gaps, and many tests submit at once under a
// wide plausibility slack, which is what the hold is there to catch.
export async function startServer({ dataDir, args = [], env = {}, host = '127.0.0.1', scheme = 'http', admin, holdDefault = false } = {}) {
  const dir = dataDir || mkdtempSync(join(tmpdir(), 'replayd-test-'));
  if (!holdDefault && !args.some((a) => String(a).startsWith('review_hold_threshold='))) {
    args = ['--set', 'review_hold_threshold=0', ...args];
  }
  // likewise the review of records (review_top, on by default): most files
  // play fresh players straight into a daily's top three
  if (!holdDefault && !args.some((a) => String(a).startsWith('review_top='))) {
    args = ['--set', 'review_top=0', ...args];
  }
  // and the think floors (on by default): the suite sends Contraption and
  // Driftlings plans the moment their claimed time has passed, which is the
  // midnight solver they hold (think_time.test.mjs plays it)
  if (!holdDefault && !args.some((a) => String(a).startsWith('think_floor_permille='))) {
    args = ['--set', 'think_floor_permille=0', ...args];
  }
  // and parallel play (on by default): many files play one player's runs
  // at once, which is the script it holds (parallel.test.mjs plays it)
  if (!holdDefault && !args.some((a) => String(a).startsWith('parallel_overlap_ms='))) {
    args = ['--set', 'parallel_overlap_ms=0', ...args];
  }
  // and the drain grace (5 s by default): a test's server stops at once
  // unless the test asks for the grace (tests/pg/rolling.test.mjs does)
  if (!args.some((a) => String(a).startsWith('drain_grace_s='))) {
    args = ['--set', 'drain_grace_s=0', ...args];
  }
  if (admin) {
    const file = join(dir, 'admin_token');
    writeFileSync(file, admin + '\n', { mode: 0o600 });
    args = [...args, '--set', `admin_token_file=${file}`];
  }
  const listen = host.includes(':') ? `[${host}]:0` : `${host}:0`;
  const child = spawn(BIN, ['serve', '--listen', listen, '--data', dir,
    '--set', 'log_requests=false', ...(await pgArgs(dir, args)), ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start: ' + stderr)), 15000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = stderr.match(/"event":"listening"[^\n]*"port":(\d+)/);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${stderr}`)); });
  });
  child.removeAllListeners('exit');
  // Never leave a server behind, whatever a test does.
  process.on('exit', () => { try { child.kill('SIGKILL'); } catch { /* already gone */ } });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const base = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    base, dir, child, exited, port,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') { child.kill(signal); return exited; },
    cleanup() { rmSync(dir, { recursive: true, force: true }); },
  };
}

// One request. Every exchange is checked against docs/openapi.yaml
// (tests/contract/contract.mjs): a difference fails the test that made the
// call. offContract: true says the request breaks the contract on purpose
// (a malformed body, an unknown path or method, a parameter out of range):
// then only the response is checked.
export async function call(srv, method, path, { body, token, raw, headers = {}, offContract = false } = {}) {
  const h = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let payload;
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) { payload = JSON.stringify(body); h['Content-Type'] ??= 'application/json'; }
  let res;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(srv.base + path, { method, headers: h, body: payload });
      break;
    } catch (e) {
      // A pooled connection the server closed as idle (header_timeout_ms
      // after its last answer) while this process was too busy to retire
      // it: the request went out on a closed socket and never reached a
      // handler, so it is sent once more on a new connection, as Go's
      // Transport does for a reused connection. Any other failure, or a
      // second one, fails the test.
      const code = e.cause?.code;
      if (attempt > 0 || (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET')) throw e;
    }
  }
  const text = await res.text();
  checkExchange(
    { method, url: path, body: payload, contentType: h['Content-Type'], offContract },
    { status: res.status, contentType: res.headers.get('content-type'), text, headers: res.headers });
  // Every JSON answer ends with a newline (a shell prompt after curl starts on its own line).
  if (text && /^application\/json/.test(res.headers.get('content-type') || '') && !text.endsWith('\n')) {
    throw new Error(`${method} ${path}: the JSON answer does not end with a newline: ${text.slice(-60)}`);
  }
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON: tests check for that */ }
  return { status: res.status, json, text, headers: res.headers };
}

// The ranks a whole board's entries (in board order) must show: equal
// scores share one, 1 + the number of entries scoring strictly higher.
export function sharedRanks(entries) {
  return entries.map((e) => 1 + entries.filter((o) => o.score > e.score).length);
}

export async function register(srv, name = 'player') {
  const r = await call(srv, 'POST', '/v1/players', { body: { name } });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${r.text}`);
  return r.json;
}

// When each seed answer arrived, on this process's clock (the server's
// clock may be shifted by clock_offset_s).
const seedArrived = new WeakMap();

export async function seed(srv, token, body) {
  const r = await call(srv, 'POST', '/v1/seeds', { body, token });
  if (r.status !== 201 && r.status !== 200) throw new Error(`seed: ${r.status} ${r.text}`);
  seedArrived.set(r.json, Date.now());
  return r.json;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A self-signed certificate for CN=name and its private key (P-256, a day),
// written as dir/name.crt and dir/name.key: { cert, key } (their paths).
export async function selfSignedCert(dir, name) {
  const cert = join(dir, `${name}.crt`), key = join(dir, `${name}.key`);
  await runOk('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${name}`]);
  return { cert, key };
}

// Waits, as a real player's run would take, until the run's claimed time
// (its last move's t) has passed since the seed token was issued, plus a
// little network delay. The server allows a run no more time than passed.
export async function awaitRun(s, moves, delayMs = 30) {
  const claimed = moves.reduce((m, x) => Math.max(m, x.t ?? 0), 0);
  const wait = (seedArrived.get(s) ?? Date.now()) + claimed + delayMs - Date.now();
  if (wait > 0) await sleep(Math.min(wait, 60000));
}
