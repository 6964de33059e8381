// Re-verification as an operator's call: POST /v1/admin/reverify starts a
// run over every stored score, GET /v1/admin/reverify follows it to its
// result; a score row altered by hand (sqlite3, the server stopped) is
// named with what differs. The CLI's own test over 12,000 scores of every
// game is tests/unit/test_reverify.c.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, awaitRun, sleep, dbExec, PG } from './harness.mjs';

const ADMIN = 'reverify-admin-token-0123456789abcdef';

async function finished(srv) {
  for (let i = 0; i < 200; i++) {
    const r = await call(srv, 'GET', '/v1/admin/reverify', { token: ADMIN });
    assert.equal(r.status, 200);
    if (r.json.state !== 'running') return r.json;
    await sleep(50);
  }
  throw new Error('the re-verification did not finish');
}

test('reverify over HTTP: 0 divergences, then a planted one is named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-reverify-'));
  let srv;
  try {
    srv = await startServer({ dataDir: dir, admin: ADMIN });
    const idle = await call(srv, 'GET', '/v1/admin/reverify', { token: ADMIN });
    assert.equal(idle.json.state, 'idle');
    assert.equal((await call(srv, 'GET', '/v1/admin/reverify')).status, 401);
    assert.equal((await call(srv, 'POST', '/v1/admin/reverify', { token: 'wrong', body: {} })).status, 401);

    const ids = [];
    const p = await register(srv, 'checked');
    for (const [game, level] of [['pipes', 1], ['pipes', 2], ['schulte', 1]]) {
      const s = await seed(srv, p.token, { game, level });
      const moves = await solve(game, level, s.seed, s.version);
      await awaitRun(s, moves);
      const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
      assert.equal(r.status, 200, r.text);
      ids.push(r.json.score_id);
    }

    const started = await call(srv, 'POST', '/v1/admin/reverify', { token: ADMIN, body: {} });
    assert.equal(started.status, 202);
    assert.ok(['running', 'done'].includes(started.json.state));
    let done = await finished(srv);
    assert.equal(done.state, 'done');
    assert.equal(done.total, 3);
    assert.equal(done.checked, 3);
    assert.equal(done.divergent, 0);
    assert.deepEqual(done.divergences, []);
    assert.ok(Date.parse(done.finished_at) >= Date.parse(done.started_at));

    // bad options
    for (const [body, status, code] of [[{ jobs: 0 }, 400, 'bad_request'], [{ since: '2026-13-01' }, 400, 'bad_date'],
      [{ game: 'chess' }, 404, 'unknown_game'], [{ extra: 1 }, 400, 'bad_request']]) {
      const r = await call(srv, 'POST', '/v1/admin/reverify', { token: ADMIN, body, offContract: status === 400 });
      assert.equal(r.status, status, JSON.stringify(body));
      assert.equal(r.json.error.code, code);
    }
    await srv.stop();

    // an operator (or an attacker with the database) changes a score by hand
    assert.equal((await dbExec(dir, `UPDATE scores SET score = score + 7 WHERE score_id = '${ids[1]}'`)).status, 0);
    srv = await startServer({ dataDir: dir, admin: ADMIN });
    assert.equal((await call(srv, 'POST', '/v1/admin/reverify', { token: ADMIN, body: { game: 'pipes', jobs: 2 } })).status, 202);
    done = await finished(srv);
    assert.equal(done.state, 'done');
    assert.equal(done.game, 'pipes');
    assert.equal(done.checked, 2, 'only the game asked for');
    assert.equal(done.divergent, 1);
    const [d] = done.divergences;
    assert.equal(d.score_id, ids[1]);
    assert.deepEqual(d.differs, ['score', 'receipt'], 'off from its replay, and from its receipt');
    assert.equal(d.stored.score, d.replayed.score + 7);
    // the log line comes through the server's stderr pipe, which may lag
    // the HTTP answer that said the run was done: wait for it (bounded)
    for (let i = 0; i < 50 && !/"event":"reverify_divergence"/.test(srv.stderr()); i++) await sleep(100);
    assert.match(srv.stderr(), /"event":"reverify_divergence"/);
    const later = await call(srv, 'POST', '/v1/admin/reverify', { token: ADMIN, body: { since: '2099-01-01' } });
    assert.equal(later.status, 202);
    done = await finished(srv);
    assert.equal(done.checked, 0);
    assert.equal(done.since, '2099-01-01');
    await srv.stop();

    // A long run: 150,000 copies of one stored row (copies replay like the
    // original, so none diverges but the altered one's; a v3 receipt is one
    // leaf read, not a signature check, so it takes this many to outlast
    // the shutdown's start). One run at a time,
    // and a shutdown cancels the run and waits for its thread.
    // (PostgreSQL: each copy a nonce of its own, scores_nonce is unique)
    const cols = `player_id, game, level, seed, version, daily_date, score, completed,
        received_at, moves_hash, receipt, moves_json, result_json, status, signals`;
    const copy = PG
      ? `INSERT INTO scores (score_id, nonce, ${cols}) SELECT score_id,
          decode(md5(encode(nonce, 'hex') || i::text), 'hex'), ${cols}
          FROM scores, generate_series(1, 150000) AS i WHERE score_id = '${ids[2]}'`
      : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150000)
      INSERT INTO scores (score_id, nonce, ${cols})
      SELECT score_id, nonce, ${cols} FROM scores, n WHERE score_id = '${ids[2]}'`;
    const copied = await dbExec(dir, copy);
    assert.equal(copied.status, 0, copied.stderr);
    srv = await startServer({ dataDir: dir, admin: ADMIN });
    const long = await call(srv, 'POST', '/v1/admin/reverify', { token: ADMIN, body: { jobs: 1 } });
    assert.equal(long.status, 202);
    const busy = await call(srv, 'POST', '/v1/admin/reverify', { token: ADMIN, body: {} });
    assert.equal(busy.status, 409);
    assert.equal(busy.json.error.code, 'reverify_running');
    let seen;
    for (let i = 0; i < 100; i++) {
      seen = (await call(srv, 'GET', '/v1/admin/reverify', { token: ADMIN })).json;
      if (seen.checked > 0) break;
      await sleep(20);
    }
    assert.equal(seen.state, 'running');
    assert.equal(seen.total, 150003);
    assert.ok(seen.checked > 0 && seen.checked < seen.total, 'progress is reported while it runs');
    const { code } = await srv.stop();
    assert.equal(code, 0, 'a clean shutdown in the middle of a run');
    assert.match(srv.stderr(), /"event":"reverify_finished","state":"cancelled"/,
      srv.stderr().split('\n').filter((l) => /reverify|error/.test(l)).join('\n'));
    srv = undefined;
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});
