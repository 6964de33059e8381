// tools/conform.mjs (run as tools/conform, a wrapper): the conformance runner
// for a port of the games (docs/PORTING.md, "The conformance runner").
//
//   tools/conform [--seeds N] [--seed S] [--games a,b] [--ref CMD] [--vectors DIR] [--timeout SECONDS] -- CMD ARGS...
//
// Starts CMD and speaks a JSON-lines protocol with it on stdin/stdout: every
// level and replay case of vectors/*.json (tools/kit/cases.mjs has the rules),
// then N held-out seeds per game (default 20; none of them in any vector): a
// gen request at a random level and a replay of a vector case's moves (as they
// are, or nudged) on that seed, each answer compared with the reference port's (the server's own C
// code through libreplay, build/<cc>-release/conform-ref, or --ref). Prints a
// pass table per game; exit status 0 when every case of every game the port
// serves passed (a game it does not list is shown as not ported and fails
// unless --games leaves it out).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { randomInt } from 'node:crypto';
import { agree, casesOf, check } from './kit/cases.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function usage(msg) {
  if (msg) console.error(`conform: ${msg}`);
  console.error('usage: tools/conform [--seeds N] [--seed S] [--games a,b] [--ref CMD] [--vectors DIR] [--timeout SECONDS] -- CMD ARGS...');
  process.exit(2);
}

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
if (dash < 0 || dash === argv.length - 1) usage('no port command after --');
const opts = { seeds: 20, seed: randomInt(2 ** 31), games: null, ref: null, vectors: join(root, 'vectors'), timeout: 120 };
for (let i = 0; i < dash; i++) {
  const k = argv[i];
  const v = argv[i + 1];
  if (v === undefined || i + 1 >= dash) usage(`${k} needs a value`);
  i++;
  if (k === '--seeds') opts.seeds = Number(v);
  else if (k === '--seed') opts.seed = Number(v);
  else if (k === '--games') opts.games = v.split(',');
  else if (k === '--ref') opts.ref = v;
  else if (k === '--vectors') opts.vectors = v;
  else if (k === '--timeout') opts.timeout = Number(v);
  else usage(`unknown option ${k}`);
}
if (!Number.isInteger(opts.seeds) || opts.seeds < 0) usage('--seeds takes a count');
const portCmd = argv.slice(dash + 1);

/** A port process: request(obj) -> Promise<answer>, in order, matched by id. */
function startPort(cmd, label) {
  const child = spawn(cmd[0], cmd.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map();
  let nextId = 1;
  let dead = null;
  const fail = (why) => {
    dead = dead || why;
    for (const { reject } of pending.values()) reject(new Error(dead));
    pending.clear();
  };
  child.on('error', (e) => fail(`${label}: ${e.message}`));
  child.on('exit', (code, sig) => fail(`${label} exited (${sig || code})`));
  child.stdin.on('error', () => {});
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    let ans;
    try {
      ans = JSON.parse(line);
    } catch {
      return fail(`${label} wrote a line that is not JSON: ${line.slice(0, 120)}`);
    }
    const p = pending.get(ans.id);
    if (!p) return fail(`${label} answered an id it was not asked: ${ans.id}`);
    pending.delete(ans.id);
    clearTimeout(p.timer);
    p.resolve(ans);
  });
  return {
    request(req) {
      if (dead) return Promise.reject(new Error(dead));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => fail(`${label}: no answer to request ${id} in ${opts.timeout} s`), opts.timeout * 1000);
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        child.stdin.write(`${JSON.stringify({ id, ...req })}\n`);
      });
    },
    close() {
      child.stdin.end();
      setTimeout(() => child.kill(), 2000).unref();
    },
  };
}

/** Runs requests with at most `window` in flight; returns the answers (or errors) in order. */
async function all(port, reqs, window = 256) {
  const out = new Array(reqs.length);
  let next = 0;
  async function worker() {
    while (next < reqs.length) {
      const i = next++;
      try {
        out[i] = await port.request(reqs[i]);
      } catch (e) {
        out[i] = { error: e.message };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(window, reqs.length) }, worker));
  return out;
}

function refCommand() {
  if (opts.ref) return opts.ref.split(' ');
  for (const b of [`build/${process.env.CC || 'cc'}-release`, 'build/cc-release', 'build/gcc-release', 'build/clang-release']) {
    const p = join(root, b, 'conform-ref');
    if (existsSync(p)) return [p];
  }
  usage('no reference port: run make lib (builds build/<cc>-release/conform-ref) or pass --ref');
}

// mulberry32 for the held-out choices, so --seed S repeats a run exactly.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const files = readdirSync(opts.vectors).filter((f) => f.endsWith('.json')).sort();
const byGame = new Map();
for (const f of files) {
  const json = JSON.parse(readFileSync(join(opts.vectors, f), 'utf8'));
  if ('game' in json) byGame.set(json.game, json);
}

const port = startPort(portCmd, 'the port');
const ref = startPort(refCommand(), 'the reference');
const hello = await port.request({ op: 'hello' }).catch((e) => ({ error: e.message }));
if (hello.error || !Array.isArray(hello.games)) {
  console.error(`conform: the port did not answer hello: ${hello.error || JSON.stringify(hello)}`);
  process.exit(1);
}
const refHello = await ref.request({ op: 'hello' });
const games = opts.games || [...new Set([...byGame.keys(), ...refHello.games])];
console.log(`conform: ${portCmd.join(' ')} (${hello.port || 'a port'}); held-out seeds: ${opts.seeds} per game, --seed ${opts.seed}`);

const rows = [];
let ok = true;
for (const game of games) {
  const row = { game, vectors: [0, 0], heldOut: [0, 0], failures: [] };
  rows.push(row);
  if (!hello.games.includes(game)) {
    row.missing = true;
    ok = false;
    continue;
  }
  const json = byGame.get(game);
  const cases = json ? casesOf(json) : [];
  const answers = await all(port, cases.map((c) => c.request));
  cases.forEach((c, i) => {
    const why = check(c.kind, c.case, answers[i]);
    row.vectors[1]++;
    if (why) row.failures.push(`[${c.kind}] ${c.name}: ${why}`);
    else row.vectors[0]++;
  });
  // Held-out seeds: never in a vector of this game.
  const used = new Set(cases.map((c) => c.case.seed));
  const rand = rng(opts.seed ^ [...game].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261));
  const replays = cases.filter((c) => c.kind === 'replays' && !c.case.refused && !c.case.params);
  const info = refHello.games.includes(game) ? await ref.request({ op: 'gen', game, version: 1, level: 1, seed: 0 }) : null;
  if (!info || info.refused || info.error) {
    row.failures.push(`held-out: the reference has no ${game}`);
    ok = false;
  }
  const held = [];
  for (let k = 0; info && k < opts.seeds; k++) {
    let seed;
    do seed = Math.floor(rand() * 4294967296); while (used.has(seed));
    if (replays.length && k % 2 === 1) {
      const c = replays[Math.floor(rand() * replays.length)].case;
      // Every other replay nudges some of the moves' values (times by up to
      // 200 ms, other fields by up to 2), reaching other rules on the way.
      const nudge = k % 4 === 3;
      const moves = nudge ? c.moves.map((m) => Object.fromEntries(Object.entries(m).map(([f, v]) => {
        if (!Number.isInteger(v) || rand() >= 0.15) return [f, v];
        const d = f === 't' || f === 'tick' ? Math.round((rand() - 0.5) * 400) : Math.round((rand() - 0.5) * 4);
        return [f, v + d];
      }))) : c.moves;
      held.push({ op: 'replay', game, version: c.version, level: c.level, seed, moves, from: `${nudge ? 'nudged ' : ''}${c.name}` });
    } else {
      const plain = json ? json.levels.filter((c) => !c.refused && !c.params) : [];
      const level = plain.length ? plain[Math.floor(rand() * plain.length)] : { version: 1, level: 1 };
      held.push({ op: 'gen', game, version: level.version, level: level.level, seed });
    }
  }
  const strip = (r) => { const { from, ...q } = r; return q; };
  const [got, want] = await Promise.all([all(port, held.map(strip)), all(ref, held.map(strip))]);
  // A level's game/version/level/seed echo the request: a port may leave them out.
  const bare = (ans) => {
    // A refusal's message is free text: only its reason must agree.
    const { id, message, ...rest } = ans || {};
    if (rest.level && typeof rest.level === 'object') {
      const { game: _g, version: _v, level: _l, seed: _s, ...own } = rest.level;
      rest.level = own;
    }
    return rest;
  };
  held.forEach((r, i) => {
    const g = bare(got[i]);
    const w = bare(want[i]);
    const why = w.error ? `the reference failed: ${w.error}` : agree(g, w);
    row.heldOut[1]++;
    if (why) row.failures.push(`[held-out ${r.op}] ${game} version ${r.version} level ${r.level} seed ${r.seed}${r.from ? ` (the moves of "${r.from}")` : ''}: ${why}`);
    else row.heldOut[0]++;
  });
  if (row.failures.length) ok = false;
}
port.close();
ref.close();

const pad = (s, n) => String(s).padEnd(n);
console.log(`\n${pad('game', 14)}${pad('vectors', 16)}${pad('held-out', 14)}result`);
for (const r of rows) {
  if (r.missing) {
    console.log(`${pad(r.game, 14)}${pad('-', 16)}${pad('-', 14)}NOT PORTED`);
    continue;
  }
  const res = r.failures.length ? 'FAIL' : 'pass';
  console.log(`${pad(r.game, 14)}${pad(`${r.vectors[0]}/${r.vectors[1]}`, 16)}${pad(`${r.heldOut[0]}/${r.heldOut[1]}`, 14)}${res}`);
}
for (const r of rows) {
  if (!r.failures.length) continue;
  console.log(`\n${r.game}: ${r.failures.length} failed${r.failures.length > 20 ? ' (the first 20)' : ''}`);
  for (const f of r.failures.slice(0, 20)) console.log(`  ${f}`);
}
console.log(ok ? '\nconform: every game passed' : '\nconform: FAILED');
process.exit(ok ? 0 : 1);
