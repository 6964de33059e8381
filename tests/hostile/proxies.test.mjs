// Behind a real HAProxy and a real nginx (Debian's haproxy and nginx-light),
// configured as deploy/multinode ships them, started here on loopback on
// random ports: the spoofed-address attacks of issue 27 and the health
// check knock-out. Each attacker and operator connects from its own
// loopback address (127.0.0.0/8 all routes to lo); the proxies reach the
// node from 127.0.0.1, the node's trusted_proxies (deploy/multinode/node.conf).
// Every loop is bounded in count; what each attack achieved is printed as
// a diagnostic (the before/after table of the note comes from it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, ADMIN_TOKEN, sleep } from './lib.mjs';
import { req, startHaproxy as haproxy, startNginx as nginx, skipHaproxy, skipNginx } from './proxy_procs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const deploy = join(root, 'deploy', 'multinode');

// The three header defects of issue 27, each as a way to name address
// `spoof` for the node: the client's own X-Forwarded-For (HAProxy appends
// a second header), a Forwarded header the client wrote, and a chain of 40
// hops with the spoof 32nd (only the leftmost 32 were kept).
const forms = {
  'own X-Forwarded-For': (spoof) => ({ 'X-Forwarded-For': spoof }),
  'own Forwarded': (spoof) => ({ Forwarded: `for=${spoof}` }),
  '40-hop chain': (spoof) => ({ 'X-Forwarded-For': [...Array.from({ length: 31 }, (_, i) => `10.0.${i}.1`), spoof,
    ...Array.from({ length: 8 }, (_, i) => `10.1.${i}.1`)].join(', ') }),
};

let node, work;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'replayd-proxies-'));
  node = await startServer({ admin: ADMIN_TOKEN, args: ['--config', join(deploy, 'node.conf'), '--set', 'database=',
    '--set', 'log_requests=true', '--set', 'rate_per_ip=120', '--set', 'drain_grace_s=0'] });
});
after(async () => {
  if (node) { await node.stop(); node.cleanup(); }
  if (work) rmSync(work, { recursive: true, force: true });
});

// deploy/multinode/haproxy.cfg with its ports and one node (this one).
const startHaproxy = () => haproxy(deploy, work, (cfg) => cfg.replace('127.0.0.1:8081', `127.0.0.1:${node.port}`)
  .split('\n').filter((l) => !/server node[23] /.test(l)).join('\n'));

// deploy/multinode/nginx.conf with its ports and one node, run unprivileged
// with its paths under the work directory.
const startNginx = () => nginx(deploy, work, (cfg) => cfg.replace('127.0.0.1:8081', `127.0.0.1:${node.port}`)
  .split('\n').filter((l) => !/127\.0\.0\.1:808[23]/.test(l)).join('\n'));

// The four things the spoofs bought, through the proxy on `port`, by an
// attacker and an operator on addresses of their own under 127.<net>.
async function attacks(port, net3, form) {
  const spoof = forms[form];
  const attacker = `127.${net3}.0.2`, operator = `127.${net3}.0.3`, operator2 = `127.${net3}.0.4`;
  const out = {};
  // 45 registrations, each naming another address (limit 30 an address)
  let made = 0;
  for (let i = 0; i < 45; i++) {
    const r = await req(port, 'POST', '/v1/players', { from: attacker, headers: spoof(`198.51.${net3}.${i + 1}`), body: { name: `s${i}` } });
    if (r.status === 201) made++;
  }
  out.registrations = made;
  // 60 wrong admin tokens, each naming another address (limit 10 a minute)
  let checked = 0;
  const t0 = performance.now();
  for (let i = 0; i < 60; i++) {
    const r = await req(port, 'GET', '/v1/admin/log', { from: attacker, headers: { ...spoof(`192.0.${net3}.${i + 1}`), Authorization: 'Bearer wrong-wrong-wrong-wrong-wrong-wrong' } });
    if (r.status === 401) checked++;
  }
  out.tokensChecked = checked;
  out.tokenSeconds = (performance.now() - t0) / 1000;
  // locking the operator out: 20 wrong tokens naming the operator's address
  for (let i = 0; i < 20; i++)
    await req(port, 'GET', '/v1/admin/log', { from: attacker, headers: { ...spoof(operator), Authorization: 'Bearer wrong-wrong-wrong-wrong-wrong-wrong' } });
  const mine = await req(port, 'GET', '/v1/admin/log?limit=1', { from: operator, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  out.operatorStatus = mine.status;
  // the address an operator's action is logged under
  const p = await req(port, 'POST', '/v1/players', { from: operator2, body: { name: 'target' } });
  const ban = await req(port, 'POST', `/v1/admin/players/${p.json?.player_id}/ban`, { from: operator2,
    headers: { ...spoof('203.0.113.66'), Authorization: `Bearer ${ADMIN_TOKEN}` }, body: { reason: 'test', operator: 'op' } });
  out.banStatus = ban.status;
  const log = await req(port, 'GET', '/v1/admin/log?limit=200', { from: operator2, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  const entry = (log.json?.items || []).filter((e) => e.target === `player:${p.json.player_id}`).pop();
  out.loggedActor = entry?.actor;
  out.operator2 = operator2;
  return out;
}

function say(t, via, form, o) {
  t.diagnostic(`${via} / ${form}: registrations ${o.registrations}/45, wrong admin tokens checked ${o.tokensChecked}/60 in ${o.tokenSeconds.toFixed(2)} s, operator ${o.operatorStatus}, ban ${o.banStatus}, logged as ${o.loggedActor}`);
}

function holds(form, o) {
  assert.ok(o.registrations <= 30, `${form}: ${o.registrations} registrations from one address (limit 30)`);
  assert.ok(o.tokensChecked <= 10, `${form}: ${o.tokensChecked} wrong tokens checked (limit 10 a minute)`);
  assert.equal(o.operatorStatus, 200, `${form}: the operator is not locked out by someone else's failures`);
  assert.equal(o.banStatus, 200, `${form}: the operator's action was taken`);
  assert.equal(o.loggedActor, `op@${o.operator2}`, `${form}: admin_log names the real address`);
}

test('behind HAProxy: no header a client writes changes its address (registrations, admin guessing, lock-out, admin_log)', { skip: skipHaproxy }, async (t) => {
  const hp = await startHaproxy();
  try {
    let k = 10;
    const seen = [];
    for (const form of Object.keys(forms)) seen.push([form, await attacks(hp.port, k++, form)]);
    for (const [form, o] of seen) say(t, 'haproxy', form, o);
    for (const [form, o] of seen) holds(form, o);
  } finally { await hp.stop(); }
});

test('behind nginx: the same', { skip: skipNginx }, async (t) => {
  const ng = await startNginx();
  try {
    let k = 20;
    const seen = [];
    for (const form of Object.keys(forms)) seen.push([form, await attacks(ng.port, k++, form)]);
    for (const [form, o] of seen) say(t, 'nginx', form, o);
    for (const [form, o] of seen) holds(form, o);
  } finally { await ng.stop(); }
});

test('behind HAProxy: a client counted as the proxy cannot empty the health checks\' bucket', { skip: skipHaproxy }, async (t) => {
  const hp = await startHaproxy();
  try {
    await sleep(2500); // HAProxy's checks (inter 1s, rise 2) have the node up
    // four loops for 6 s (at most 1,200 requests each, 5 ms apart, so the
    // flood spans several of HAProxy's checks), naming 127.0.0.1 or
    // "unknown", against rate_per_ip 120
    const attacker = '127.30.0.2', honest = '127.30.0.3';
    const statuses = { attacker: {}, honest: {} };
    const count = (who, s) => { statuses[who][s] = (statuses[who][s] || 0) + 1; };
    const healthLines = () => node.stderr().split('\n').filter((l) => l.includes('"path":"/healthz"'));
    const before = healthLines().length;
    const t0 = Date.now();
    const flood = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 1200 && Date.now() - t0 < 6000; i++) {
        const h = i % 2 ? { 'X-Forwarded-For': '127.0.0.1' } : { 'X-Forwarded-For': 'unknown' };
        count('attacker', (await req(hp.port, 'GET', '/v1/games', { from: attacker, headers: h })).status);
        await sleep(5);
      }
    });
    const polite = (async () => {
      for (let i = 0; i < 60 && Date.now() - t0 < 6500; i++) {
        count('honest', (await req(hp.port, 'GET', '/v1/daily', { from: honest })).status);
        await sleep(100);
      }
    })();
    await Promise.all([...flood, polite]);
    const checks = healthLines().slice(before).map((l) => JSON.parse(l).status);
    const failed = checks.filter((s) => s !== 200).length;
    t.diagnostic(`attacker ${JSON.stringify(statuses.attacker)}, honest ${JSON.stringify(statuses.honest)}, health checks ${checks.length} of which not 200: ${failed}`);
    assert.ok(checks.length >= 3, 'HAProxy checked the node');
    assert.equal(failed, 0, 'no health check was refused');
    assert.equal(statuses.honest[503] || 0, 0, 'the honest client never met a node marked down');
    assert.ok((statuses.attacker[429] || 0) > 0, 'the attacker met its own limit');
  } finally { await hp.stop(); }
});
