// Issue 40, item 2: one IPv6 /64 is one budget. Behind a trusted proxy with
// rate_per_ip = 60, 300 requests from 300 addresses of one /64 were all
// served (one address alone: 60), and sixty wrong admin tokens from one /64
// were all checked (one address: 10). Every per-address bucket (requests,
// the admin lockout, sign-in nonces) now keys an IPv6 client by its /64
// and an IPv4-mapped form as the IPv4 address; registrations already had a
// per-network budget (hostile/storage).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_TOKEN } from './lib.mjs';

let srv;
before(async () => {
  srv = await startServer({ admin: ADMIN_TOKEN,
    args: ['--set', 'trusted_proxies=127.0.0.1', '--set', 'rate_per_ip=60'] });
});
after(async () => { await srv.stop(); srv.cleanup(); });

async function get(path, from, headers = {}) {
  const r = await fetch(`http://127.0.0.1:${srv.port}${path}`, { headers: { 'X-Forwarded-For': from, ...headers } });
  await r.arrayBuffer();
  return r.status;
}

// A budget refills as the minute goes by (per_minute / 60 a second): what
// a run may be served is the budget and what refilled while it ran.
function within(served, budget, perMinute, t0) {
  const refilled = Math.ceil(((Date.now() - t0) / 60000) * perMinute) + 1;
  return served >= budget && served <= budget + refilled;
}

function tally(statuses) {
  const t = {};
  for (const s of statuses) t[s] = (t[s] || 0) + 1;
  return t;
}

test('300 addresses of one /64 share one request budget; the next /64 has its own', { timeout: 60000 }, async () => {
  const statuses = [];
  const t0 = Date.now();
  for (let i = 1; i <= 300; i++) statuses.push(await get('/v1/leaderboards', `2001:db8:aa:1::${i.toString(16)}`));
  const t = tally(statuses);
  assert.ok(within(t[200], 60, 60, t0), `served ${JSON.stringify(t)}`);
  assert.equal(t[200] + t[429], 300, JSON.stringify(t));
  assert.equal(await get('/v1/leaderboards', '2001:db8:aa:2::1'), 200, 'another /64');
  // the same /64 written in other forms is the same network: refused, but
  // for what refilled meanwhile (one a second: under load a refill can
  // fall between two of these; a fresh budget would serve all four)
  const t1 = Date.now();
  const forms = [];
  for (const form of ['2001:0db8:00aa:0001:ffff:ffff:ffff:ffff', '[2001:db8:aa:1::7]', '2001:db8:aa:1:0:0:0:1', '2001:DB8:AA:1::8']) {
    forms.push(await get('/v1/leaderboards', form));
  }
  const servedForms = forms.filter((st) => st === 200).length;
  assert.ok(servedForms <= Math.ceil((Date.now() - t1) / 1000), `other forms of the /64: ${JSON.stringify(forms)}`);
  assert.equal(servedForms + forms.filter((st) => st === 429).length, forms.length, JSON.stringify(forms));
});

test('an IPv4-mapped IPv6 address counts as its IPv4 address', { timeout: 60000 }, async () => {
  const statuses = [];
  const t0 = Date.now();
  for (let i = 0; i < 40; i++) statuses.push(await get('/v1/leaderboards', '192.0.2.9'));
  for (let i = 0; i < 40; i++) statuses.push(await get('/v1/leaderboards', '::ffff:192.0.2.9'));
  const t = tally(statuses);
  assert.ok(within(t[200], 60, 60, t0), `served ${JSON.stringify(t)}`);
  assert.equal(await get('/v1/leaderboards', '192.0.2.10'), 200, 'the next IPv4 address has its own budget');
});

test('wrong admin tokens from one /64 meet one lockout', { timeout: 60000 }, async () => {
  const statuses = [];
  const t0 = Date.now();
  for (let i = 1; i <= 60; i++) {
    statuses.push(await get('/v1/admin/log', `2001:db8:bb:1::${i.toString(16)}`, { Authorization: 'Bearer wrong' }));
  }
  const t = tally(statuses);
  assert.ok(within(t[401], 10, 10, t0), `checked: ${JSON.stringify(t)}`);
  assert.equal(t[401] + t[429], 60, JSON.stringify(t));
  // even the right token is refused from that /64 until the minute passes
  assert.equal(await get('/v1/admin/log', '2001:db8:bb:1::ffff', { Authorization: `Bearer ${ADMIN_TOKEN}` }), 429);
  assert.equal(await get('/v1/admin/log', '2001:db8:bb:2::1', { Authorization: `Bearer ${ADMIN_TOKEN}` }), 200,
    'another /64 is not locked out');
});
