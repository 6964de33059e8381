// The whole flow for Schulte and Pipes against the real server: register,
// catalogue, seed, submit computed moves, retry, conflict, audit, receipt.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { startServer, call, register, seed, solve, replayCli, awaitRun, ADMIN_TOKEN } from './harness.mjs';

let srv;
before(async () => { srv = await startServer({ admin: ADMIN_TOKEN, args: ['--set', 'receipt_version=2'] }); });
after(async () => { await srv.stop(); srv.cleanup(); });

// docs/API.md: the v2 receipt's 12 lines.
function receiptMessage(s) {
  return ['replayd-receipt-v2', s.score_id, s.player_id, s.game, s.level, s.seed, s.version, s.score,
    s.completed ? 1 : 0, s.date ? `daily:${s.date}` : `level:${s.game}:${s.level}`, s.submitted_at_ms,
    s.moves_hash].join('\n');
}

async function checkReceipt(score) {
  const keys = await call(srv, 'GET', '/v1/keys');
  assert.equal(keys.status, 200);
  const [form, id, sig] = score.receipt.split('.');
  assert.equal(form, 'v2');
  const k = keys.json.keys.find((x) => String(x.key_id) === id);
  assert.ok(k, 'the receipt names a published key');
  const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.public_key }, format: 'jwk' });
  return verify(null, Buffer.from(receiptMessage(score)), pub, Buffer.from(sig, 'base64url'));
}

test('health and catalogue', async () => {
  const h = await call(srv, 'GET', '/healthz');
  assert.equal(h.status, 200);
  assert.equal(h.json.status, 'ok');
  const g = await call(srv, 'GET', '/v1/games');
  assert.equal(g.status, 200);
  const names = g.json.games.map((x) => x.name);
  assert.ok(names.includes('schulte') && names.includes('pipes'));
  const schulte = g.json.games.find((x) => x.name === 'schulte');
  assert.deepEqual(schulte.move_fields.map((f) => f.name), ['t', 'cell']);
  assert.equal(schulte.levels, 15);
});

for (const game of ['schulte', 'pipes']) {
  test(`${game}: seed, replayed submission, retry, conflict, audit`, async () => {
    const p = await register(srv, `${game}-player`);
    assert.ok(p.player_id > 0 && p.token.length > 20);
    const s = await seed(srv, p.token, { game, level: 1 });
    const current = (await call(srv, 'GET', '/v1/games')).json.games.find((x) => x.name === game).version;
    assert.equal(s.game, game);
    assert.equal(s.level, 1);
    assert.equal(s.version, current, 'new tokens carry the current spec version');
    assert.ok(Number.isInteger(s.seed) && s.seed >= 0);
    assert.ok(Date.parse(s.expires_at) > Date.now());
    const moves = await solve(game, 1, s.seed);
    const want = await replayCli(game, 1, s.seed, moves);
    assert.equal(want.completed, true);

    await awaitRun(s, moves);
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.verified, true);
    assert.equal(r.json.score, want.score, 'the server computes the same score as the replay');
    assert.equal(r.json.completed, true);
    assert.equal(r.json.rank, 1);
    assert.match(r.json.score_id, /^[0-9a-f]{32}$/);

    // Mobile retry: the same token and the same moves (keys reordered) again.
    const reordered = moves.map((m) => Object.fromEntries(Object.entries(m).reverse()));
    const again = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { moves: reordered, seed_token: s.seed_token } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.score_id, r.json.score_id);
    assert.equal(again.json.receipt, r.json.receipt);

    // The same token with other moves is a conflict.
    const other = moves.slice(0, -1);
    const conflict = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: other } });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.error.code, 'token_used');

    // Public audit: anyone can fetch and replay the recorded score.
    const audit = await call(srv, 'GET', `/v1/scores/${r.json.score_id}`);
    assert.equal(audit.status, 200);
    assert.deepEqual(audit.json.moves, moves);
    assert.equal(audit.json.version, current);
    assert.equal(audit.json.seed, s.seed);
    assert.equal(audit.json.score, want.score);
    assert.equal(audit.json.result.score, want.score);
    assert.equal((await replayCli(game, audit.json.level, audit.json.seed, audit.json.moves)).score, audit.json.score);
    assert.equal(await checkReceipt(audit.json), true, 'the receipt verifies with /v1/keys');
    assert.equal(await checkReceipt({ ...audit.json, score: audit.json.score + 1 }), false,
      'a receipt does not verify for another score');

    const board = await call(srv, 'GET', `/v1/leaderboards/${game}/1`);
    assert.equal(board.status, 200);
    assert.equal(board.json.entries[0].player_id, p.player_id);
    assert.equal(board.json.entries[0].score, want.score);
  });
}

test('an unfinished game is verified and recorded with its lower score', async () => {
  const p = await register(srv, 'quitter');
  const s = await seed(srv, p.token, { game: 'schulte', level: 3 });
  const moves = (await solve('schulte', 3, s.seed)).slice(0, 4);
  await awaitRun(s, moves);
  const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.completed, false);
  assert.equal(r.json.score, 4);
});

test('metrics count requests and verifications', async () => {
  const m = await call(srv, 'GET', '/metrics', { token: ADMIN_TOKEN });
  assert.equal(m.status, 200);
  assert.match(m.text, /replayd_requests_total\{route="scores",status="200"\} \d+/);
  assert.match(m.text, /replayd_verifications_total\{game="schulte",outcome="accepted"\} [1-9]/);
  assert.match(m.text, /replayd_verifications_total\{game="pipes",outcome="retry"\} [1-9]/);
  assert.match(m.text, /replayd_request_duration_seconds_bucket\{route="scores",le="\+Inf"\} \d+/);
  // this server signs v2 receipts: one a verified score, and a checkpoint a batch
  const count = (name) => Number((new RegExp(`^${name} (\\d+)$`, 'm').exec(m.text) || [])[1]);
  const accepted = Number(/replayd_verifications_total\{game="schulte",outcome="accepted"\} (\d+)/.exec(m.text)[1]);
  assert.ok(count('replayd_receipts_signed_total') >= accepted, m.text);
  assert.ok(count('replayd_log_checkpoints_total') >= 1, m.text);
});

test('keep-alive: one connection serves many requests, bodies included', async () => {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ports = new Set();
  const once = (method, path, body) => new Promise((resolve, reject) => {
    const req = http.request(`${srv.base}${path}`, { method, agent, headers: body ? { 'Content-Type': 'application/json' } : {} }, (res) => {
      ports.add(res.socket.localPort);
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, text, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end(body);
  });
  for (let i = 0; i < 5; i++) {
    const r = await once('POST', '/v1/players', JSON.stringify({ name: `ka${i}` }));
    assert.equal(r.status, 201);
    assert.notEqual(r.connection, 'close');
    assert.equal((await once('GET', '/healthz')).status, 200);
  }
  assert.equal(ports.size, 1, 'every request went over the same connection');
  agent.destroy();
});
