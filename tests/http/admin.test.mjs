// The operator's view: seed-token accounting behind the admin token, where
// seeds drawn and left to expire show as abandoned attempts. And TLS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, awaitRun, sleep } from './harness.mjs';

test('admin: token accounting shows abandoned attempts; the endpoint is guarded', async () => {
  const srv = await startServer({ args: ['--set', 'admin_token=s3cret-admin', '--set', 'token_lifetime_s=3'] });
  try {
    const p = await register(srv, 'seed-shopper');
    for (let i = 0; i < 3; i++) await seed(srv, p.token, { game: 'schulte', level: 1 });
    const kept = await seed(srv, p.token, { game: 'schulte', level: 1 });
    const moves = solve('schulte', 1, kept.seed);
    await awaitRun(kept, moves);
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: kept.seed_token, moves } });
    assert.equal(r.status, 200, r.text);
    await sleep(Date.parse(kept.expires_at) - Date.now() + 200);
    const stats = await call(srv, 'GET', `/v1/admin/players/${p.player_id}`, { token: 's3cret-admin' });
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual(stats.json.tokens,
      { issued: 4, redeemed: 1, completed: 1, incomplete: 0, forfeited: 0, outstanding: 0, abandoned: 3 });
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
  const cert = join(dir, 'cert.pem'), key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  const srv = await startServer({ dataDir: dir, args: ['--set', `tls_cert=${cert}`, '--set', `tls_key=${key}`] });
  try {
    const out = execFileSync('curl', ['-sk', `https://127.0.0.1:${srv.port}/healthz`], { encoding: 'utf8' });
    assert.equal(JSON.parse(out).status, 'ok');
    const plain = await call(srv, 'GET', '/healthz').catch(() => null);
    assert.ok(!plain || plain.status !== 200, 'plain HTTP is not served on the TLS port');
  } finally { await srv.stop(); srv.cleanup(); }
  void t;
});
