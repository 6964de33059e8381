// Issue 12, row 8: malformed framing. Every answer is one well-formed
// HTTP/1.1 response (one status line, a Content-Length that matches the
// body, nothing after it) with a JSON error body: no libmicrohttpd HTML
// page, no doubled status line. Read from raw sockets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, rawExchange, parseResponse, afterAnswer } from './lib.mjs';

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
  ['a bare CR inside a header line', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nX-A: 1\rTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}', 400, 'bad_request'],
  ['a NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', 400, 'bad_request'],
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

// Writes `payload` at once and reads until the server closes or `ms`
// passes: { text, closed } (closed: the server ended the connection).
function exchange(port, payload, ms = 3000) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '', closed = false;
    const t = setTimeout(() => s.destroy(), ms);
    s.on('data', (d) => { text += d.toString('latin1'); });
    s.on('error', () => {});
    s.on('end', () => { closed = true; });
    s.on('close', () => { clearTimeout(t); resolve({ text, closed }); });
    s.write(payload);
  });
}

// A later request on a kept-alive connection is read by libmicrohttpd.
// With keepalive = false there is no later request: the first answer
// closes the connection, so nothing malformed can follow.
test('keepalive = false: a second request on the connection gets no answer, the first closed it', async () => {
  const closing = await startServer({ args: ['--set', 'keepalive=false'] });
  try {
    const { text } = await afterAnswer(closing.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/1.1\nHost: x\n\n');
    const r = parseResponse(text);
    assert.ok(r, `an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.connection, 'close');
    assert.equal(r.rest, '', 'nothing after the first answer');
    assert.equal((text.match(/HTTP\/1\.1 \d{3} /g) || []).length, 1);
  } finally { await closing.stop(); closing.cleanup(); }
});

// Issue 27: where the gate and libmicrohttpd used to frame a request
// differently. Each must be answered at once, in JSON, once.
function oneJsonAnswer(text, status, code) {
  const r = parseResponse(text);
  assert.ok(r, `an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  assert.equal(r.status, status, text.slice(0, 300));
  assert.equal((text.match(/HTTP\/1\.1 \d{3} /g) || []).length, 1, 'one answer, not doubled');
  assert.equal(r.rest, '');
  assert.match(r.headers['content-type'], /^application\/json/);
  assert.equal(JSON.parse(r.body).error.code, code);
  return r;
}

const bareLf = [
  ['bare-LF line ends', 'GET /healthz HTTP/1.1\nHost: x\n\n'],
  ['a Transfer-Encoding hidden behind a bare LF', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-A: 1\nTransfer-Encoding: chunked\r\nContent-Length: 13\r\n\r\n{"name":"q"}\r\n'],
  ['500 header fields hidden behind bare LFs', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1' + Array.from({ length: 500 }, (_, i) => `\nX-${i}: y`).join('') + '\r\n\r\n'],
  ['a header hidden behind a bare LF, Content-Length bad', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nX-A: 1\nContent-Length: 1x\r\nContent-Length: 2\r\n\r\n{}'],
];
for (const [label, payload] of bareLf) {
  test(`framing (issue 27): ${label} → 400 at once, one JSON answer`, async () => {
    const t0 = performance.now();
    const text = await rawExchange(srv.port, payload, 5000);
    const ms = performance.now() - t0;
    oneJsonAnswer(text, 400, 'bad_request');
    assert.ok(ms < 2000, `answered at once, not at the header deadline (${ms.toFixed(0)} ms)`);
  });
}

const chunkedBodies = [
  ['a chunk size that is not hex', 'zz\r\n{}\r\n0\r\n\r\n'],
  ['a chunk longer than its size', '1\r\n{}\r\n0\r\n\r\n'],
  ['no CRLF after the chunk', '2\r\n{}0\r\n\r\n'],
  ['a negative chunk size', '-2\r\n{}\r\n0\r\n\r\n'],
  ['a 20-digit chunk size', 'ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n'],
];
for (const [label, body] of chunkedBodies) {
  test(`framing (issue 27): chunked body with ${label} → 411 length_required in JSON`, async () => {
    const text = await rawExchange(srv.port, `POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body}`);
    oneJsonAnswer(text, 411, 'length_required');
  });
}

const goodFirst = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
const laterRules = [
  ['150 header fields', 'GET /healthz HTTP/1.1\r\nHost: x\r\n' + Array.from({ length: 150 }, (_, i) => `X-${i}: y\r\n`).join('') + '\r\n', 431, 'headers_too_large'],
  ['a malformed chunked body', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 411, 'length_required'],
  ['Content-Length with Transfer-Encoding', 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 400, 'bad_request'],
  ['two Host headers', 'GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n', 400, 'bad_request'],
  ['a space before the colon (Name : value)', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A : 1\r\n\r\n', 400, 'bad_request'],
  ['HTTP/1.5 (libmicrohttpd serves it as 1.1)', 'GET /healthz HTTP/1.5\r\nHost: x\r\n\r\n', 505, 'http_version_not_supported'],
  ['a bare CR (libmicrohttpd keeps it in the value)', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\rX-B: 2\r\n\r\n', 400, 'bad_request'],
];

test('framing (issue 27): the second request of a kept-alive pair is held to the same rules', async () => {
  for (const [label, payload, status, code] of laterRules) {
    const { text, closed } = await afterAnswer(srv.port, goodFirst, payload);
    const one = parseResponse(text);
    assert.equal(one?.status, 200, `${label}: the first is served`);
    const two = oneJsonAnswer(one.rest, status, code);
    assert.equal(two.headers.connection, 'close', `${label}: and the connection closed`);
    assert.ok(closed, `${label}: the server ended the connection`);
  }
});

// Sent together with a good first request, a bad pipelined one is in the
// socket when the gate looks: the connection is refused whole, with the
// bad request's JSON error, before libmicrohttpd reads any of it. Every
// first-request case above that fits in the gate's look (the 100 KB ones
// reach past it: libmicrohttpd reads the rest, as a later request), and
// what libmicrohttpd would serve.
const pipelined = [
  ...laterRules,
  ...cases.filter(([, payload]) => payload.length < 4096),
  ['bare-LF line ends', 'GET /healthz HTTP/1.1\nHost: x\n\n', 400, 'bad_request'],
  ['one bare LF among CRLFs', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\nX-B: 2\r\n\r\n', 400, 'bad_request'],
  ['a folded header line (obs-fold)', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n', 400, 'bad_request'],
];
for (const [label, payload, status, code] of pipelined) {
  test(`framing: pipelined after a good request, ${label} → ${status} ${code} in JSON, the connection closed`, async () => {
    const { text, closed } = await exchange(srv.port, goodFirst + payload);
    const r = oneJsonAnswer(text, status, code);
    assert.equal(r.headers.connection, 'close');
    assert.ok(closed, 'the server ended the connection');
    assert.doesNotMatch(text, /<html/i);
  });
}

test('framing: the bad request may come third, after a body', async () => {
  const post = 'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\nGET / HTTP/9.9';
  const { text } = await exchange(srv.port, goodFirst + post + 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A : 1\r\n\r\n');
  oneJsonAnswer(text, 400, 'bad_request'); // the body is skipped by its length, not read as a request line
});

test('framing: a good pipelined pair is served, both on the kept-alive connection', async () => {
  const { text } = await exchange(srv.port, goodFirst + goodFirst, 1500);
  const one = parseResponse(text);
  assert.equal(one?.status, 200);
  const two = parseResponse(one.rest);
  assert.equal(two?.status, 200);
  assert.equal(JSON.parse(two.body).status, 'ok');
});

// What stays libmicrohttpd's (docs/THREAT-MODEL.md): a later request it
// answers itself before the handler (HTTP/2 and up: its HTML 505) is still
// refused and closes the connection; it is never served.
test('framing: HTTP/9.9 as a kept-alive connection\'s later request is refused and closes', async () => {
  const { text, closed } = await afterAnswer(srv.port, goodFirst, 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n');
  const one = parseResponse(text);
  assert.equal(one?.status, 200);
  assert.equal(parseResponse(one.rest)?.status, 505);
  assert.ok(closed);
});

// A client still sending a body it is refused for reads the answer: the
// gate answers, shuts its write side, and reads and drops (up to 1 s and
// 1 MiB) before closing, so no reset overtakes the answer. The client here
// reads only once it has sent everything, as a simple client does.
function streamRefused(port, head, piece, { everyMs = 20, forMs = 600 } = {}) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '', error = null, sent = 0;
    s.pause();
    const t0 = Date.now();
    const writer = setInterval(() => {
      if (Date.now() - t0 >= forMs) {
        clearInterval(writer);
        s.resume();
      } else if (!s.destroyed) {
        s.write(piece);
        sent += piece.length;
      }
    }, everyMs);
    const t = setTimeout(() => s.destroy(), forMs + 3000);
    s.on('data', (d) => { text += d.toString('latin1'); });
    s.on('error', (e) => { error = e.code; });
    s.on('close', () => { clearInterval(writer); clearTimeout(t); resolve({ text, error, sent }); });
    s.write(head);
  });
}

test('framing: a streaming chunked upload reads its 411, not a reset', async () => {
  const { text, error, sent } = await streamRefused(srv.port,
    'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    `400\r\n${'x'.repeat(1024)}\r\n`);
  assert.equal(error, null, `no reset (${sent} bytes sent)`);
  oneJsonAnswer(text, 411, 'length_required');
});

test('framing: a body over max_body streamed slowly reads its 413, not a reset', async () => {
  const { text, error, sent } = await streamRefused(srv.port,
    'POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n',
    'x'.repeat(1024));
  assert.equal(error, null, `no reset (${sent} bytes sent)`);
  oneJsonAnswer(text, 413, 'body_too_large');
});

test('framing (issue 27): the metrics listener is behind the same gate', async () => {
  const m = await startServer({ args: ['--set', 'metrics_listen=127.0.0.1:0'] });
  try {
    const port = Number(m.stderr().match(/"metrics_port":(\d+)/)?.[1]);
    assert.ok(port > 0, 'the metrics port is logged: ' + m.stderr().slice(0, 300));
    const ok = parseResponse(await rawExchange(port, 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n'));
    assert.equal(ok.status, 200);
    assert.match(ok.body, /replayd_/);
    assert.equal(ok.headers.connection, 'close');
    for (const [payload, status, code] of [
      ['GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n', 400, 'bad_request'],
      ['GET /metrics HTTP/1.1\r\n\r\n', 400, 'bad_request'],
      ['GET /metrics HTTP/1.1\nHost: x\n\n', 400, 'bad_request'],
      ['GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n', 505, 'http_version_not_supported'],
      ['POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 411, 'length_required'],
    ]) oneJsonAnswer(await rawExchange(port, payload), status, code);
  } finally { await m.stop(); m.cleanup(); }
});
