// Issue 40, item 7 (what stays libmicrohttpd's): a malformed request sent
// on a kept-alive connection after an answer is read by libmicrohttpd, not
// the gate (docs/THREAT-MODEL.md, "What stays libmicrohttpd's"). What the
// documentation claims of it, tried:
// - behind the shipped HAProxy and nginx, a client's later request never
//   reaches a node's own parser as the client wrote it: the proxy refuses
//   it itself or writes the request it forwards anew, so the answer is the
//   node's JSON or the proxy's own page, never libmicrohttpd's HTML or a
//   doubled status line;
// - sent directly, it affects only its own connection: a later request
//   libmicrohttpd refuses closes the connection, and nothing sent after it
//   there is served; other connections are served as before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, parseResponse, afterAnswer, rawExchange } from './lib.mjs';
import { startHaproxy, startNginx, skipHaproxy, skipNginx } from './proxy_procs.mjs';

const deploy = fileURLToPath(new URL('../../deploy/multinode/', import.meta.url));
let node, work;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'replayd-later-'));
  node = await startServer({ args: ['--set', 'trusted_proxies=127.0.0.1'] });
});
after(async () => { await node.stop(); node.cleanup(); rmSync(work, { recursive: true, force: true }); });

const nodes = (cfg) => cfg.replace('127.0.0.1:8081', `127.0.0.1:${node.port}`).replace(/ *server node[23].*\n/g, '');

const good = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
const later = [
  ['bare-LF line ends', 'GET /healthz HTTP/1.1\nHost: x\n\n'],
  ['a folded header line', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n'],
  ['HTTP/9.9', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['no Host', 'GET /healthz HTTP/1.1\r\n\r\n'],
  ['Content-Length: abc', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}'],
  ['a line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n'],
  ['Name : value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A : 1\r\n\r\n'],
  ['a Transfer-Encoding behind a bare LF', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-A: 1\nTransfer-Encoding: chunked\r\nContent-Length: 13\r\n\r\n{"name":"q"}\r\n'],
];
// libmicrohttpd 0.9.75's own error pages all open so
const mhdPage = /<html><head><title>/;

for (const [proxy, start, skip] of [['HAProxy', startHaproxy, skipHaproxy], ['nginx', startNginx, skipNginx]]) {
  test(`behind ${proxy}: a client's later malformed request gets the node's JSON or the proxy's answer, never libmicrohttpd's`, { skip, timeout: 60000 }, async () => {
    const p = await start(deploy, work, (cfg) => nodes(cfg).replace('log stdout format raw local0 info', ''));
    try {
      for (const [label, payload] of later) {
        const { text } = await afterAnswer(p.port, good, payload, 1500);
        const one = parseResponse(text);
        assert.equal(one?.status, 200, `${label}: the first is served`);
        const two = parseResponse(one.rest);
        assert.ok(two, `${label}: answered: ${JSON.stringify(one.rest.slice(0, 200))}`);
        assert.doesNotMatch(two.body, mhdPage, `${label}: not libmicrohttpd's page`);
        assert.doesNotMatch(two.body, /^HTTP\/1\.\d \d{3}/, `${label}: no status line in the body (doubled)`);
        if (/^application\/json/.test(two.headers['content-type'] || '')) JSON.parse(two.body); // the node's, whole
      }
    } finally { await p.stop(); }
  });
}

test('directly: a later request libmicrohttpd refuses closes its connection, nothing after it is served, others are served', { timeout: 60000 }, async () => {
  for (const [label, payload] of later) {
    // the malformed request, then a good one behind it on the same connection
    const { text, closed } = await afterAnswer(node.port, good, payload + good, 1500);
    const one = parseResponse(text);
    assert.equal(one?.status, 200, `${label}: the first is served`);
    const two = parseResponse(one.rest);
    assert.ok(two, `${label}: answered`);
    if (two.status >= 400) {
      assert.ok(closed, `${label}: refused (${two.status}), and the connection closed`);
      assert.equal((one.rest.match(/"status":"ok"/g) || []).length, 0, `${label}: nothing after it served`);
    } else {
      // served: what RFC 9112 lets a server accept (a bare LF as a line
      // end, 2.2; a folded line replaced by spaces, 5.2)
      assert.ok(['bare-LF line ends', 'a folded header line'].includes(label), `${label}: served ${two.status}`);
    }
    const fresh = parseResponse(await rawExchange(node.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    assert.equal(fresh?.status, 200, `${label}: another connection is served`);
  }
});
