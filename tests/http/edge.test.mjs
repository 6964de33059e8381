// The production edge: the client's address behind trusted proxies,
// Retry-After, CORS and preflights, HEAD, Allow, caching and ETags, IPv6,
// SIGHUP reloads (settings and a new TLS certificate on the same socket),
// a draining /healthz (and the drain grace: everything else still served),
// and every log line JSON. The exchanges go through
// call(), so each is checked against docs/openapi.yaml (headers included);
// raw clients only where fetch cannot do it (TLS, a kept-alive socket).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tlsConnect } from 'node:tls';
import { request as httpRequest, Agent } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, register, call, sleep, selfSignedCert, ADMIN_TOKEN, sqliteOnly } from './harness.mjs';
import { doc, checkExchange } from '../contract/contract.mjs';
import { runOk } from './proc.mjs';

const logLines = (srv) => srv.stderr().split('\n').filter((l) => l.trim());
const ipsLogged = (srv) => logLines(srv).map((l) => JSON.parse(l)).filter((j) => j.path).map((j) => j.ip);

test('behind trusted proxies: the client is the first untrusted hop; untrusted peers cannot say', async () => {
  const srv = await startServer({ args: ['--set', 'log_requests=true', '--set', 'trusted_proxies=127.0.0.1/32, 10.0.0.0/8',
    '--set', 'rate_register_per_ip=2'] });
  try {
    const post = (xff, fwd) => call(srv, 'POST', '/v1/players', { body: { name: 'p' }, headers: {
      ...(xff ? { 'X-Forwarded-For': xff } : {}), ...(fwd ? { Forwarded: fwd } : {}) } });
    // two clients behind the proxy: each has its own bucket
    for (const client of ['203.0.113.7', '203.0.113.8']) {
      assert.equal((await post(client)).status, 201);
      assert.equal((await post(`198.51.100.1, ${client}`)).status, 201, 'a spoofed far hop does not matter');
      const third = await post(client);
      assert.equal(third.status, 429);
      assert.match(third.headers.get('retry-after'), /^[1-9][0-9]*$/, 'Retry-After on 429');
      assert.equal(third.json.error.code, 'rate_limited');
    }
    // trusted hops are skipped: the first untrusted one from the right
    assert.equal((await post('192.0.2.50, 10.1.2.3')).status, 201);
    // RFC 7239 Forwarded with an IPv6 client and a port
    assert.equal((await post(undefined, 'for="[2001:db8::17]:4711";proto=https, for=10.0.0.9')).status, 201);
    await sleep(100);
    const ips = ipsLogged(srv);
    for (const want of ['203.0.113.7', '203.0.113.8', '192.0.2.50', '2001:db8::17'])
      assert.ok(ips.includes(want), `logged as ${want}: ${ips.join(' ')}`);
    assert.ok(!ips.includes('198.51.100.1'), 'the spoofed hop is never the client');
  } finally { await srv.stop(); srv.cleanup(); }

  // with no trusted proxies the headers are ignored: one bucket for 127.0.0.1
  const plain = await startServer({ args: ['--set', 'rate_register_per_ip=2'] });
  try {
    const statuses = [];
    for (const client of ['203.0.113.7', '203.0.113.8', '203.0.113.9'])
      statuses.push((await call(plain, 'POST', '/v1/players', { body: { name: 'q' }, headers: { 'X-Forwarded-For': client } })).status);
    assert.deepEqual(statuses, [201, 201, 429]);
  } finally { await plain.stop(); plain.cleanup(); }
});

test('CORS: a preflight from an allowed origin, one refused; the answer names the origin', async () => {
  const srv = await startServer({ args: ['--set', 'cors_origins=https://game.example, http://localhost:5173'] });
  try {
    const ok = await call(srv, 'OPTIONS', '/v1/scores', { headers: { Origin: 'https://game.example',
      'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' } });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://game.example');
    assert.match(ok.headers.get('access-control-allow-methods'), /POST/);
    assert.match(ok.headers.get('access-control-allow-headers'), /Authorization/);
    assert.match(ok.headers.get('vary'), /Origin/);
    const refused = await call(srv, 'OPTIONS', '/v1/scores', { headers: { Origin: 'https://evil.example',
      'Access-Control-Request-Method': 'POST' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'origin_not_allowed');
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    const board = await call(srv, 'GET', '/v1/leaderboards/schulte/1', { headers: { Origin: 'http://localhost:5173' } });
    assert.equal(board.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    const other = await call(srv, 'GET', '/v1/leaderboards/schulte/1', { headers: { Origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    assert.match(other.headers.get('vary'), /Origin/);
    // without an Origin, OPTIONS just says what the path allows
    const opts = await call(srv, 'OPTIONS', '/v1/games');
    assert.equal(opts.status, 204);
    assert.equal(opts.headers.get('allow'), 'GET, HEAD, OPTIONS');
  } finally { await srv.stop(); srv.cleanup(); }
});

test('HEAD, Allow on 405, Cache-Control per route, ETag and 304', async () => {
  const srv = await startServer();
  try {
    const head = await call(srv, 'HEAD', '/v1/games');
    assert.equal(head.status, 200);
    assert.equal(head.text.length, 0);
    const get = await call(srv, 'GET', '/v1/games');
    assert.equal(head.headers.get('content-length'), get.headers.get('content-length'));
    assert.equal(get.headers.get('cache-control'), 'public, max-age=300');
    const etag = get.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await call(srv, 'GET', '/v1/games', { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text.length, 0);
    assert.equal((await call(srv, 'GET', '/v1/keys')).headers.get('cache-control'), 'public, max-age=300');
    const board = await call(srv, 'GET', '/v1/leaderboards/pipes/2');
    assert.equal(board.headers.get('cache-control'), 'public, max-age=5');
    const changed = await call(srv, 'GET', '/v1/leaderboards/pipes/2', { headers: { 'If-None-Match': '"0000"' } });
    assert.equal(changed.status, 200, 'a stale ETag gets the body');
    // methods the paths do not have: off the contract on purpose
    const wrong = await call(srv, 'DELETE', '/v1/games', { offContract: true });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const post405 = await call(srv, 'GET', '/v1/scores', { offContract: true });
    assert.equal(post405.headers.get('allow'), 'POST, OPTIONS');
    const p = await register(srv, 'private');
    const me = await call(srv, 'GET', '/v1/leaderboards/pipes/2/me', { token: p.token });
    assert.equal(me.headers.get('cache-control'), 'no-store', 'what a player sees of themselves is not cached');
    assert.equal((await call(srv, 'GET', '/healthz')).headers.get('cache-control'), 'no-store');
  } finally { await srv.stop(); srv.cleanup(); }
});

// A concrete path for a documented template, from its parameters' examples.
function resolve(node) {
  while (node && typeof node.$ref === 'string') node = node.$ref.slice(2).split('/').reduce((at, k) => at[k], doc);
  return node;
}
function examplePath(template) {
  const params = (doc.paths[template].parameters ?? []).map(resolve);
  return template.replace(/\{([^}]+)\}/g, (_, name) => {
    const p = params.find((q) => q.in === 'path' && q.name === name);
    assert.ok(p, `${template}: the path parameter ${name} is declared on the path`);
    const example = resolve(p.schema).examples?.[0];
    assert.notEqual(example, undefined, `${template}: ${name} has an example`);
    return String(example);
  });
}

test('every documented path: OPTIONS names exactly its methods, preflights as CORS says, HEAD is GET without the body', async () => {
  const srv = await startServer({ args: ['--set', 'cors_origins=https://game.example'], admin: ADMIN_TOKEN });
  try {
    const templates = Object.keys(doc.paths);
    assert.ok(templates.length >= 18);
    for (const template of templates) {
      const path = examplePath(template);
      // call() checks Allow against the methods the document lists for the path
      const plain = await call(srv, 'OPTIONS', path);
      assert.equal(plain.status, 204, `OPTIONS ${path}`);
      assert.match(plain.headers.get('allow'), /OPTIONS/);
      assert.equal(plain.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS');
      const pre = await call(srv, 'OPTIONS', path, { headers: { Origin: 'https://game.example', 'Access-Control-Request-Method': 'GET' } });
      assert.equal(pre.status, 204, `preflight ${path}`);
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://game.example');
      assert.equal(pre.headers.get('access-control-allow-methods'), pre.headers.get('allow'));
      assert.equal(pre.headers.get('access-control-max-age'), '600');
      const refused = await call(srv, 'OPTIONS', path, { headers: { Origin: 'https://evil.example' } });
      assert.equal(refused.status, 403, `foreign preflight ${path}`);
      assert.equal(refused.json.error.code, 'origin_not_allowed');
      if (!doc.paths[template].get) continue;
      const token = template.startsWith('/v1/admin/') || template === '/metrics' ? ADMIN_TOKEN : undefined;
      const get = await call(srv, 'GET', path, { token });
      const head = await call(srv, 'HEAD', path, { token });
      assert.equal(head.status, get.status, `HEAD ${path}`);
      assert.equal(head.text, '', `HEAD ${path} has no body`);
      const same = template === '/metrics' ? ['content-type', 'cache-control'] // its counters move between the two
        : ['content-type', 'cache-control', 'etag', 'content-length'];
      for (const h of same) assert.equal(head.headers.get(h), get.headers.get(h), `${h} of HEAD ${path}`);
    }
  } finally { await srv.stop(); srv.cleanup(); }
});

test('IPv6 loopback', async () => {
  const srv = await startServer({ host: '::1' });
  try {
    const h = await call(srv, 'GET', '/healthz');
    assert.equal(h.status, 200);
    assert.match(srv.base, /^http:\/\/\[::1\]:/);
  } finally { await srv.stop(); srv.cleanup(); }
});

// The certificate a new TLS connection is given: its SHA-256 fingerprint.
function fingerprint(port) {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(s.getPeerCertificate().fingerprint256);
      s.end();
    });
    s.on('error', reject);
  });
}

test('SIGHUP: a new TLS certificate and new live settings without a restart; bad TLS handshakes logged as JSON', async () => {
  const probe = await startServer();
  const dir = probe.dir;
  await probe.stop();
  const a = await selfSignedCert(dir, 'first'), b = await selfSignedCert(dir, 'second');
  const conf = join(dir, 'replayd.conf');
  const write = (c, rate) => writeFileSync(conf, `tls_cert = ${c.cert}\ntls_key = ${c.key}\nrate_register_per_ip = ${rate}\n`);
  write(a, 100);
  const srv = await startServer({ dataDir: dir, args: ['--config', conf] });
  try {
    const before = await fingerprint(srv.port);
    const curl = (path, method = 'GET') => runOk('curl', ['-sk', '-o', '/dev/null', '-w', '%{http_code}', '-X', method,
      '-H', 'Content-Type: application/json', '--data-binary', method === 'POST' ? '{"name":"t"}' : '',
      `https://127.0.0.1:${srv.port}${path}`], { encoding: 'utf8' });
    for (let i = 0; i < 3; i++) assert.equal(await curl('/v1/players', 'POST'), '201');
    write(b, 1);
    srv.child.kill('SIGHUP');
    let after = before;
    for (let i = 0; i < 50 && after === before; i++) { await sleep(100); after = await fingerprint(srv.port); }
    assert.notEqual(after, before, 'new connections get the new certificate');
    const after3 = [await curl('/v1/players', 'POST'), await curl('/v1/players', 'POST'), await curl('/v1/players', 'POST')];
    assert.ok(after3.includes('429'), `the new limit (1 a minute) is live: ${after3}`);
    assert.equal(await curl('/healthz'), '200');
    // a plain-HTTP client on the TLS port: a failed handshake, logged as JSON
    await fetch(`http://127.0.0.1:${srv.port}/healthz`).catch(() => null);
    await sleep(200);
    const lines = logLines(srv);
    for (const l of lines) assert.doesNotThrow(() => JSON.parse(l), `a JSON log line: ${l}`);
    assert.equal(JSON.parse(lines[0]).event, 'listening', 'the listening line comes first');
    assert.ok(lines.some((l) => JSON.parse(l).event === 'reloaded'));
  } finally { await srv.stop(); srv.cleanup(); }
});

test('drain grace: after SIGTERM /healthz answers 503 while the rest is served on new connections, Connection: close; a second SIGTERM ends the grace', async () => {
  const srv = await startServer({ args: ['--set', 'drain_grace_s=60'] });
  try {
    assert.equal((await call(srv, 'GET', '/healthz')).status, 200);
    srv.child.kill('SIGTERM');
    await sleep(300);
    const h = await call(srv, 'GET', '/healthz');
    assert.equal(h.status, 503);
    assert.equal(h.json.status, 'draining');
    // the listener still accepts: each call below is on a new connection
    // (Connection: close ended the last one), a read and a write
    const games = await call(srv, 'GET', '/v1/games');
    assert.equal(games.status, 200, 'a read is served during the grace');
    assert.equal(games.headers.get('connection'), 'close', 'clients are told to reconnect (elsewhere)');
    const p = await call(srv, 'POST', '/v1/players', { body: { name: 'during-grace' } });
    assert.equal(p.status, 201, 'a write is served during the grace');
    assert.match(srv.stderr(), /\{"event":"draining","signal":15,"grace_s":60\}/);
    const t0 = Date.now();
    srv.child.kill('SIGTERM');
    const { code } = await srv.exited;
    assert.equal(code, 0);
    assert.ok(Date.now() - t0 < 15000, `the second SIGTERM ended the 60 s grace (${Date.now() - t0} ms)`);
    assert.match(srv.stderr(), /\{"event":"grace_ended","signal":15\}/);
    assert.match(srv.stderr(), /"event":"stopped"/);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('draining: /healthz answers 503 "draining" from the first moment of shutdown', { skip: sqliteOnly }, async () => {
  const srv = await startServer({ args: ['--set', 'busy_timeout_ms=8000'] });
  const db = join(srv.dir, 'replayd.db');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path) => new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: srv.port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
  let sh;
  try {
    assert.equal((await get('/healthz')).status, 200); // the probe's kept-alive connection
    // a registration waits for the write lock, so the server stays draining
    sh = (await runOk('sh', ['-c', `(printf 'BEGIN IMMEDIATE;\\n'; sleep 3; printf 'ROLLBACK;\\n') | sqlite3 ${db} >/dev/null 2>&1 & echo $!`],
      { encoding: 'utf8' })).trim();
    await sleep(300);
    const pending = fetch(srv.base + '/v1/players', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: '{"name":"late"}' });
    await sleep(200);
    srv.child.kill('SIGTERM');
    await sleep(300);
    const h = await get('/healthz');
    assert.equal(h.status, 503);
    assert.equal(JSON.parse(h.body).status, 'draining');
    assert.equal(h.headers.connection, 'close', 'clients are told to go elsewhere');
    assert.ok(Number(h.headers['retry-after']) > 0);
    // a kept-alive socket is not something fetch can hold: checked here
    checkExchange({ method: 'GET', url: '/healthz' },
      { status: h.status, contentType: h.headers['content-type'], text: h.body, headers: h.headers });
    assert.equal((await pending).status, 201, 'the in-flight request still gets its answer');
    assert.equal((await srv.exited).code, 0);
  } finally {
    agent.destroy();
    if (sh) try { process.kill(Number(sh)); } catch { /* finished */ }
    await srv.stop();
    srv.cleanup();
  }
});
