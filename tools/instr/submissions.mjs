#!/usr/bin/env node
// tools/instr/submissions.mjs: user-space instructions per verified
// submission, counted by callgrind (the same figure run after run, whatever
// the machine's load; ../shared/notes/performance.md's method). Starts the
// server under `valgrind --tool=callgrind`, registers 16 players, draws
// WARM + N Schulte level-1 seed tokens and solves them, sends WARM of them
// at CONNS connections, zeroes the counters (callgrind_control -z), sends
// the N others, dumps and prints the total divided by N.
//
//   node tools/instr/submissions.mjs BIN [--n 300] [--warm 50] [--conns 8] [--set key=value ...]
//
// Prints one JSON line: {"bin","sets","n","conns","instructions_per_submission","signatures"}.
// "signatures" counts the Ed25519 signatures the N submissions made
// (crypto_sign_detached calls in the dump: receipts and checkpoints).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { runOk } from '../../tests/http/proc.mjs';
import { solveSchulte } from '../../tests/http/solvers.mjs';

const args = process.argv.slice(2);
const bin = args.shift();
if (!bin) { console.error('usage: submissions.mjs BIN [--n 300] [--warm 50] [--conns 8] [--set k=v]...'); process.exit(2); }
let n = 300, warm = 50, conns = 8;
const sets = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--n') n = Number(args[++i]);
  else if (args[i] === '--warm') warm = Number(args[++i]);
  else if (args[i] === '--conns') conns = Number(args[++i]);
  else if (args[i] === '--set') sets.push(args[++i]);
  else { console.error(`unknown argument ${args[i]}`); process.exit(2); }
}

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const dir = mkdtempSync(join(tmpdir(), 'replayd-instr-'));
const base = `http://127.0.0.1:${port}`;
const settings = ['rate_register_per_ip=0', 'rate_register_per_prefix=0', 'rate_seeds_per_player=0',
  'rate_scores_per_player=0', 'rate_per_ip=0', 'plausibility_slack_ms=600000', 'max_outstanding_tokens=1000',
  'max_forfeits_per_level_day=0', 'max_draws_per_level_day=0', 'log_requests=false', ...sets];
const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${dir}/cg.%p`, bin, 'serve',
  '--listen', `127.0.0.1:${port}`, '--data', dir, ...settings.flatMap((s) => ['--set', s])],
{ stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => { stderr += d; });

async function call(method, path, body, token) {
  const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
}

try {
  for (let k = 0; ; k++) { // bounded: 600 tries, 100 ms apart
    if (k >= 600) throw new Error(`the server did not answer in 60 s: ${stderr}`);
    try { await call('GET', '/healthz'); break; } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  const players = [];
  for (let i = 0; i < 16; i++) players.push(await call('POST', '/v1/players', { name: `instr${i}` }));
  const jobs = [];
  for (let i = 0; i < warm + n; i++) {
    const p = players[i % players.length];
    const s = await call('POST', '/v1/seeds', { game: 'schulte', level: 1 }, p.token);
    jobs.push({ token: p.token, body: { seed_token: s.seed_token, moves: await solveSchulte(1, s.seed, 700, s.version) } });
  }
  const send = async (list) => {
    let next = 0;
    await Promise.all(Array.from({ length: conns }, async () => {
      while (next < list.length) { const j = list[next++]; await call('POST', '/v1/scores', j.body, j.token); }
    }));
  };
  await send(jobs.slice(0, warm));
  await runOk('callgrind_control', ['-z', String(child.pid)]);
  await send(jobs.slice(warm));
  await runOk('callgrind_control', ['-d', String(child.pid)]);
  const dumps = readdirSync(dir).filter((f) => f.startsWith('cg.'));
  let total = 0, signs = 0;
  for (const f of dumps) {
    const text = readFileSync(join(dir, f), 'utf8');
    const t = /^totals:\s+(\d+)/m.exec(text) || /^summary:\s+(\d+)/m.exec(text);
    if (t && /^part:\s*[1-9]/m.test(text)) total += Number(t[1]);
  }
  // calls of crypto_sign_detached (every Ed25519 signature the server makes:
  // receipts, checkpoints) in the dumped part: callgrind's "cfn=" then "calls=" lines
  for (const f of dumps) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (!/^part:\s*[1-9]/m.test(text)) continue;
    const names = new Map();
    let callee = null;
    for (const line of text.split('\n')) {
      const m = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
      if (m) {
        if (m[2]) names.set(m[1], m[2]);
        if (line.startsWith('cfn=')) callee = names.get(m[1]);
        continue;
      }
      const c = /^calls=(\d+)/.exec(line);
      if (c && callee === 'crypto_sign_detached') signs += Number(c[1]);
      if (c) callee = null;
    }
  }
  console.log(JSON.stringify({ bin, sets, n, conns, instructions_per_submission: Math.round(total / n), signatures: signs }));
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => { const t = setTimeout(() => { child.kill('SIGKILL'); r(); }, 20000); child.on('exit', () => { clearTimeout(t); r(); }); });
  rmSync(dir, { recursive: true, force: true });
}
