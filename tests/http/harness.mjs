// harness: starts the real bin/replayd on a free loopback port with a fresh
// data dir, and gives the tests small helpers to drive it over HTTP.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkExchange } from '../contract/contract.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = process.env.REPLAYD || join(root, 'bin', 'replayd');

export async function startServer({ dataDir, args = [], env = {} } = {}) {
  const dir = dataDir || mkdtempSync(join(tmpdir(), 'replayd-test-'));
  const child = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--data', dir,
    '--set', 'log_requests=false', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
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
  const base = `http://127.0.0.1:${port}`;
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
  const res = await fetch(srv.base + path, { method, headers: h, body: payload });
  const text = await res.text();
  checkExchange(
    { method, url: path, body: payload, contentType: h['Content-Type'], offContract },
    { status: res.status, contentType: res.headers.get('content-type'), text });
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON: tests check for that */ }
  return { status: res.status, json, text, headers: res.headers };
}

export async function register(srv, name = 'player') {
  const r = await call(srv, 'POST', '/v1/players', { body: { name } });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${r.text}`);
  return r.json;
}

export async function seed(srv, token, body) {
  const r = await call(srv, 'POST', '/v1/seeds', { body, token });
  if (r.status !== 201 && r.status !== 200) throw new Error(`seed: ${r.status} ${r.text}`);
  return r.json;
}

export function gen(game, level, seedValue, version) {
  const args = ['gen', game, String(level), String(seedValue)];
  if (version) args.push('--version', String(version));
  return JSON.parse(execFileSync(BIN, args, { encoding: 'utf8' }));
}

export function replayCli(game, level, seedValue, moves, version) {
  const args = ['replay', game, String(level), String(seedValue)];
  if (version) args.push('--version', String(version));
  return JSON.parse(execFileSync(BIN, args, { input: JSON.stringify({ moves }), encoding: 'utf8' }));
}

// Schulte: tap each number where it is now (reshuffles move them), gap ms apart.
export function solveSchulte(level, seedValue, gap = 110, version) {
  const moves = [];
  let t = 0;
  const g = gen('schulte', level, seedValue, version);
  if (!g.reshuffle) {
    const grid = g.grid.flat();
    const order = grid.map((_, i) => (g.order === 'up' ? i + 1 : grid.length - i));
    return order.map((n, i) => ({ t: gap * (i + 1), cell: grid.indexOf(n) }));
  }
  for (;;) {
    const out = replayCli('schulte', level, seedValue, moves, version);
    if (out.completed || out.board.next === 0) return moves;
    const grid = out.board.grid.flat();
    t += gap;
    moves.push({ t, cell: grid.indexOf(out.board.next) });
  }
}

// Pipes: turn each tile the fewest times from start to solution.
export function solvePipes(level, seedValue, gap = 55) {
  const g = gen('pipes', level, seedValue);
  const start = g.start.flat(), solution = g.solution.flat();
  const rot = (m) => ((m << 1) | (m >> 3)) & 15;
  const moves = [];
  let t = 0;
  start.forEach((m, cell) => {
    let k = 0;
    while (m !== solution[cell]) { m = rot(m); k++; }
    for (let i = 0; i < k; i++) { t += gap; moves.push({ t, cell }); }
  });
  return moves;
}

export function solve(game, level, seedValue, version) {
  if (game === 'schulte') return solveSchulte(level, seedValue, 110, version);
  if (game === 'pipes') return solvePipes(level, seedValue);
  const g = gen(game, level, seedValue, version);
  if (game === 'opposites') return g.answers.map((answer, i) => ({ t: g.appear_ms[i] + 300, answer }));
  if (game === 'target-sums') {
    const cells = g.solution.flat().map((keep, cell) => (keep ? -1 : cell)).filter((c) => c >= 0);
    return cells.map((cell, i) => ({ t: 150 * (i + 1), cell }));
  }
  if (Array.isArray(g.plan)) return g.plan;
  throw new Error(`no solver for ${game} in the harness`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
