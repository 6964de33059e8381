// Spec versions: a score recorded under Opposites v1 still replays to the
// same result under v1 after the server moves on to v2, and new tokens are
// issued at v2. Also: every game of the catalogue verifies end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, replayCli } from './harness.mjs';

const slack = ['--set', 'plausibility_slack_ms=600000'];

test('an Opposites v1 score survives the move to v2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-versions-'));
  try {
    let srv = await startServer({ dataDir: dir, args: [...slack, '--set', 'issue_versions=opposites=1'] });
    const p = await register(srv, 'veteran');
    const games = (await call(srv, 'GET', '/v1/games')).json.games;
    const opp = games.find((g) => g.name === 'opposites');
    assert.equal(opp.version, 3);
    assert.equal(opp.min_version, 1);
    assert.equal(opp.issue_version, 1);
    const s = await seed(srv, p.token, { game: 'opposites', level: 2 });
    assert.equal(s.version, 1);
    // A slip on the first prompt: v1 closes the prompt, v2 would charge 50.
    const moves = await solve('opposites', 2, s.seed, 1);
    const wrong = { t: moves[0].t - 100, answer: moves[0].answer ^ 1 };
    const played = [wrong, ...moves];
    const v1 = await replayCli('opposites', 2, s.seed, played, 1);
    const v2 = await replayCli('opposites', 2, s.seed, played, 2);
    assert.notEqual(v1.score, v2.score, 'the two versions really score this run differently');
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: played } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.score, v1.score);
    const id = r.json.score_id;
    await srv.stop();

    srv = await startServer({ dataDir: dir, args: slack });
    const audit = await call(srv, 'GET', `/v1/scores/${id}`);
    assert.equal(audit.status, 200);
    assert.equal(audit.json.version, 1);
    assert.equal(audit.json.score, v1.score);
    assert.deepEqual(audit.json.result, { ...audit.json.result, ...replayCli('opposites', 2, s.seed, audit.json.moves, 1).result });
    assert.equal((await replayCli('opposites', 2, audit.json.seed, audit.json.moves, audit.json.version)).score, v1.score);
    const fresh = await seed(srv, p.token, { game: 'opposites', level: 2 });
    assert.equal(fresh.version, 3, 'new tokens are issued at the current version');
    const again = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: played } });
    assert.equal(again.status, 200, 'a retry of the v1 submission still answers the recorded v1 score');
    assert.equal(again.json.score, v1.score);
    await srv.stop();
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('every game in the catalogue verifies a computed solution over HTTP', async () => {
  const srv = await startServer({ args: slack });
  try {
    const p = await register(srv, 'tourist');
    const games = (await call(srv, 'GET', '/v1/games')).json.games;
    for (const g of games) {
      for (const level of [1, 8, 15]) {
        const s = await seed(srv, p.token, { game: g.name, level });
        const moves = await solve(g.name, level, s.seed, s.version);
        const want = await replayCli(g.name, level, s.seed, moves, s.version);
        assert.equal(want.completed, true, `${g.name} ${level}: the computed solution completes`);
        const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
        assert.equal(r.status, 200, `${g.name} ${level}: ${r.text}`);
        assert.equal(r.json.score, want.score);
        assert.equal(r.json.completed, true);
      }
    }
  } finally { await srv.stop(); srv.cleanup(); }
});
