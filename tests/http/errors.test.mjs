// Every error status with the bad input that causes it. Each answer must be
// JSON {"error":{"code","message"}} with the right status.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, sleep, awaitRun, sqliteOnly } from './harness.mjs';
import { rawExchange, parseResponse } from '../hostile/lib.mjs';
import { checkExchange } from '../contract/contract.mjs';
import { run } from './proc.mjs';

let srv, alice, bob;
before(async () => {
  srv = await startServer({ args: ['--set', 'max_body=65536', '--set', 'max_outstanding_tokens=50'] });
  alice = await register(srv, 'alice');
  bob = await register(srv, 'bob');
});
after(async () => { await srv.stop(); srv.cleanup(); });

function isError(r, status, code) {
  assert.equal(r.status, status, r.text);
  assert.ok(r.json && r.json.error, `JSON error body: ${r.text}`);
  assert.equal(typeof r.json.error.message, 'string');
  if (code) assert.equal(r.json.error.code, code);
}

// Bodies sent as raw text are the deliberately bad ones: off the contract.
const post = (path, raw, token, type = 'application/json') =>
  call(srv, 'POST', path, { raw, token, headers: { 'Content-Type': type }, offContract: true });

test('401: no bearer, a bad bearer, a malformed header', async () => {
  isError(await call(srv, 'POST', '/v1/seeds', { body: { game: 'schulte', level: 1 } }), 401, 'unauthorized');
  isError(await call(srv, 'POST', '/v1/seeds', { body: { game: 'schulte', level: 1 }, token: 'pt_nope' }), 401, 'unauthorized');
  isError(await call(srv, 'POST', '/v1/scores', { body: {}, headers: { Authorization: 'Basic abc' }, offContract: true }), 401);
  isError(await call(srv, 'GET', '/v1/leaderboards/schulte/1/me'), 401);
});

test('400: malformed, truncated, duplicate keys, too deep, wrong types, unknown fields', async () => {
  isError(await post('/v1/players', '{"name":'), 400, 'malformed_json');
  isError(await post('/v1/players', '{"name":"x"'), 400, 'malformed_json');
  isError(await post('/v1/players', 'not json at all'), 400, 'malformed_json');
  isError(await post('/v1/players', ''), 400, 'malformed_json');
  isError(await post('/v1/players', '[1,2]'), 400, 'malformed_json');
  isError(await post('/v1/players', '{"name":"a","name":"b"}'), 400, 'malformed_json');
  isError(await post('/v1/players', '{"name":' + '['.repeat(50) + ']'.repeat(50) + '}'), 400, 'too_deep');
  isError(await post('/v1/players', '['.repeat(8000)), 400, 'too_deep');
  isError(await post('/v1/players', '['.repeat(60000)), 413, 'body_too_large'); // over the route's 8 KiB
  isError(await post('/v1/players', '{"name":17}'), 400, 'bad_request');
  isError(await post('/v1/players', '{"name":null}'), 400, 'bad_request');
  isError(await post('/v1/players', '{"name":["ann"]}'), 400, 'bad_request');
  isError(await post('/v1/players', '{}'), 400, 'bad_request');
  isError(await post('/v1/players', '{"nom":"ann"}'), 400, 'bad_request');
  isError(await post('/v1/players', '{"name":""}'), 400, 'bad_name');
  isError(await post('/v1/players', JSON.stringify({ name: 'x'.repeat(65) })), 400, 'bad_name');
  isError(await post('/v1/players', '{"name":"a\\u0000b"}'), 400); // jansson refuses NUL in strings
  isError(await post('/v1/players', '{"name":"a\\u0007b"}'), 400, 'bad_name');
  isError(await post('/v1/players', '{"name":"ok","admin":true}'), 400, 'bad_request');
  isError(await post('/v1/seeds', '{"game":"schulte","level":"1"}', alice.token), 400, 'bad_request');
  isError(await post('/v1/seeds', '{"game":"schulte","level":0}', alice.token), 400, 'bad_level');
  isError(await post('/v1/seeds', '{"game":"schulte","level":16}', alice.token), 400, 'bad_level');
  isError(await post('/v1/seeds', '{"game":"schulte","level":1,"seed":5}', alice.token), 400, 'bad_request');
  isError(await post('/v1/seeds', '{"daily":false}', alice.token), 400, 'bad_request');
  isError(await post('/v1/scores', '{"seed_token":1,"moves":[]}', alice.token), 400, 'bad_request');
  isError(await post('/v1/scores', '{"seed_token":"st1.abc","moves":{}}', alice.token), 400, 'bad_request');
  isError(await call(srv, 'GET', '/v1/daily?date=2026-02-30', { offContract: true }), 400, 'bad_date');
  isError(await call(srv, 'GET', '/v1/leaderboards/schulte/1?limit=0', { offContract: true }), 400, 'bad_query');
  isError(await call(srv, 'GET', '/v1/leaderboards/schulte/1?limit=abc', { offContract: true }), 400, 'bad_query');
  isError(await call(srv, 'GET', '/v1/leaderboards/schulte/1?cursor=zzz'), 400, 'bad_cursor');
});

test('400: bad moves name the first bad one', async () => {
  const s = await seed(srv, alice.token, { game: 'schulte', level: 1 });
  const cases = [
    [[{ t: 200, cell: 0 }, { t: 300 }], 1],
    [[{ t: 200, cell: 0 }, { t: 300, cell: 1, extra: 1 }], 1],
    [[{ t: 2.5, cell: 0 }], 0],
    [[{ t: '200', cell: 0 }], 0],
    [[{ t: -5, cell: 0 }], 0],
    [[{ t: 2 ** 31, cell: 0 }], 0],
    [[[200, 0]], 0],
  ];
  for (const [moves, index] of cases) {
    const r = await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves }, offContract: true });
    isError(r, 400, 'bad_moves');
    assert.equal(r.json.error.move, index);
  }
});

test('400: forged, altered, unknown-key and expired seed tokens; 403 another player\'s', async () => {
  const s = await seed(srv, alice.token, { game: 'schulte', level: 1 });
  const moves = await solve('schulte', 1, s.seed);
  const submit = (tok, who = alice) => call(srv, 'POST', '/v1/scores', { token: who.token, body: { seed_token: tok, moves } });
  isError(await submit('st1.' + 'A'.repeat(80)), 400, 'invalid_seed_token');
  isError(await submit('garbage'), 400, 'invalid_seed_token');
  const raw = Buffer.from(s.seed_token.slice(4), 'base64url');
  const altered = Buffer.from(raw); altered[20] ^= 1; // the seed bytes
  isError(await submit('st1.' + altered.toString('base64url')), 400, 'invalid_seed_token');
  const unknownKey = Buffer.from(raw); unknownKey[4] = 99; // key id low byte
  isError(await submit('st1.' + unknownKey.toString('base64url')), 400, 'unknown_key');
  isError(await submit(s.seed_token, bob), 403, 'not_your_token');

  const short = await startServer({ args: ['--set', 'token_lifetime_s=1'] });
  try {
    const p = await register(short, 'late');
    const t = await seed(short, p.token, { game: 'schulte', level: 1 });
    await sleep(1300);
    const r = await call(short, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves: await solve('schulte', 1, t.seed) } });
    isError(r, 400, 'token_expired');
  } finally { await short.stop(); short.cleanup(); }
});

test('404 and 405', async () => {
  const off = { offContract: true };
  isError(await call(srv, 'GET', '/v1/nothing', off), 404, 'not_found');
  isError(await call(srv, 'GET', '/nothing', off), 404, 'not_found'); // / is the boards page (web.test.mjs)
  isError(await call(srv, 'GET', '/v1/scores/0123456789abcdef0123456789abcdef'), 404, 'not_found');
  // an encoded / inside a segment is refused before routing (hostile/hygiene)
  isError(await call(srv, 'GET', '/v1/scores/..%2f..%2fetc', off), 400, 'bad_path');
  isError(await call(srv, 'GET', '/v1/scores/..%2e..%2eetc', off), 404);
  isError(await call(srv, 'GET', '/v1/leaderboards/chess/1'), 404, 'unknown_game');
  isError(await call(srv, 'GET', '/v1/leaderboards/schulte/99'), 404, 'bad_level');
  isError(await call(srv, 'GET', '/v1/daily?date=2025-06-01'), 404, 'no_daily');
  isError(await post('/v1/seeds', '{"game":"chess","level":1}', alice.token), 404, 'unknown_game');
  isError(await call(srv, 'GET', '/v1/players', off), 405, 'method_not_allowed');
  isError(await call(srv, 'DELETE', '/v1/scores', off), 405, 'method_not_allowed');
  isError(await call(srv, 'PUT', '/v1/games', off), 405, 'method_not_allowed');
});

test('409: a reused token with other moves', async () => {
  const s = await seed(srv, alice.token, { game: 'pipes', level: 1 });
  const moves = await solve('pipes', 1, s.seed);
  await awaitRun(s, moves);
  const ok = await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(ok.status, 200, ok.text);
  isError(await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves: [] } }), 409, 'token_used');
});

// A POST by curl, which reads an answer that comes while it still sends
// (as browsers do); Node 18's fetch loses such an answer when the server
// closes first, which made this test fail on Debian's Node 18 only.
async function curlPost(path, args, input) {
  const r = await run('curl', ['-s', '-w', '\n%{http_code}', '-X', 'POST', '-H', 'Content-Type: application/json',
    ...args, '--data-binary', '@-', srv.base + path], { input, encoding: 'utf8', timeout: 20000 });
  const lines = (r.stdout || '').trimEnd().split('\n');
  const status = Number(lines.pop());
  const text = lines.join('\n');
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON: isError says so */ }
  return { status, text, json };
}

test('413: body over the cap, too many moves; 411: a chunked body (it needs a Content-Length)', async () => {
  isError(await curlPost('/v1/players', [], JSON.stringify({ name: 'x'.repeat(70000) })), 413, 'body_too_large');
  isError(await curlPost('/v1/players', ['-H', 'Transfer-Encoding: chunked'], '{"name":"chunked"}'), 411, 'length_required');
  const s = await seed(srv, alice.token, { game: 'schulte', level: 1 });
  const moves = Array.from({ length: 1001 }, (_, i) => ({ t: 100 * (i + 1), cell: 0 }));
  isError(await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves } }), 413, 'too_many_moves');
});

test('415: not application/json', async () => {
  isError(await post('/v1/players', '{"name":"x"}', undefined, 'text/plain'), 415, 'unsupported_media_type');
  isError(await call(srv, 'POST', '/v1/players', { raw: '{"name":"x"}', offContract: true }), 415);
  isError(await post('/v1/players', '{"name":"x"}', undefined, 'application/jsonp'), 415);
});

test('422: rejected replays say why and at which move', async () => {
  const s = await seed(srv, alice.token, { game: 'schulte', level: 1 });
  const moves = await solve('schulte', 1, s.seed);
  const fast = moves.map((m, i) => (i === 3 ? { ...m, t: moves[2].t + 20 } : m));
  let r = await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves: fast } });
  isError(r, 422, 'replay_rejected');
  assert.equal(r.json.error.reason, 'too_fast');
  assert.equal(r.json.error.move, 3);
  r = await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves: [{ t: 500, cell: 9 }] } });
  isError(r, 422, 'replay_rejected');
  assert.equal(r.json.error.reason, 'cell_out_of_range');
  assert.equal(r.json.error.move, 0);
  // A run claiming to be longer than the time since the seed was issued.
  const slow = moves.map((m) => ({ ...m, t: m.t * 100 })); // 11 s, 22 s, ...
  r = await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves: slow } });
  isError(r, 422, 'replay_rejected');
  assert.equal(r.json.error.reason, 'duration_exceeds_elapsed');
  assert.equal(r.json.error.move, 0, 'the first move later than the elapsed time plus the slack');
  // A check of the whole run: its message names no move.
  assert.doesNotMatch(r.json.error.message, /at move/);
  assert.match(r.json.error.message, /once its claimed time has passed/);
  // A rejection does not use the token up: the honest moves still verify.
  await awaitRun(s, moves);
  r = await call(srv, 'POST', '/v1/scores', { token: alice.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
});

test('429: registration rate and outstanding tokens', async () => {
  const limited = await startServer({ args: ['--set', 'rate_register_per_ip=3', '--set', 'max_outstanding_tokens=2'] });
  try {
    const p = await register(limited, 'one');
    await register(limited, 'two');
    await register(limited, 'three');
    isError(await call(limited, 'POST', '/v1/players', { body: { name: 'four' } }), 429, 'rate_limited');
    await seed(limited, p.token, { game: 'schulte', level: 1 });
    await seed(limited, p.token, { game: 'schulte', level: 2 });
    isError(await call(limited, 'POST', '/v1/seeds', { token: p.token, body: { game: 'schulte', level: 3 } }), 429, 'too_many_outstanding');
  } finally { await limited.stop(); limited.cleanup(); }
});

test('503: storage locked past the busy timeout', { skip: sqliteOnly }, async () => {
  const busy = await startServer({ args: ['--set', 'busy_timeout_ms=200'] });
  const lock = spawn('sqlite3', [join(busy.dir, 'replayd.db')], { stdio: ['pipe', 'ignore', 'ignore'] });
  try {
    lock.stdin.write('BEGIN IMMEDIATE;\nINSERT INTO schema_version SELECT * FROM schema_version WHERE 0;\n');
    await sleep(300);
    isError(await call(busy, 'POST', '/v1/players', { body: { name: 'blocked' } }), 503, 'busy');
    lock.stdin.end('ROLLBACK;\n');
    await new Promise((r) => lock.on('exit', r));
    const ok = await call(busy, 'POST', '/v1/players', { body: { name: 'unblocked' } });
    assert.equal(ok.status, 201, 'writes go through again once the lock is gone');
  } finally { lock.kill(); await busy.stop(); busy.cleanup(); }
});

// What the connection gate answers before a request is routed: malformed
// on purpose (so off the contract), but each answer must be the error the
// document lists for that path's operation, and close the connection.
async function edgeRefusal(server, path, payload, status, code) {
  const res = parseResponse(await rawExchange(server.port, payload, 5000));
  assert.ok(res, `an HTTP answer to ${JSON.stringify(payload.slice(0, 60))}`);
  assert.equal(res.status, status, res.body);
  assert.equal(JSON.parse(res.body).error.code, code);
  assert.equal(res.headers.connection, 'close');
  checkExchange({ method: 'GET', url: path, offContract: true },
    { status: res.status, contentType: res.headers['content-type'], text: res.body, headers: res.headers });
}

test('400, 408, 413, 414, 431, 505: the edge refuses broken HTTP with the documented errors', async () => {
  const head = (line, fields = ['Host: 127.0.0.1']) => `${line}\r\n${fields.join('\r\n')}\r\n\r\n`;
  await edgeRefusal(srv, '/v1/games', head('GET /v1/games HTTP/1.1', ['Host: 127.0.0.1', 'Content-Length: 12x']), 400, 'bad_request');
  await edgeRefusal(srv, '/v1/keys', head('GET /v1/keys HTTP/1.1', []), 400, 'bad_request');
  await edgeRefusal(srv, '/v1/games', head('GET /v1/games HTTP/1.1', ['Host: 127.0.0.1', 'Content-Length: 99999999']), 413, 'body_too_large');
  const long = `/v1/daily?date=${'9'.repeat(5000)}`;
  await edgeRefusal(srv, long, head(`GET ${long} HTTP/1.1`), 414, 'uri_too_long');
  const many = ['Host: 127.0.0.1', ...Array.from({ length: 101 }, (_, i) => `X-Filler-${i}: ${i}`)];
  await edgeRefusal(srv, '/healthz', head('GET /healthz HTTP/1.1', many), 431, 'headers_too_large');
  await edgeRefusal(srv, '/v1/games', head('GET /v1/games HTTP/2.0'), 505, 'http_version_not_supported');
  // headers that never end: answered once header_timeout_ms has passed
  const slow = await startServer({ args: ['--set', 'header_timeout_ms=300'] });
  try {
    await edgeRefusal(slow, '/v1/games', 'GET /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n', 408, 'request_timeout');
  } finally { await slow.stop(); slow.cleanup(); }
});
