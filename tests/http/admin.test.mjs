// The operator's view: seed-token accounting behind the admin token, where
// seeds drawn and left to expire show as abandoned attempts. And TLS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, awaitRun, sleep, selfSignedCert, ADMIN_TOKEN, BIN } from './harness.mjs';
import { run, runOk } from './proc.mjs';

test('admin: token accounting shows abandoned attempts; the endpoint is guarded', async () => {
  const srv = await startServer({ args: ['--set', 'token_lifetime_s=3'], admin: ADMIN_TOKEN });
  try {
    const p = await register(srv, 'seed-shopper');
    for (let i = 0; i < 3; i++) await seed(srv, p.token, { game: 'schulte', level: 1 });
    const kept = await seed(srv, p.token, { game: 'schulte', level: 1 });
    const moves = await solve('schulte', 1, kept.seed);
    await awaitRun(kept, moves);
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: kept.seed_token, moves } });
    assert.equal(r.status, 200, r.text);
    await sleep(Date.parse(kept.expires_at) - Date.now() + 200);
    const stats = await call(srv, 'GET', `/v1/admin/players/${p.player_id}`, { token: ADMIN_TOKEN });
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual(stats.json.tokens,
      { issued: 4, redeemed: 1, completed: 1, incomplete: 0, forfeited: 0, outstanding: 0, abandoned: 3,
        draws_today: 4, most_draws_one_level_today: 4 });
    assert.equal((await call(srv, 'GET', `/v1/admin/players/${p.player_id}`, { token: 'wrong' })).status, 401);
    assert.equal((await call(srv, 'GET', `/v1/admin/players/${p.player_id}`)).status, 401);
    assert.equal((await call(srv, 'GET', `/v1/admin/players/${p.player_id}`, { token: p.token })).status, 401);
  } finally { await srv.stop(); srv.cleanup(); }
  const off = await startServer();
  try {
    assert.equal((await call(off, 'GET', '/v1/admin/players/1', { token: '' })).status, 404, 'no admin token configured: no admin endpoints');
  } finally { await off.stop(); off.cleanup(); }
});

test('tls: with a certificate and key the server speaks HTTPS', async (t) => {
  const probe = await startServer();
  const dir = probe.dir;
  await probe.stop();
  const { cert, key } = await selfSignedCert(dir, '127.0.0.1');
  const srv = await startServer({ dataDir: dir, args: ['--set', `tls_cert=${cert}`, '--set', `tls_key=${key}`] });
  try {
    const out = await runOk('curl', ['-sk', `https://127.0.0.1:${srv.port}/healthz`], { encoding: 'utf8' });
    assert.equal(JSON.parse(out).status, 'ok');
    const plain = await call(srv, 'GET', '/healthz').catch(() => null);
    assert.ok(!plain || plain.status !== 200, 'plain HTTP is not served on the TLS port');
  } finally { await srv.stop(); srv.cleanup(); }
  void t;
});

// The admin credential: 32 bytes at least, from a file or the config file,
// never the command line; failed attempts are limited per address.
test('admin credential: length, where it may come from, failed attempts limited', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-admin-'));
  try {
    const serve = (...args) => run(BIN, ['serve', '--listen', '127.0.0.1:0', '--data', dir, ...args],
      { encoding: 'utf8', timeout: 10000 });
    let r = await serve('--set', `admin_token=${ADMIN_TOKEN}`);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /admin_token is not taken from the command line/);
    writeFileSync(join(dir, 'short'), 'too-short\n', { mode: 0o600 });
    r = await serve('--set', `admin_token_file=${join(dir, 'short')}`);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /at least 32 bytes/);
    writeFileSync(join(dir, 'short.conf'), 'admin_token = too-short\n', { mode: 0o600 });
    r = await serve('--config', join(dir, 'short.conf'));
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /at least 32 bytes/);
    r = await serve('--set', `admin_token_file=${join(dir, 'missing')}`);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /admin_token_file .*cannot open/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('admin credential: from the config file; failed attempts per address end in 429 with Retry-After', async () => {
  const probe = await startServer();
  const dir = probe.dir;
  await probe.stop();
  const conf = join(dir, 'replayd.conf');
  writeFileSync(conf, `admin_token = ${ADMIN_TOKEN}\nadmin_failures_per_minute = 3\n`, { mode: 0o600 });
  const srv = await startServer({ dataDir: dir, args: ['--config', conf] });
  try {
    assert.equal((await call(srv, 'GET', '/v1/admin/players/1', { token: ADMIN_TOKEN })).status, 404, 'the token from the config file is taken');
    for (let i = 0; i < 3; i++)
      assert.equal((await call(srv, 'GET', '/v1/admin/players/1', { token: `wrong-${i}` })).status, 401);
    const limited = await call(srv, 'GET', '/v1/admin/players/1', { token: 'wrong-again' });
    assert.equal(limited.status, 429, limited.text);
    assert.equal(limited.json.error.code, 'rate_limited');
    assert.equal(limited.headers.get('retry-after'), '20');
    // while limited, even the right token is not looked at: guessing gains nothing
    assert.equal((await call(srv, 'GET', '/v1/admin/players/1', { token: ADMIN_TOKEN })).status, 429);
    // another address is not limited (X-Forwarded-For is not trusted: same address here), so
    // only time lifts it: one attempt back after 60/3 s
  } finally { await srv.stop(); srv.cleanup(); }
});
