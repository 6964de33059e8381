// Batch order (issue 39): scores committed in one batch take their seq,
// and so their place among equal scores, in the order the server received
// them, on SQLite and PostgreSQL alike (store.h, API.md: ties are listed by
// server arrival). Another client holds the database (SQLite: a write
// transaction; PostgreSQL: a third player's row) while that player's score
// waits in the writer; meanwhile the player registered second submits and
// then the first, with the same score: both queue behind it and commit in
// one batch. PostgreSQL used to run a batch in player order (its lock
// order), so the later arrival took the earlier seq.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, solveSchulte, sleep, dbHold } from './harness.mjs';

let srv;
before(async () => {
  srv = await startServer({ args: ['--set', 'plausibility_slack_ms=600000', '--set', 'review_hold_threshold=0'] });
});
after(async () => { await srv.stop(); srv.cleanup(); });

test('two equal scores in one batch: listed in the order they arrived, not by player', async () => {
  const level = 2;
  const first = await register(srv, 'registered first');
  const second = await register(srv, 'registered second');
  const blocker = await register(srv, 'held in the writer');
  assert.ok(first.player_id < second.player_id);
  const [a, b, d] = await Promise.all([first, second, blocker].map((p) => seed(srv, p.token, { game: 'schulte', level })));
  // the runs solved before the timed part: each post then leaves at once, in order
  const [md, mb, ma] = await Promise.all([[d, 400], [b, 300], [a, 300]].map(([s, gap]) => solveSchulte(level, s.seed, gap)));
  const post = (p, s, moves) => call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
  const hold = dbHold(srv.dir, `SELECT id FROM players WHERE id = ${blocker.player_id} FOR UPDATE;`);
  let results;
  try {
    await sleep(300); // the other client holds it
    const held = post(blocker, d, md); // the writer takes it and waits
    await sleep(150);
    // these two queue behind it; between them more than a verification's
    // jitter on a loaded machine (the writer takes writes in the order
    // their verification ends: 50 ms apart, at load 14 the later one's
    // ended first on PostgreSQL)
    const early = post(second, b, mb);
    await sleep(400);
    const late = post(first, a, ma);
    await sleep(400);
    await hold.release();
    results = await Promise.all([held, early, late]);
  } finally {
    await hold.release();
  }
  const [h, e, l] = results;
  for (const r of [h, e, l]) assert.equal(r.status, 200, r.text);
  assert.equal(e.json.score, l.json.score, 'the same run time: the same score');
  assert.ok(e.json.submitted_at_ms < l.json.submitted_at_ms);
  assert.equal(e.json.rank, l.json.rank, 'a tie shares its rank');
  const entries = (await call(srv, 'GET', `/v1/leaderboards/schulte/${level}`)).json.entries;
  assert.deepEqual(entries.filter((x) => x.score === e.json.score).map((x) => x.player_id), [second.player_id, first.player_id],
    'by arrival');
});
