// Key sets from a URL (issue 36, JWKS sources; server/trust/jwks_fetch.h):
// a local node:http stand-in for Apple's key endpoint (Cache-Control:
// max-age=1), a server refreshing from it every second or so. Rotation
// reaches sign-in, a failed refresh (500, then not JSON) keeps the keys in
// use, a URL that is down at start leaves the provider unavailable until
// it comes up, and a URL replaces a file's keys. Every wait is bounded.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, sleep } from './harness.mjs';
import { makeKey, writeJwks, mint, claims } from './idp.mjs';

const APP = 'com.example.puzzles';
const keysDir = mkdtempSync(join(tmpdir(), 'replayd-jwks-'));
const keyA = await makeKey(keysDir, 'apple-a', 'RSA');
const keyB = await makeKey(keysDir, 'apple-b', 'EC');
const jwks = (keys) => JSON.stringify({ keys: keys.map((k) => k.jwk) });
const servers = [];
after(async () => {
  for (const s of servers) await s.close();
  rmSync(keysDir, { recursive: true, force: true });
});

// The key endpoint: answers state.status with state.body, counting hits.
function keyEndpoint(body, port = 0) {
  const state = { status: 200, body, hits: 0 };
  const server = createServer((req, res) => {
    state.hits++;
    res.writeHead(state.status, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=1' });
    res.end(state.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const s = {
        state, port: server.address().port,
        url: `http://127.0.0.1:${server.address().port}/auth/keys`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
      };
      servers.push(s);
      resolve(s);
    });
  });
}

// A replayd with Apple sign-in from url (and a file, when given).
async function replayd(url, file) {
  const args = ['--set', `identity_apple_client_ids=${APP}`, '--set', `identity_apple_jwks_url=${url}`,
    '--set', 'identity_jwks_min_refresh_s=1', '--set', 'identity_jwks_max_refresh_s=2',
    '--set', 'rate_nonces_per_ip=100000', '--set', 'rate_register_per_ip=100000',
    '--set', 'rate_register_per_prefix=100000'];
  if (file) args.push('--set', `identity_apple_jwks_file=${file}`);
  const srv = await startServer({ args });
  servers.push({ close: async () => { await srv.stop(); srv.cleanup(); } });
  return srv;
}

async function signIn(srv, key, sub = 'jwks-url-subject') {
  const n = await call(srv, 'POST', '/v1/identity/nonce');
  assert.equal(n.status, 201, n.text);
  const token = mint(key, claims('apple', APP, sub, { nonce: n.json.nonce }));
  return call(srv, 'POST', '/v1/players', { body: { identity: { provider: 'apple', id_token: token } } });
}
const signedIn = (r) => r.status === 200 || r.status === 201;

// Polls check (an async predicate) every 250 ms for at most ms.
async function until(what, check, ms = 20000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(250);
  }
  assert.fail(`not within ${ms} ms: ${what}`);
}

// Waits for n more fetches of the endpoint (bounded), B signing in after each.
async function refreshesKeep(srv, ep, key, n) {
  const from = ep.state.hits;
  await until(`${n} more fetches`, async () => {
    const r = await signIn(srv, key);
    assert.ok(signedIn(r), `the keys in use stay: ${r.text}`);
    return ep.state.hits >= from + n;
  });
}

test('keys from a URL: sign-in, a rotation picked up within the refresh, and a failed refresh keeps the keys in use', async () => {
  const ep = await keyEndpoint(jwks([keyA]));
  const srv = await replayd(ep.url);
  assert.ok(ep.state.hits >= 1, 'fetched before serving');
  const first = await signIn(srv, keyA);
  assert.equal(first.status, 201, first.text);
  assert.match(srv.stderr(), /"event":"jwks_refreshed","provider":"apple","max_age":1/);

  // rotation: B only
  ep.state.body = jwks([keyB]);
  await until('key B signs in', async () => signedIn(await signIn(srv, keyB)));
  const a = await signIn(srv, keyA);
  assert.equal(a.status, 401, a.text);
  assert.equal(a.json.error.code, 'unknown_key');

  // the endpoint fails: B keeps working over a few refresh periods
  ep.state.status = 500;
  ep.state.body = '{"error":"oops"}';
  await refreshesKeep(srv, ep, keyB, 2);
  assert.match(srv.stderr(), /"event":"jwks_refresh_failed","provider":"apple","why":"HTTP status 500","keys_kept":true/);
  // then answers 200 with a body that is not JSON
  ep.state.status = 200;
  ep.state.body = '{"keys": [garbage';
  await refreshesKeep(srv, ep, keyB, 2);
  assert.match(srv.stderr(), /"event":"jwks_refresh_failed","provider":"apple","why":"not a key set: not JSON/);
  const stillA = await signIn(srv, keyA);
  assert.equal(stillA.json.error.code, 'unknown_key', 'the failed refreshes brought nothing back');

  // and recovers: A again
  ep.state.body = jwks([keyA]);
  await until('key A signs in again', async () => signedIn(await signIn(srv, keyA)));
});

test('a URL that is down at start: the server starts, Apple is unavailable until the URL comes up', async () => {
  // a port nothing listens on (taken, then let go)
  const probe = await keyEndpoint('');
  const port = probe.port;
  await probe.close();
  const srv = await replayd(`http://127.0.0.1:${port}/auth/keys`);
  assert.match(srv.stderr(), /"event":"jwks_refresh_failed","provider":"apple","why":"[^"]*","keys_kept":false/);
  const off = await signIn(srv, keyA);
  assert.equal(off.status, 400, off.text);
  assert.equal(off.json.error.code, 'identity_unavailable');

  await keyEndpoint(jwks([keyA]), port);
  await until('the provider comes up', async () => signedIn(await signIn(srv, keyA)));
});

test('a file and a URL: the file is loaded first, the URL\'s key set replaces it', async () => {
  const file = writeJwks(join(keysDir, 'apple-file.json'), [keyA]);
  const ep = await keyEndpoint(jwks([keyB]));
  const srv = await replayd(ep.url, file);
  const b = await signIn(srv, keyB);
  assert.equal(b.status, 201, b.text);
  const a = await signIn(srv, keyA);
  assert.equal(a.status, 401, a.text);
  assert.equal(a.json.error.code, 'unknown_key');
});

test('a file and a URL that is down: the file\'s keys serve, then the URL\'s once it answers', async () => {
  const file = writeJwks(join(keysDir, 'apple-file-2.json'), [keyA]);
  const ep = await keyEndpoint('', 0);
  ep.state.status = 503;
  const srv = await replayd(ep.url, file);
  assert.match(srv.stderr(), /"event":"jwks_refresh_failed","provider":"apple","why":"HTTP status 503","keys_kept":true/);
  assert.ok(signedIn(await signIn(srv, keyA)));
  ep.state.status = 200;
  ep.state.body = jwks([keyB]);
  await until('key B signs in', async () => signedIn(await signIn(srv, keyB)));
});
