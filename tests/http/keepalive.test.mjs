// Kept-alive connections (issue 35): every answer that keeps its
// connection says how long the server keeps it idle (Keep-Alive:
// timeout=N, the shorter of header_timeout_ms and connection_timeout_s),
// so that a pooled client retires its socket before the server closes it
// instead of sending its next request into the close ("fetch failed:
// other side closed" in Node's fetch, which keeps an idle socket 4 s
// unless told otherwise).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, sleep } from './harness.mjs';

test('every kept-alive answer says the idle bound: Keep-Alive: timeout=N', async () => {
  const srv = await startServer();
  try {
    const r = await call(srv, 'GET', '/healthz');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('keep-alive'), 'timeout=10', 'header_timeout_ms 10000, connection_timeout_s 15');
  } finally { await srv.stop(); srv.cleanup(); }
  const short = await startServer({ args: ['--set', 'header_timeout_ms=30000', '--set', 'connection_timeout_s=7'] });
  try {
    const r = await call(short, 'GET', '/healthz');
    assert.equal(r.headers.get('keep-alive'), 'timeout=7', 'connection_timeout_s is the shorter');
  } finally { await short.stop(); short.cleanup(); }
  const off = await startServer({ args: ['--set', 'keepalive=false'] });
  try {
    const r = await call(off, 'GET', '/healthz');
    assert.equal(r.headers.get('connection'), 'close');
    assert.equal(r.headers.get('keep-alive'), null, 'no idle bound on a connection that closes');
  } finally { await off.stop(); off.cleanup(); }
});

test('a pooled client that waits past the idle bound is served on its next POST, not cut', async () => {
  // The server closes an idle kept-alive connection after 3 s; Node's fetch
  // would keep it 4 s. Without the hint it sends the POST into the close.
  const srv = await startServer({ args: ['--set', 'header_timeout_ms=3000'] });
  try {
    const first = await Promise.all(Array.from({ length: 4 }, (_, i) => register(srv, `pooled-${i}`)));
    assert.equal(first.length, 4);
    await sleep(3500); // the subject is the idle time itself
    const again = await Promise.all(Array.from({ length: 4 }, (_, i) =>
      call(srv, 'POST', '/v1/players', { body: { name: `pooled-again-${i}` } })));
    for (const r of again) assert.equal(r.status, 201, r.text);
  } finally { await srv.stop(); srv.cleanup(); }
});
