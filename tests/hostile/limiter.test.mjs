// Issue 12, row 4: rate-limit buckets an attacker can steer. Before, a
// bucket was chosen by an unkeyed FNV hash, so two keys sharing a slot
// could be computed offline, and alternating them reset each other's
// bucket. This test computes such pairs of loopback addresses for that old
// scheme and alternates them: with a keyed hash (SipHash under a
// per-process secret) and an eviction that never takes an active bucket,
// each address keeps its own limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer } from './lib.mjs';

const M64 = (1n << 64n) - 1n;

function fnv1a32(h, bytes) {
  for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
  return h >>> 0;
}

// The old slot of (kind, key), as main's server/trust/ratelimit.c computed it.
function oldSlot(kind, key) {
  const enc = (s) => Buffer.from(s, 'latin1');
  let h1 = fnv1a32(0x811c9dc5, enc(kind));
  h1 = fnv1a32(h1, [0x1f]);
  h1 = fnv1a32(h1, enc(key));
  const lo = fnv1a32(0x9e3779b9, enc(key));
  const h = (BigInt(h1) << 32n) | BigInt(lo);
  const mixed = ((h ^ (h >> 29n)) * 0xbf58476d1ce4e5b9n) & M64;
  return Number((mixed >> 32n) % 65536n);
}

function collidingPair(kind) {
  const seen = new Map();
  for (let a = 0; a < 40; a++) {
    for (let b = 2; b < 255; b++) {
      const ip = `127.0.${a}.${b}`;
      const slot = oldSlot(kind, ip);
      if (seen.has(slot)) return [seen.get(slot), ip];
      seen.set(slot, ip);
    }
  }
  throw new Error('no pair');
}

function request(port, method, path, localAddress, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, localAddress, agent: false,
      headers: body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

test('two addresses that shared a slot under the old hash do not reset each other (registrations)', { timeout: 60000 }, async () => {
  const [a, b] = collidingPair('register');
  const srv = await startServer({ args: ['--set', 'rate_register_per_ip=30'] });
  try {
    let accepted = 0;
    for (let i = 0; i < 200; i++) {
      const status = await request(srv.port, 'POST', '/v1/players', i % 2 ? b : a, JSON.stringify({ name: `p${i}` }));
      if (status === 201) accepted++;
    }
    console.log(`# registrations alternating ${a} and ${b}: ${accepted} of 200 accepted (limit 30 each)`);
    // 30 each, plus what refills (30 a minute) while the test runs
    assert.ok(accepted <= 60 + 10, `${accepted} accepted`);
    assert.ok(accepted >= 60, `${accepted} accepted: each address has its own bucket`);
  } finally {
    await srv.stop();
    srv.cleanup();
  }
});

test('two addresses that shared a slot under the old hash do not reset each other (per address)', { timeout: 60000 }, async () => {
  const [a, b] = collidingPair('ip');
  const srv = await startServer({ args: ['--set', 'rate_per_ip=100'] });
  try {
    let limited = 0;
    for (let i = 0; i < 700; i++) {
      if (await request(srv.port, 'GET', '/healthz', i % 2 ? b : a) === 429) limited++;
    }
    console.log(`# per-address limit alternating ${a} and ${b}: ${limited} of 700 limited (limit 100 each)`);
    assert.ok(limited >= 700 - 200 - 40, `${limited} limited`);
  } finally {
    await srv.stop();
    srv.cleanup();
  }
});
