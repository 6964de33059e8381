// Issue 40 (rolling restarts, left over): HAProxy retries a request a node
// answered 503 only when it holds the whole request (retry-on needs it;
// http-buffer-request waits for the body), and it holds at most
// tune.bufsize. At its default (16 kB) a submission of more than about 600
// moves was answered a node's 503 where a smaller one went to another node.
// deploy/multinode/haproxy.cfg now sizes its buffers to the largest
// submission the nodes take; nginx buffers whole bodies anyway.
//
// Real parts on loopback: two SQLite nodes and the shipped balancer
// configuration in front. The first node is made full: max_connections = 2,
// both taken by registrations waiting for a writer another client holds
// (sqlite3's BEGIN IMMEDIATE), so a new connection there is answered 503
// overloaded before its request is read. A submission retried on the second
// node gets that node's answer (it knows neither the player nor the token:
// 401), never the first node's 503. The balancer's health checks take the
// full node out after two failed checks a second apart: the tries are made
// in the first moments, and what reached the full node is counted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, register, seed, dbHold, sleep } from '../http/harness.mjs';
import { req, startHaproxy as haproxy, startNginx as nginx, skipHaproxy, skipNginx } from './proxy_procs.mjs';

const deploy = process.env.DEPLOY_DIR || fileURLToPath(new URL('../../deploy/multinode/', import.meta.url));
let a, b, work, player, token;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'replayd-retry-'));
  const args = ['--set', 'trusted_proxies=127.0.0.1', '--set', 'max_connections_per_ip=1000'];
  a = await startServer({ args: [...args, '--set', 'max_connections=2', '--set', 'busy_timeout_ms=20000'] });
  b = await startServer({ args });
  player = await register(a, 'retried');
  token = (await seed(a, player.token, { game: 'pipes', level: 1 })).seed_token;
});

after(async () => {
  for (const s of [a, b]) if (s) { await s.stop(); s.cleanup(); }
  if (work) rmSync(work, { recursive: true, force: true });
});

// node1 is the first node; node2 and node3 the other one
const nodes = (cfg) => cfg.replace('127.0.0.1:8081', `127.0.0.1:${a.port}`)
  .replace('127.0.0.1:8082', `127.0.0.1:${b.port}`).replace('127.0.0.1:8083', `127.0.0.1:${b.port}`);

// Waits until the proxy sends requests to the first node (only it knows
// the player), then fills it: its writer held, two registrations waiting
// for it. A connection still sending its request is shed for a newer one
// (the balancer's health check, say) and a suspended one never, so a
// registration that was shed is replaced until a probe is refused.
// release() empties the node.
let fills = 0;
async function fillFirstNode(proxy) {
  let seen = false;
  for (let i = 0; i < 100 && !seen; i++) {
    // the first node knows the player (200 or 404 not_on_board), the other not (401)
    const r = await req(proxy.port, 'GET', '/v1/leaderboards/pipes/1/me', { headers: { Authorization: `Bearer ${player.token}` } });
    seen = r.status === 200 || r.status === 404;
    if (!seen) await sleep(100);
  }
  assert.ok(seen, 'the proxy sends requests to the first node');
  const hold = dbHold(a.dir);
  assert.equal(await hold.ready, true, 'the writer is held');
  const regs = [];
  const release = async () => { await hold.release(); await Promise.all(regs.map((r) => r.answer)); };
  let probe;
  for (let i = 0; i < 20 && probe?.json?.error?.code !== 'overloaded'; i++) {
    if (regs.filter((r) => !r.done).length < 2) {
      // each from an address of its own: registrations have a per-address budget
      const r = { done: false };
      fills++;
      r.answer = req(a.port, 'POST', '/v1/players', { body: { name: `waits${fills}` }, from: `127.0.0.${10 + fills}`, timeoutMs: 30000 })
        .then(() => { r.done = true; });
      regs.push(r);
      await sleep(300);
      continue;
    }
    probe = await req(a.port, 'GET', '/v1/games');
  }
  if (probe?.json?.error?.code !== 'overloaded') await release();
  assert.equal(probe?.json?.error?.code, 'overloaded', `the first node is full: ${probe?.status} ${probe?.text}`);
  return { release };
}

// A submission of n moves (each a rotation of cell 0, a second apart): its
// body's size in bytes, and the answers of `times` tries through the proxy.
async function submitThrough(port, n, times) {
  const moves = Array.from({ length: n }, (_, i) => ({ t: 1000 * (i + 1), cell: 0 }));
  const body = { seed_token: token, moves };
  const statuses = {};
  for (let i = 0; i < times; i++) {
    const r = await req(port, 'POST', '/v1/scores', { body, headers: { Authorization: `Bearer ${player.token}` }, timeoutMs: 10000 });
    const key = `${r.status} ${r.json?.error?.code ?? r.error ?? ''}`.trim();
    statuses[key] = (statuses[key] || 0) + 1;
  }
  return { bytes: JSON.stringify(body).length, statuses };
}

// Round robin over three lines, one of them the full node: of six tries
// two go there first. The full node is taken out by the balancer's checks
// (HAProxy: two failed a second apart; nginx: two failed requests), so the
// tries are made at once, large ones first.
async function check(proxy) {
  const full = await fillFirstNode(proxy);
  let large, small;
  try {
    large = await submitThrough(proxy.port, 1900, 6);
    small = await submitThrough(proxy.port, 20, 6);
  } finally { await full.release(); }
  assert.ok(large.bytes > 40000, `a large submission: ${large.bytes} bytes`);
  for (const [what, r] of [['large', large], ['small', small]]) {
    assert.equal(r.statuses['503 overloaded'], undefined, `${what} (${r.bytes} bytes): ${JSON.stringify(r.statuses)}`);
    assert.equal(r.statuses['401 unauthorized'], 6, `${what} (${r.bytes} bytes): ${JSON.stringify(r.statuses)}`);
  }
}

test('behind HAProxy: a submission a full node answers 503 is retried on another, however large', { skip: skipHaproxy, timeout: 60000 }, async () => {
  const hp = await haproxy(deploy, work, (cfg) => nodes(cfg).replace('log stdout format raw local0 info', ''));
  try { await check(hp); } finally { await hp.stop(); }
});

test('behind nginx: the same', { skip: skipNginx, timeout: 60000 }, async () => {
  const ng = await nginx(deploy, work, nodes);
  try { await check(ng); } finally { await ng.stop(); }
});
