// Issue 12, row 10: /metrics is not public by default (behind admin_token,
// or on its own listener with metrics_listen, or public only when
// metrics_public says so), and the database files are 0600.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, call, ADMIN_TOKEN } from './lib.mjs';

test('/metrics: absent by default, behind the admin token, or public when told', async () => {
  const plain = await startServer();
  try {
    assert.equal((await call(plain, 'GET', '/metrics')).status, 404);
  } finally { await plain.stop(); plain.cleanup(); }
  const admin = await startServer({ admin: ADMIN_TOKEN });
  try {
    const no = await call(admin, 'GET', '/metrics');
    assert.equal(no.status, 401);
    assert.equal(no.json.error.code, 'unauthorized');
    assert.equal((await call(admin, 'GET', '/metrics', { token: 'wrong' })).status, 401);
    const yes = await call(admin, 'GET', '/metrics', { token: ADMIN_TOKEN });
    assert.equal(yes.status, 200);
    assert.match(yes.text, /replayd_requests_total/);
  } finally { await admin.stop(); admin.cleanup(); }
  const open = await startServer({ args: ['--set', 'metrics_public=true'] });
  try {
    assert.equal((await call(open, 'GET', '/metrics')).status, 200);
  } finally { await open.stop(); open.cleanup(); }
});

test('/metrics on its own address', async () => {
  const srv = await startServer({ args: ['--set', 'metrics_listen=127.0.0.1:0'], admin: ADMIN_TOKEN });
  try {
    const port = Number(srv.stderr().match(/"metrics_port":(\d+)/)[1]);
    assert.ok(port > 0 && port !== srv.port);
    const m = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(m.status, 200);
    assert.match(await m.text(), /replayd_requests_total/);
    const other = await fetch(`http://127.0.0.1:${port}/v1/games`);
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error.code, 'not_found');
    // the main listener does not serve them, even to the admin
    assert.equal((await call(srv, 'GET', '/metrics', { token: ADMIN_TOKEN })).status, 404);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('database, WAL and shared-memory files are 0600', async () => {
  const srv = await startServer();
  try {
    await call(srv, 'POST', '/v1/players', { body: { name: 'files' } });
    for (const f of ['replayd.db', 'replayd.db-wal', 'replayd.db-shm']) {
      const p = join(srv.dir, f);
      if (f === 'replayd.db') assert.ok(existsSync(p));
      if (existsSync(p)) assert.equal(statSync(p).mode & 0o777, 0o600, `${f} mode`);
    }
    for (const f of ['keys', 'keys/token-hash.key', 'keys/mac-1.key', 'keys/sign-1.key']) {
      assert.equal(statSync(join(srv.dir, f)).mode & 0o077, 0, `${f} is the owner's only`);
    }
  } finally { await srv.stop(); srv.cleanup(); }
});
