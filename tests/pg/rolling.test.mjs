// Rolling restarts that drop nothing: three replayd nodes on one
// PostgreSQL database (REPLAYD_PG, tests/pg/pg_start.sh) behind a real
// HAProxy, then a real nginx, each configured as deploy/multinode ships it
// (ports rewritten, as tests/hostile/proxies.test.mjs does). A few clients
// keep registering, drawing, solving, submitting and reading boards
// through the balancer while each node is restarted in turn, twice over
// (SIGTERM, its exit, a start on the same data and keys, /healthz 200):
// no request fails (each is answered 2xx; every one is on a fresh
// connection, never retried here, so the balancer's answer is the
// client's) and every acknowledged score is readable afterwards. The
// request counts are printed as diagnostics.
//
// The figures of the note on main (before drain_grace_s and the balancers'
// retries) come from the same test: ROLLING_GRACE_S=0 and ROLLING_DEPLOY=
// a directory holding main's haproxy.cfg and nginx.conf.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, solveSchulte, PG, pgDatabase, sleep, BIN } from '../http/harness.mjs';
import { freePort, req as request, startHaproxy as haproxy, startNginx as nginx, skipHaproxy as noHaproxy,
  skipNginx as noNginx } from '../hostile/proxy_procs.mjs';
import { runOk } from '../http/proc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const deploy = process.env.ROLLING_DEPLOY || join(root, 'deploy', 'multinode');
const GRACE_S = process.env.ROLLING_GRACE_S ?? '5'; // drain_grace_s's default
const ROUNDS = 2;       // each node restarted this many times
const CLIENTS = 4;      // concurrent players through the balancer
const READERS = 2;      // and board readers
const DOWN_MS = Number(process.env.ROLLING_DOWN_MS ?? 3000); // a node's time down (an upgrade's)
const MAX_LOOPS = 5000; // a client's runs, at most
const HARD_MS = 240000; // the load's bound in time, whatever happens
process.setMaxListeners(50); // an exit hook per node and proxy started (the harness's)
const skip = !PG ? 'needs REPLAYD_PG (tests/run.sh starts PostgreSQL)' : false;
const skipHaproxy = skip || noHaproxy;
const skipNginx = skip || noNginx;
const ARGS = ['--set', 'rate_scores_per_player=100000', '--set', 'rate_seeds_per_player=100000',
  '--set', 'rate_register_per_ip=100000', '--set', 'rate_register_per_prefix=100000',
  '--set', 'rate_per_ip=1000000', '--set', 'plausibility_slack_ms=600000',
  '--set', 'max_outstanding_tokens=1000', '--set', 'max_draws_per_level_day=0',
  // as deploy/multinode/node.conf has it
  '--set', 'trusted_proxies=127.0.0.1', '--set', 'max_connections_per_ip=4096', '--set', 'keepalive=false',
  '--set', `drain_grace_s=${GRACE_S}`];

let url, work;
const dirs = [];
const ports = [];
let nodes = [];

// One request on a fresh connection, never retried (proxy_procs.mjs).
const req = (port, method, path, { body, token } = {}) =>
  request(port, method, path, { body, headers: token ? { Authorization: `Bearer ${token}` } : {}, timeoutMs: 40000 });

function startNode(i) {
  return startServer({ dataDir: dirs[i], args: ['--set', `database=${url}`, '--set', `port=${ports[i]}`, ...ARGS] });
}

before(async () => {
  if (skip) return;
  url = await pgDatabase('rolling_' + process.pid);
  work = mkdtempSync(join(tmpdir(), 'replayd-rolling-'));
  const keysrc = join(work, 'keysrc');
  await runOk(BIN, ['keygen', '--data', keysrc], { encoding: 'utf8' });
  for (let i = 0; i < 3; i++) {
    dirs.push(join(work, `node${i}`));
    mkdirSync(dirs[i], { recursive: true });
    cpSync(join(keysrc, 'keys'), join(dirs[i], 'keys'), { recursive: true });
    ports.push(await freePort());
  }
  nodes = [];
  for (let i = 0; i < 3; i++) nodes.push(await startNode(i)); // one at a time: the first migrates
});

after(async () => {
  for (const n of nodes) if (n) await n.stop('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

// The balancer's configuration with the nodes' ports.
const nodePorts = (cfg) => cfg.replace('127.0.0.1:8081', `127.0.0.1:${ports[0]}`)
  .replace('127.0.0.1:8082', `127.0.0.1:${ports[1]}`).replace('127.0.0.1:8083', `127.0.0.1:${ports[2]}`);
const startHaproxy = () => haproxy(deploy, work, (cfg) => nodePorts(cfg)
  .replace('log stdout format raw local0 info', '')); // its log is not read here
const startNginx = () => nginx(deploy, work, nodePorts);

// The load's tally: requests by kind and status, the failures (anything
// but 2xx) with their first few texts, and the acknowledged score ids.
function tally() {
  return { counts: {}, failures: [], acked: [] };
}

async function counted(t, kind, answer) {
  const a = await answer;
  const key = `${kind} ${a.status || a.error}`;
  t.counts[key] = (t.counts[key] || 0) + 1;
  if (a.status < 200 || a.status > 299) t.failures.push(`${key}: ${(a.text || a.error || '').slice(0, 160)}`);
  return a;
}

// One client: registers, then draws, solves and submits Schulte level 1
// and reads the board, until stop() (or MAX_LOOPS runs).
async function client(port, name, t, stop) {
  let player = null;
  for (let i = 0; i < MAX_LOOPS && !stop(); i++) {
    if (!player) {
      const r = await counted(t, 'register', req(port, 'POST', '/v1/players', { body: { name: `${name}-${i}` } }));
      if (r.status === 201) player = r.json;
      continue;
    }
    const s = await counted(t, 'seed', req(port, 'POST', '/v1/seeds', { token: player.token, body: { game: 'schulte', level: 1 } }));
    if (s.status !== 201 && s.status !== 200) continue;
    const moves = await solveSchulte(1, s.json.seed);
    const r = await counted(t, 'submit', req(port, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.json.seed_token, moves } }));
    if (r.status === 200) t.acked.push({ id: r.json.score_id, score: r.json.score });
    await counted(t, 'board', req(port, 'GET', '/v1/leaderboards/schulte/1?limit=10'));
  }
}

// One reader: the board, again and again, until stop() (or MAX_LOOPS).
async function reader(port, t, stop) {
  for (let i = 0; i < MAX_LOOPS && !stop(); i++) {
    await counted(t, 'board', req(port, 'GET', `/v1/leaderboards/schulte/1?limit=${1 + (i % 20)}`));
    await sleep(5);
  }
}

// Each node in turn, ROUNDS times: SIGTERM, its exit, DOWN_MS down (as an
// upgrade would be), a start on the same data, keys and port, /healthz
// 200, then time for the balancer to take it back (HAProxy: rise 2 at
// inter 1s; nginx: fail_timeout 2s).
async function rollingRestarts(log) {
  let restarts = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      nodes[i].child.kill('SIGTERM');
      const { code } = await nodes[i].exited;
      const stoppedMs = Date.now() - t0;
      assert.equal(code, 0, `node ${i} drained and exited 0`);
      await sleep(DOWN_MS);
      nodes[i] = await startNode(i);
      for (let k = 0; k < 100 && (await req(ports[i], 'GET', '/healthz')).status !== 200; k++) await sleep(100);
      log.push(`node ${i}: stopped in ${stoppedMs} ms, serving again after ${Date.now() - t0} ms`);
      restarts++;
      await sleep(3000);
    }
  }
  return restarts;
}

async function underRestarts(tc, proxy) {
  const t = tally();
  const log = [];
  let done = false;
  const started = Date.now();
  const stop = () => done || Date.now() - started > HARD_MS;
  const clients = [...Array.from({ length: CLIENTS }, (_, k) => client(proxy.port, `roll${k}`, t, stop)),
    ...Array.from({ length: READERS }, () => reader(proxy.port, t, stop))];
  let restarts = 0;
  try {
    await sleep(1500); // the load is going
    restarts = await rollingRestarts(log);
    await sleep(1000);
  } finally {
    done = true;
    await Promise.all(clients);
  }
  // every acknowledged score is there, asked of the nodes directly
  let lost = 0;
  for (const [k, x] of t.acked.entries()) {
    const r = await req(ports[k % 3], 'GET', `/v1/scores/${x.id}`);
    if (r.status !== 200 || r.json?.score !== x.score) lost++;
  }
  const total = Object.values(t.counts).reduce((a, b) => a + b, 0);
  tc.diagnostic(`drain_grace_s=${GRACE_S}, ${DOWN_MS} ms down, configs from ${deploy}`);
  for (const l of log) tc.diagnostic(l);
  tc.diagnostic(`${total} requests over ${restarts} restarts: ${t.failures.length} failed, ` +
    `${t.acked.length} scores acknowledged, ${lost} of them lost; ${JSON.stringify(t.counts)}`);
  for (const f of t.failures.slice(0, 10)) tc.diagnostic(`failed: ${f}`);
  assert.equal(restarts, 3 * ROUNDS, 'every node was restarted');
  assert.ok(t.acked.length >= 20, `enough load: ${t.acked.length} scores acknowledged`);
  assert.equal(t.failures.length, 0, 'no request failed');
  assert.equal(lost, 0, 'no acknowledged score was lost');
}

test('behind HAProxy: each node restarted in turn, twice, under load: no request fails, nothing acknowledged is lost', { skip: skipHaproxy, timeout: 300000 }, async (tc) => {
  const hp = await startHaproxy();
  try {
    await sleep(2500); // HAProxy's checks (inter 1s, rise 2) have every node up
    await underRestarts(tc, hp);
  } finally { await hp.stop(); }
});

test('behind nginx: the same', { skip: skipNginx, timeout: 300000 }, async (tc) => {
  const ng = await startNginx();
  try {
    await underRestarts(tc, ng);
  } finally { await ng.stop(); }
});
