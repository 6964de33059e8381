// Issue 12, row 5: one token resubmitted again and again with 1,000 bad
// moves. Each rejection keeps its reason, index and moves hash; the moves
// themselves only up to the caps; after rejections_per_token the token is
// burned (409 token_burned) and nothing more is stored for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, call, register, seed, LONG } from './lib.mjs';
import { dbHold } from '../http/harness.mjs';
import { runOk } from '../http/proc.mjs';

const TRIES = LONG ? 110 : 30;

async function sql(dir, query) {
  return (await runOk('sqlite3', [join(dir, 'replayd.db'), query], { encoding: 'utf8' })).trim();
}

test(`${TRIES} resubmissions of one token are bounded, then 409 token_burned`, { timeout: 120000 }, async () => {
  const srv = await startServer({ args: ['--set', 'rate_scores_per_player=100000', '--set', 'max_forfeits_per_level_day=0', '--set', 'rate_seeds_per_player=100000',
    '--set', 'max_outstanding_tokens=1000', '--set', 'rate_per_ip=0'] });
  try {
    const p = await register(srv, 'hammer');
    const s = await seed(srv, p.token, { game: 'schulte', level: 1 });
    // 1,000 taps on a cell that is never the next number: rejected at once,
    // but the whole list is what an attacker makes the server store
    const moves = Array.from({ length: 1000 }, (_, i) => ({ t: 500 + i, cell: 9 }));
    const statuses = [];
    for (let i = 0; i < TRIES; i++) {
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
      statuses.push(r.status === 409 ? r.json.error.code : r.status);
    }
    const rejected = statuses.filter((x) => x === 422).length;
    const rows = Number(await sql(srv.dir, 'SELECT COUNT(*) FROM rejections'));
    const bytes = Number(await sql(srv.dir, 'SELECT SUM(LENGTH(moves_json)) FROM rejections'));
    console.log(`# ${TRIES} submissions of one token: ${rejected} answered 422, ${rows} rejections stored, ` +
      `moves kept ${bytes} bytes in total; last answer ${statuses[statuses.length - 1]}`);
    assert.equal(rejected, 5, `422s: ${statuses.join(',')}`);
    assert.ok(statuses.slice(5).every((x) => x === 'token_burned'), statuses.join(','));
    assert.equal(rows, 5);
    assert.equal(Number(await sql(srv.dir, "SELECT COUNT(*) FROM rejections WHERE moves_json <> ''")), 1);
    assert.ok(bytes < 40000, `${bytes} bytes of moves kept`);
    // the daily quota holds across tokens: fresh tokens keep moves 20 times a day, then no more
    let kept = 1;
    for (let t = 0; t < 25; t++) {
      const s2 = await seed(srv, p.token, { game: 'schulte', level: 1 });
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s2.seed_token, moves } });
      assert.equal(r.status, 422);
      kept = Number(await sql(srv.dir, "SELECT COUNT(*) FROM rejections WHERE moves_json <> ''"));
    }
    assert.equal(kept, 20);
  } finally {
    await srv.stop();
    srv.cleanup();
  }
});

// The rule probe's bound holds while the writer cannot record: with the
// database held (a flood, a long checkpoint), a rejection the store could
// not count is answered 503 busy with nothing of the replay's verdict, so
// a cheater cannot probe a seed past rejections_per_token by keeping the
// writer busy. Once it can record again, the count resumes where it was.
test('a rejection the writer cannot record tells nothing and is not free', { timeout: 120000 }, async () => {
  const srv = await startServer({ args: ['--set', 'rate_scores_per_player=100000', '--set', 'max_forfeits_per_level_day=0',
    '--set', 'rate_per_ip=0', '--set', 'busy_timeout_ms=200'] });
  try {
    const p = await register(srv, 'prober');
    const s = await seed(srv, p.token, { game: 'schulte', level: 1 });
    const moves = [{ t: 500, cell: 9 }];
    const first = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
    assert.equal(first.status, 422, JSON.stringify(first.json));
    const hold = dbHold(srv.dir);
    assert.equal(await hold.ready, true, 'sqlite3 holds the write lock');
    const held = [];
    try {
      for (let i = 0; i < 8; i++) {
        const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
        held.push({ status: r.status, code: r.json?.error?.code, detail: r.json?.error?.reason ?? r.json?.error?.move });
      }
    } finally {
      await hold.release();
    }
    console.log(`# 8 bad submissions while the writer was held: ${JSON.stringify(held)}`);
    for (const h of held) {
      assert.deepEqual(h, { status: 503, code: 'busy', detail: undefined }, JSON.stringify(held));
    }
    const rows = Number(await sql(srv.dir, 'SELECT COUNT(*) FROM rejections'));
    assert.equal(rows, 1, 'only the recorded rejection');
    // the count resumes: four more rejections (5 in all), then burned
    const after = [];
    for (let i = 0; i < 5; i++) {
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
      after.push(r.status === 409 ? r.json.error.code : r.status);
    }
    assert.deepEqual(after, [422, 422, 422, 422, 'token_burned']);
  } finally {
    await srv.stop();
    srv.cleanup();
  }
});
