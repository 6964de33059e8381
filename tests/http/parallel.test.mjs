// Parallel play (issue 37, Why item 5): one account draws many level tokens
// at once and a script plays them all at the same time (rank 1 on 14 of 20
// boards before). A timed run claims its play, from its arrival back by the
// time it claims; one person plays one level at a time, so a run whose
// claimed play overlaps another of the player's by more than
// parallel_overlap_ms (1000 by default) is held ("parallel"). A person who
// draws the next level's token while still playing the current one is not
// parallel: only claimed play counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, solveSchulte, awaitRun, sleep, ADMIN_TOKEN } from './harness.mjs';
import { Rng } from '../../vectors/port/core.mjs';

// the default (the harness turns it off for the other files, which play one
// player's runs at once)
const ARGS = ['--set', 'parallel_overlap_ms=1000'];

async function paced(t, rngSeed) {
  const r = new Rng(rngSeed);
  let at = 0;
  return (await solveSchulte(t.level, t.seed, undefined, t.version)).map((m) => ({ ...m, t: (at += 480 + r.below(271)) }));
}

const submit = (srv, p, t, moves) => call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });

test('ten tokens drawn at once and played at the same time: one ranks, nine are held as parallel play', async () => {
  const srv = await startServer({ admin: ADMIN_TOKEN, args: ARGS });
  try {
    const bot = await register(srv, 'ten-at-once');
    const toks = await Promise.all(Array.from({ length: 10 }, (_, i) => seed(srv, bot.token, { game: 'schulte', level: 1 + (i % 5) })));
    const runs = await Promise.all(toks.map((t, i) => paced(t, 50 + i)));
    await Promise.all(toks.map((t, i) => awaitRun(t, runs[i], 60)));
    const answers = await Promise.all(toks.map((t, i) => submit(srv, bot, t, runs[i])));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    const ranked = answers.filter((a) => a.json.status === 'ranked');
    const held = answers.filter((a) => a.json.status === 'held');
    assert.equal(ranked.length, 1, 'the first run judged ranks');
    assert.equal(held.length, 9);
    for (const h of held) assert.equal(h.json.held_reason, 'parallel', h.text);
    const audit = await call(srv, 'GET', `/v1/admin/scores/${held[0].json.score_id}`, { token: ADMIN_TOKEN });
    assert.equal(audit.status, 200, audit.text);
    const par = audit.json.signals.parallel;
    assert.ok(par.runs >= 1 && par.overlap_ms > 1000, JSON.stringify(par));
    // the overlap is most of a run: they were played at once
    assert.ok(par.overlap_ms * 2 > Math.min(...runs.map((m) => m[m.length - 1].t)), JSON.stringify(par));
  } finally { await srv.stop(); srv.cleanup(); }
});

test('a person who draws the next level while playing the current one, and plays them one after another, ranks every run', async () => {
  const srv = await startServer({ admin: ADMIN_TOKEN, args: ARGS });
  try {
    const person = await register(srv, 'one-at-a-time');
    let next = await seed(srv, person.token, { game: 'schulte', level: 1 });
    let moves = await paced(next, 7);
    await awaitRun(next, moves, 60);
    for (let level = 1; level <= 4; level++) {
      const cur = next;
      const curMoves = moves;
      // the app fetches the next level's token before this one is sent
      if (level < 4) next = await seed(srv, person.token, { game: 'schulte', level: level + 1 });
      const r = await submit(srv, person, cur, curMoves);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.status, 'ranked', `level ${level}: ${r.text}`);
      if (level < 4) { // then plays it: its claimed time passes after this one ended
        moves = await paced(next, 7 + level);
        await sleep(moves[moves.length - 1].t + 150);
      }
    }
  } finally { await srv.stop(); srv.cleanup(); }
});

test('parallel_overlap_ms = 0 turns it off', async () => {
  const srv = await startServer({ args: ['--set', 'parallel_overlap_ms=0'] });
  try {
    const bot = await register(srv, 'three-at-once');
    const toks = await Promise.all([1, 2, 3].map((level) => seed(srv, bot.token, { game: 'schulte', level })));
    const runs = await Promise.all(toks.map((t, i) => paced(t, 90 + i)));
    await Promise.all(toks.map((t, i) => awaitRun(t, runs[i], 60)));
    const answers = await Promise.all(toks.map((t, i) => submit(srv, bot, t, runs[i])));
    for (const a of answers) assert.equal(a.json.status, 'ranked', a.text);
  } finally { await srv.stop(); srv.cleanup(); }
});
