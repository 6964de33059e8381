// The web routes over plain HTTP: the pages' security headers, every asset
// the pages and their modules load (found by reading them), served byte for
// byte as the files in the tree with the right type, ETags and 304s, and the
// paths that must not serve anything.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, call } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const TYPES = { html: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8', svg: 'image/svg+xml' };

let srv;
before(async () => { srv = await startServer({ args: ['--set', 'metrics_public=true'] }); });
after(async () => { await srv.stop(); srv.cleanup(); });

// Where a served path comes from in the tree.
function sourceOf(path) {
  if (path === '/') return 'web/index.html';
  if (path.startsWith('/replay/')) return 'web/replay.html';
  if (path.startsWith('/assets/port/')) return `vectors/port/${path.slice('/assets/port/'.length)}`;
  if (path === '/assets/client/log.mjs') return 'clients/js/src/log.mjs';
  return `web/${path.slice('/assets/'.length)}`;
}

// Through call(), so every page and asset answer is checked against
// docs/openapi.yaml too (every file served is UTF-8 text).
async function get(path, headers = {}) {
  const r = await call(srv, 'GET', path, { headers });
  return { status: r.status, headers: r.headers, body: Buffer.from(r.text) };
}

function assertPage(r) {
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), TYPES.html);
  assert.equal(r.headers.get('content-security-policy'), CSP);
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(r.headers.get('cache-control'), 'no-cache');
  assert.match(r.headers.get('etag'), /^"[0-9a-f]{32}"$/);
}

test('the pages carry a strict CSP and the security headers', async () => {
  const index = await get('/');
  assertPage(index);
  assert.deepEqual(index.body, readFileSync(join(root, 'web/index.html')));
  const replay = await get('/replay/0123456789abcdef0123456789abcdef');
  assertPage(replay);
  assert.deepEqual(replay.body, readFileSync(join(root, 'web/replay.html')));
  // No inline script or style for the CSP to have to allow.
  for (const page of [index.body.toString(), replay.body.toString()]) {
    assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.doesNotMatch(page, /<style|\sstyle=|\son[a-z]+=/);
  }
});

test('every file the pages load, and every module those import, is served as the file in the tree', async () => {
  // every game the pages have a replay for (a game from make new-game has
  // none until its web/js/games file is written)
  const games = (await call(srv, 'GET', '/v1/games')).json.games.map((g) => g.name)
    .filter((g) => existsSync(join(root, 'web', 'js', 'games', `${g}.js`)));
  assert.ok(games.length >= 6);
  const queue = ['/', '/replay/0123456789abcdef0123456789abcdef', ...games.map((g) => `/assets/js/games/${g}.js`)];
  const seen = new Set();
  while (queue.length) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    seen.add(path);
    const r = await get(path);
    assert.equal(r.status, 200, path);
    const ext = path === '/' || path.startsWith('/replay/') ? 'html' : path.split('.').pop();
    assert.equal(r.headers.get('content-type'), TYPES[ext], path);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
    assert.deepEqual(r.body, readFileSync(join(root, sourceOf(path))), `${path} is ${sourceOf(path)}`);
    const text = r.body.toString();
    const base = new URL(path, 'http://x');
    const refs = ext === 'html'
      ? [...text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1])
      : [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^'$]+)'/g)].map((m) => m[1]);
    for (const ref of refs) queue.push(new URL(ref, base).pathname);
  }
  for (const must of ['/assets/app.css', '/assets/js/boards.js', '/assets/js/replay.js', '/assets/js/verify.js',
    '/assets/client/log.mjs', '/assets/port/core.mjs', ...games.map((g) => `/assets/port/games/${g}.mjs`)]) {
    assert.ok(seen.has(must), `${must} is reached from the pages`);
  }
});

test('assets: strong ETags, If-None-Match answers 304, a cache lifetime', async () => {
  const r = await get('/assets/app.css');
  assert.equal(r.status, 200);
  const etag = r.headers.get('etag');
  assert.match(etag, /^"[0-9a-f]{32}"$/);
  assert.equal(r.headers.get('cache-control'), 'public, max-age=300');
  assert.equal(r.headers.get('content-security-policy'), null, 'CSP is for documents');
  for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, `${etag} , "nope"`, '*']) {
    const again = await get('/assets/app.css', { 'If-None-Match': inm });
    assert.equal(again.status, 304, inm);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.get('etag'), etag);
  }
  for (const inm of ['"nope"', etag.slice(0, -2) + '"', 'W/"x"', '', ',,,']) {
    assert.equal((await get('/assets/app.css', { 'If-None-Match': inm })).status, 200, inm);
  }
  const page = await get('/', { 'If-None-Match': (await get('/')).headers.get('etag') });
  assert.equal(page.status, 304);
  // Different files, different tags.
  assert.notEqual((await get('/assets/js/api.js')).headers.get('etag'), etag);
});

// A request exactly as written (fetch would normalise the path).
function raw(path) {
  return new Promise((resolve, reject) => {
    const sock = connect(srv.port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => { sock.destroy(); reject(new Error('no answer')); }, 5000);
    sock.on('connect', () => sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    sock.on('data', (d) => { data += d; });
    sock.on('end', () => { clearTimeout(timer); resolve(data); });
    sock.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

test('nothing else is served: unknown assets, other files of the tree, traversal, bad ids, other methods', async () => {
  // Paths the document does not list, or whose score id is not of its
  // form, are off the contract on purpose; the 404s are checked all the same.
  const onContract = ['/assets/nope.js', '/assets/embed.sh', '/assets/port/vectors.mjs', '/assets/port/generate.mjs',
    '/assets/index.html', '/assets/replay.html', '/admin']; // the console: no admin token on this server
  for (const path of [...onContract, '/assets/', '/index.html', '/replay', '/replay/abc', '/replay/0123456789ABCDEF0123456789ABCDEF',
    '/replay/0123456789abcdef0123456789abcdef/x', '/assets/js/games/../../../server/api_web.c']) {
    const r = await call(srv, 'GET', path, { offContract: !onContract.includes(path) });
    assert.equal(r.status, 404, path);
    assert.equal(r.json.error.code, 'not_found', path);
  }
  for (const path of ['/assets/../index.html', '/assets/js/../../web/index.html', '/assets/%2e%2e/index.html', '/assets//app.css']) {
    const answer = await raw(path);
    assert.match(answer, /^HTTP\/1\.1 404 /, path);
  }
  for (const [method, path] of [['POST', '/'], ['DELETE', '/assets/app.css'], ['PUT', '/replay/0123456789abcdef0123456789abcdef']]) {
    const r = await call(srv, method, path, { offContract: true }); // a method the path does not have
    assert.equal(r.status, 405, `${method} ${path}`);
    assert.equal(r.json.error.code, 'method_not_allowed');
  }
  const metrics = (await call(srv, 'GET', '/metrics')).text;
  for (const route of ['web_index', 'web_replay', 'web_asset']) assert.match(metrics, new RegExp(`route="${route}"`));
});
