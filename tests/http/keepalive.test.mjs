// Kept-alive connections (issue 35): every answer that keeps its
// connection says how long the server keeps it idle (Keep-Alive:
// timeout=N, the shorter of header_timeout_ms and connection_timeout_s),
// so that a pooled client retires its socket before the server closes it
// instead of sending its next request into the close. (On loopback a
// client whose loop is free sees the close at once, and one whose loop is
// blocked reuses the socket with or without the hint, so no burst here
// shows the race; the header is what is checked.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call } from './harness.mjs';

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
