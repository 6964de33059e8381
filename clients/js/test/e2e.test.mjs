// Every game end to end against the real server, through the package only:
// register, a seed, the level built locally (WebAssembly), the level's
// solution played locally and submitted, the receipt (v3) verified offline
// from the answer's log_proof with GET /v1/keys's log key (with the moves
// hash recomputed) and later from the log's tiles, the board, the
// player's place on it and the public audit. Then boards with cursors, and
// the retries: Retry-After honoured, a lost answer retried to the same score.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadGames, loadPort, play, Client, ApiError, verifyReceipt, receiptRecord, retryAfterMs } from '../src/index.mjs';
import { startServer, startProxy } from './server.mjs';

let srv;
let games;
let port;
before(async () => {
  // Runs are submitted at once: the slack lets a run claim more time than
  // has passed (the fair-play gate itself is tested in tests/http).
  srv = await startServer(['--set', 'plausibility_slack_ms=600000', '--set', 'rate_seeds_per_player=100000',
    '--set', 'rate_scores_per_player=100000', '--set', 'max_outstanding_tokens=1000']);
  games = await loadGames();
  port = await loadPort();
});
after(() => srv?.stop());

/** The level's solution: the port's bench solution (vectors/port/README.md). */
function solution(seed) {
  const m = port[seed.game];
  return m.typicalSolution(m.generate(seed.version, seed.level, seed.seed));
}

test('the package loads the WebAssembly games', () => assert.equal(games.backend, 'wasm'));

test('GET /v1/games: every game the server serves is in the package', async () => {
  const api = new Client({ baseUrl: srv.base });
  const list = (await api.games()).games.map((g) => g.name);
  assert.deepEqual([...list].sort(), [...games.names].sort());
});

for (const name of ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption', 'driftlings']) {
  test(`${name}: seed, play the solution, submit, verify the receipt offline, read the board`, async () => {
    const api = new Client({ baseUrl: srv.base });
    const me = await api.register(`e2e-${name}`);
    const seed = await api.seed({ game: name, level: 3 });
    const g = games.game(name);
    const level = g.generate(seed.version, seed.level, seed.seed);
    assert.equal(g.describeLevel(level).seed, seed.seed);
    const moves = solution(seed);
    const local = play(g, level, moves);
    assert.equal(local.rejected, null);
    assert.equal(local.result.completed, true, `${name}: the solution completes the level locally`);
    const score = await api.submit(seed.seed_token, moves);
    assert.equal(score.verified, true);
    assert.equal(score.score, local.result.score, 'the server computes the score the app computed');
    assert.equal(score.completed, true);
    const keys = await api.keys();
    const record = receiptRecord(me.player_id, seed, score);
    const v = await verifyReceipt(record, keys, { moves, fields: g.fieldsOf(seed.version) });
    assert.equal(v.ok, true, v.reason);
    // v3 (the default since the score log): the score's leaf, proved by the answer's log_proof
    assert.equal(v.form, 'v3');
    assert.equal(`v3.${v.index}`, score.receipt);
    assert.equal((await verifyReceipt(score, keys, { token: seed })).ok, true, 'the answer and its seed token');
    // A receipt proves exactly what was logged.
    assert.equal((await verifyReceipt({ ...record, score: record.score + 1 }, keys)).ok, false);
    assert.equal((await verifyReceipt({ ...score, score: score.score + 1 }, keys, { token: seed })).ok, false);
    const other = [...moves];
    other.pop();
    assert.match((await verifyReceipt(record, keys, { moves: other, fields: g.fieldsOf(seed.version) })).reason, /moves hash/);
    const page = await api.board({ game: name, level: 3 });
    assert.ok(page.entries.some((e) => e.score_id === score.score_id && e.score === score.score));
    const mine = await api.aroundMe({ game: name, level: 3 }, { around: 2 });
    assert.equal(mine.me.score_id, score.score_id);
    const audit = await api.audit(score.score_id);
    assert.deepEqual(audit.moves, moves);
    // later, from the audit: the log's checkpoint and tiles
    const later = await verifyReceipt(audit, keys, { moves: audit.moves, fields: g.fieldsOf(audit.version), baseUrl: srv.base });
    assert.equal(later.ok, true, later.reason);
    assert.equal(later.index, v.index);
    assert.equal((await verifyReceipt({ ...audit, score: audit.score + 1 }, keys, { baseUrl: srv.base })).ok, false);
  });
}

test('boards page with cursors, in rank order, every entry once', async () => {
  const api = new Client({ baseUrl: srv.base });
  const g = games.game('schulte');
  for (let i = 0; i < 5; i++) {
    const p = new Client({ baseUrl: srv.base });
    await p.register(`pager-${i}`);
    const seed = await p.seed({ game: 'schulte', level: 2 });
    // Fewer found numbers for later players: distinct scores.
    const moves = solution(seed).slice(0, 9 - i);
    const local = play(g, g.generate(seed.version, seed.level, seed.seed), moves);
    const s = await p.submit(seed.seed_token, moves);
    assert.equal(s.score, local.result.score);
  }
  const seen = [];
  let pages = 0;
  for await (const page of api.boardPages({ game: 'schulte', level: 2 }, { limit: 2 })) {
    pages++;
    seen.push(...page.entries);
  }
  assert.equal(pages, 3);
  assert.equal(seen.length, 5);
  assert.equal(new Set(seen.map((e) => e.score_id)).size, 5);
  assert.deepEqual(seen.map((e) => e.rank), [1, 2, 3, 4, 5]);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1].score >= seen[i].score);
});

test('Retry-After: a submit answered 503 twice waits what the server asks, then lands', async () => {
  let posts = 0;
  const proxy = await startProxy(srv.port, (req) => (req.method === 'POST' && req.url === '/v1/scores' && posts++ < 2
    ? { status: 503, headers: { 'Retry-After': '1' } } : null));
  try {
    const waits = [];
    const api = new Client({ baseUrl: proxy.base, sleep: (ms) => { waits.push(ms); return new Promise((r) => setTimeout(r, ms)); } });
    await api.register('retry-after');
    const seed = await api.seed({ game: 'schulte', level: 1 });
    const t0 = Date.now();
    const score = await api.submit(seed.seed_token, solution(seed));
    assert.equal(score.verified, true);
    assert.deepEqual(waits, [1000, 1000]);
    assert.ok(Date.now() - t0 >= 2000);
    const tries = proxy.seen.filter((s) => s.url === '/v1/scores');
    assert.equal(tries.length, 3);
    assert.ok(tries[1].at - tries[0].at >= 1000 && tries[2].at - tries[1].at >= 1000);
  } finally {
    await proxy.close();
  }
});

test('a lost answer: the retried submit gets the same score (idempotent), with backoff', async () => {
  let posts = 0;
  const proxy = await startProxy(srv.port, (req) => (req.method === 'POST' && req.url === '/v1/scores' && posts++ === 0 ? 'drop-after' : null));
  try {
    const waits = [];
    const api = new Client({ baseUrl: proxy.base, backoffMs: 50, random: () => 1, sleep: async (ms) => { waits.push(ms); } });
    await api.register('lost-answer');
    const seed = await api.seed({ game: 'pipes', level: 1 });
    const moves = solution(seed);
    const score = await api.submit(seed.seed_token, moves);
    assert.deepEqual(waits, [50]);
    assert.equal(proxy.seen.filter((s) => s.url === '/v1/scores').length, 2);
    const again = await api.submit(seed.seed_token, moves);
    assert.equal(again.score_id, score.score_id);
    const page = await api.board({ game: 'pipes', level: 1 });
    assert.equal(page.entries.filter((e) => e.name === 'lost-answer').length, 1);
  } finally {
    await proxy.close();
  }
});

test('errors: a rejected replay is not retried; retries are bounded', async () => {
  const api = new Client({ baseUrl: srv.base });
  await api.register('errors');
  const seed = await api.seed({ game: 'schulte', level: 1 });
  const before = api.attempts;
  await assert.rejects(api.submit(seed.seed_token, [{ t: 500, cell: 0 }, { t: 400, cell: 1 }]),
    (e) => e instanceof ApiError && e.name === 'ApiError' && e.status === 422 && e.code === 'replay_rejected' &&
      /^POST \/v1\/scores: 422 replay_rejected: the replay was rejected at move 1: time_backwards$/.test(e.message));
  assert.equal(api.attempts - before, 1);
  // A run is refused until its claimed time has passed (README): the error
  // says so, without a move index (a server with the default slack).
  const strict = await startServer();
  try {
    const api2 = new Client({ baseUrl: strict.base });
    await api2.register('early');
    const early = await api2.seed({ game: 'schulte', level: 1 });
    await assert.rejects(api2.submit(early.seed_token, [{ t: 20000, cell: 0 }]),
      (e) => e instanceof ApiError && e.code === 'replay_rejected' && e.body.error.reason === 'duration_exceeds_elapsed' &&
        /once its claimed time has passed/.test(e.message) && !/at move/.test(e.message));
  } finally {
    await strict.stop();
  }
  const down = new Client({ baseUrl: 'http://127.0.0.1:9', retries: 3, sleep: async () => {} });
  await assert.rejects(down.games(), (e) => e.status === 0);
  assert.equal(down.attempts, 4);
  assert.equal(retryAfterMs('7'), 7000);
  assert.equal(retryAfterMs(new Date(Date.now() + 5000).toUTCString(), Date.now()) > 3000, true);
  assert.equal(retryAfterMs('soon'), null);
});
