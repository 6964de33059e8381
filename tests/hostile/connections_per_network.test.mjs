// Issue 40, item 2 (connection caps): max_connections_per_ip was
// libmicrohttpd's count per socket address, so a client connecting
// directly from many addresses of one IPv6 /64 held as many connections as
// it had addresses. The connection guard now counts open connections per
// IPv4 address or IPv6 /64 (an IPv4-mapped address as the IPv4 one) and
// answers a connection past the cap 429 too_many_connections, as JSON.
//
// Loopback has one IPv6 address, so the attack runs in a network namespace
// of its own where loopback holds whole networks: tests/hostile/netns_conns.mjs
// runs there and reports what each connection was answered. Root makes the
// namespace itself (unshare -n: a user namespace is refused inside a chroot,
// as in the fresh Debian root make fresh-check runs this in); anyone else
// gets a user namespace with it (unshare -rn, no privilege needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runOk } from '../http/proc.mjs';

test('one /64 shares one connection cap; another /64 and another IPv4 address have their own', { timeout: 90000 }, async () => {
  const script = fileURLToPath(new URL('./netns_conns.mjs', import.meta.url));
  const how = process.getuid() === 0 ? '-n' : '-rn';
  const text = await runOk('unshare', [how, process.execPath, script],
    { encoding: 'utf8', timeout: 80000, stdio: ['ignore', 'pipe', 'inherit'] });
  const out = JSON.parse(text.trim().split('\n').pop());
  // 30 addresses of the /64: 10 served, 20 refused with JSON
  assert.deepEqual(out.v6, { 200: 10, '429 too_many_connections': 20 }, JSON.stringify(out));
  assert.equal(out.otherNet, 200, 'another /64');
  assert.deepEqual(out.afterTwoClosed, { 200: 2 }, 'two closed, two served: ' + JSON.stringify(out));
  assert.equal(out.thirdAfterTwoClosed, 429, 'and the cap holds again');
  assert.deepEqual(out.v4, { 200: 10, '429 too_many_connections': 2 }, JSON.stringify(out));
  assert.equal(out.nextV4, 200, 'another IPv4 address');
  assert.equal(out.mappedV4, 429, 'the IPv4-mapped form is the same address');
  assert.ok(out.refusedSeen >= 24, JSON.stringify(out));
  assert.equal(out.metricPerNetwork, out.refusedSeen, '/metrics counts each refusal: ' + JSON.stringify(out));
});
