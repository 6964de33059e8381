// Issue 12, row 8: malformed framing. Every answer is one well-formed
// HTTP/1.1 response (one status line, a Content-Length that matches the
// body, nothing after it) with a JSON error body: no libmicrohttpd HTML
// page, no doubled status line. Read from raw sockets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rawExchange, parseResponse } from './lib.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { await srv.stop(); srv.cleanup(); });

const post = (cl) => `POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${cl}\r\n\r\n{}`;
const cases = [
  ['Content-Length: -1', post('-1'), 400, 'bad_request'],
  ['Content-Length: abc', post('abc'), 400, 'bad_request'],
  ['Content-Length of 20 digits', post('99999999999999999999'), 413, 'body_too_large'],
  ['Content-Length over max_body', post('10000000'), 413, 'body_too_large'],
  ['two different Content-Lengths', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', 400, 'bad_request'],
  ['Content-Length with chunked', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}', 400, 'bad_request'],
  ['Transfer-Encoding: gzip', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n', 400, 'bad_request'],
  ['no Host on HTTP/1.1', 'GET /healthz HTTP/1.1\r\n\r\n', 400, 'bad_request'],
  ['HTTP/9.9', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 505, 'http_version_not_supported'],
  ['not HTTP at all', 'HELLO\r\n\r\n', 400, 'bad_request'],
  ['100 KB path', 'GET /' + 'a'.repeat(100000) + ' HTTP/1.1\r\nHost: x\r\n\r\n', 414, 'uri_too_long'],
  ['5,000 headers', 'GET /healthz HTTP/1.1\r\nHost: x\r\n' + Array.from({ length: 5000 }, (_, i) => `X-${i}: y\r\n`).join('') + '\r\n', 431, 'headers_too_large'],
  ['150 small headers', 'GET /healthz HTTP/1.1\r\nHost: x\r\n' + Array.from({ length: 150 }, (_, i) => `X-${i}: y\r\n`).join('') + '\r\n', 431, 'headers_too_large'],
  ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n', 400, 'bad_request'],
];

for (const [label, payload, status, code] of cases) {
  test(`framing: ${label} → ${status} ${code}, one well-formed JSON answer`, async () => {
    const text = await rawExchange(srv.port, payload);
    const r = parseResponse(text);
    assert.ok(r, `an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
    assert.equal(r.status, status);
    assert.equal(r.rest, '', 'nothing after the answer (no doubled status line)');
    assert.equal((text.match(/HTTP\/1\.1 \d{3} /g) || []).length, 1);
    assert.match(r.headers['content-type'], /^application\/json/);
    assert.equal(JSON.parse(r.body).error.code, code);
  });
}

test('a well-formed request still works, and HTTP/1.0 without Host too', async () => {
  for (const payload of ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 'GET /healthz HTTP/1.0\r\n\r\n']) {
    const r = parseResponse(await rawExchange(srv.port, payload));
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).status, 'ok');
  }
});

// The case that stays libmicrohttpd's: a later request on a kept-alive
// connection. With keepalive = false there is no later request: the first
// answer closes the connection, so nothing malformed can follow.
test('keepalive = false: a second request on the connection gets no answer, the first closed it', async () => {
  const closing = await startServer({ args: ['--set', 'keepalive=false'] });
  try {
    const text = await rawExchange(closing.port,
      'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n');
    const r = parseResponse(text);
    assert.ok(r, `an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.connection, 'close');
    assert.equal(r.rest, '', 'nothing after the first answer');
    assert.equal((text.match(/HTTP\/1\.1 \d{3} /g) || []).length, 1);
  } finally { await closing.stop(); closing.cleanup(); }
});
