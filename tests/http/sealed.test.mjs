// Sealed dailies (issue 25, item 5), on default settings (daily_seeds =
// sealed). The attack: read a Contraption daily's seed days ahead from
// GET /v1/daily?date= (or compute it: FNV-1a of "contraption:Y-M-D"),
// brute-force the machine offline, submit at 00:00:03. Now a future date
// shows only a commitment, and the seed that opens at midnight is neither
// the public derivation nor anything the commitment gives away; once it
// opens anyone can check it against the commitment (vectors/port/sealed.mjs,
// written from CORE.md). With a fixed test secret the server's seeds are
// the JavaScript port's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startServer, call, register, seed, gen, solve, awaitRun, run, dailyOf as cliDaily, contraptionDay } from './harness.mjs';
import { sealedDaily, checkReveal } from '../../vectors/port/sealed.mjs';

const DAY = 86400;
const dateOf = (unixS) => new Date(unixS * 1000).toISOString().slice(0, 10);
// The server's clock at `hms` seconds into `date` (UTC), as a clock offset.
const offsetAt = (date, s) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) + s - Math.floor(Date.now() / 1000);
// The fixed test secret of vectors/server/daily-sealed.json (bytes 00..1f).
const TEST_KEY = [...Array(32).keys()].map((b) => b.toString(16).padStart(2, '0')).join('');

test('the Contraption midnight attack: the day before, only a commitment; at 00:00:03 a seed nobody could know', async () => {
  const day = await contraptionDay();
  const eve = dateOf(Date.parse(`${day}T00:00:00Z`) / 1000 - DAY);
  const dir = mkdtempSync(join(tmpdir(), 'replayd-sealed-'));
  try {
    let commitment;
    // the eve of the day, on a fresh deployment's defaults
    let srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(eve, 12 * 3600)}`] });
    try {
      const ahead = await call(srv, 'GET', `/v1/daily?date=${day}`);
      assert.equal(ahead.status, 200, ahead.text);
      assert.deepEqual(Object.keys(ahead.json).sort(), ['commitment', 'date', 'opens_at', 'sealed']);
      assert.equal(ahead.json.sealed, true);
      assert.match(ahead.json.commitment, /^[0-9a-f]{64}$/);
      assert.equal(ahead.json.opens_at, `${day}T00:00:00.000Z`);
      commitment = ahead.json.commitment;
      // years ahead too, and a daily token is only ever today's
      const far = await call(srv, 'GET', '/v1/daily?date=2030-06-30');
      assert.equal(far.json.seed, undefined);
      const p = await register(srv, 'early-bird');
      const t = await seed(srv, p.token, { daily: true });
      assert.equal(t.date, eve);
      // a deployment seals from its first day: the public schedule is never served
      const today = await call(srv, 'GET', '/v1/daily');
      assert.equal(today.json.sealed, true);
      assert.notEqual(today.json.seed, (await cliDaily(eve)).seed);
      assert.equal(t.seed, today.json.seed);
      assert.equal(checkReveal(eve, today.json.reveal, today.json.commitment), today.json.seed);
    } finally { await srv.stop(); }

    // 00:00:03 on the day: the seed opens
    srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(day, 3)}`] });
    try {
      const open = await call(srv, 'GET', '/v1/daily');
      assert.equal(open.status, 200, open.text);
      assert.equal(open.json.date, day);
      assert.equal(open.json.game, 'contraption');
      assert.equal(open.json.sealed, true);
      assert.equal(open.json.commitment, commitment, 'the commitment published the day before');
      assert.equal(checkReveal(day, open.json.reveal, commitment), open.json.seed, 'anyone can check the seed against it');
      const precomputed = (await cliDaily(day, 'contraption')).seed;
      assert.notEqual(open.json.seed, precomputed, 'not the public FNV-1a derivation the script solved ahead');
      assert.notEqual(open.json.seed, (await cliDaily(day)).seed);
      const p = await register(srv, 'midnight-bot');
      const t = await seed(srv, p.token, { daily: true });
      assert.equal(t.seed, open.json.seed, 'the token plays the revealed seed');
      // the machine solved offline was for another level
      const served = await gen('contraption', t.level, t.seed, t.version);
      const solved = await gen('contraption', t.level, precomputed, t.version);
      assert.notDeepEqual([served.ball, served.goal, served.walls], [solved.ball, solved.goal, solved.walls]);
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('with a fixed test secret the server\'s sealed seeds and commitments are the JavaScript port\'s', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-sealed-key-'));
  mkdirSync(join(dir, 'keys'), { mode: 0o700 });
  writeFileSync(join(dir, 'keys', 'daily.key'), Buffer.from(TEST_KEY, 'hex'), { mode: 0o600 });
  writeFileSync(join(dir, 'keys', 'daily.json'), '{"sealed_from":"2026-01-01"}\n', { mode: 0o600 });
  const srv = await startServer({ dataDir: dir });
  try {
    const today = await call(srv, 'GET', '/v1/daily');
    assert.equal(today.status, 200, today.text);
    const want = sealedDaily(TEST_KEY, today.json.date);
    assert.equal(today.json.sealed, true);
    assert.equal(today.json.seed, want.seed);
    assert.equal(today.json.reveal, want.reveal);
    assert.equal(today.json.commitment, want.commitment);
    const p = await register(srv, 'player');
    assert.equal((await seed(srv, p.token, { daily: true })).seed, want.seed);
    const next = dateOf(Date.parse(`${today.json.date}T00:00:00Z`) / 1000 + DAY);
    const ahead = await call(srv, 'GET', `/v1/daily?date=${next}`);
    assert.equal(ahead.json.commitment, sealedDaily(TEST_KEY, next).commitment);
    assert.equal(ahead.json.reveal, undefined);
    // a past date shows its seed and reveal
    const past = await call(srv, 'GET', '/v1/daily?date=2026-07-28');
    assert.equal(past.json.seed, sealedDaily(TEST_KEY, '2026-07-28').seed);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('daily_seeds = public keeps the schedule\'s seeds, ahead of time too; a bad value refuses to start', async () => {
  const srv = await startServer({ args: ['--set', 'daily_seeds=public'] });
  try {
    const r = await call(srv, 'GET', '/v1/daily?date=2026-12-11');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.sealed, false);
    assert.equal(r.json.seed, (await cliDaily('2026-12-11')).seed);
    assert.equal(r.json.commitment, undefined);
  } finally { await srv.stop(); srv.cleanup(); }
  const bad = await run(BIN, ['serve', '--listen', '127.0.0.1:0', '--data', mkdtempSync(join(tmpdir(), 'replayd-bad-')), '--set', 'daily_seeds=secret'], { encoding: 'utf8', timeout: 10000 });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /daily_seeds: expected sealed or public/);
});

// Day one of an upgrade (issue 37, item 6): a deployment that served
// today's public daily and restarts sealed does not serve that public seed
// to anyone else. New tokens for today are refused with a reason, tokens
// drawn before still play, and tomorrow is sealed.
test('an upgrade to sealed dailies closes the day under way to new players and seals from the next', async () => {
  const day = '2026-12-08';
  const next = '2026-12-09';
  const dir = mkdtempSync(join(tmpdir(), 'replayd-sealed-upgrade-'));
  try {
    let early, tok;
    let srv = await startServer({ dataDir: dir, args: ['--set', 'daily_seeds=public', '--set', `clock_offset_s=${offsetAt(day, 9 * 3600)}`] });
    try {
      early = await register(srv, 'played-before');
      tok = await seed(srv, early.token, { daily: true });
      assert.equal(tok.seed, (await cliDaily(day)).seed, 'public: the schedule\'s seed');
      // (the late player registers now: its account is as old as the early one's)
      early.late = await register(srv, 'came-after');
    } finally { await srv.stop(); }
    // the same data, now sealed (the default), later that day
    srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(day, 10 * 3600)}`] });
    try {
      const d = await call(srv, 'GET', '/v1/daily');
      assert.equal(d.status, 404, d.text);
      assert.equal(d.json.error.code, 'no_daily');
      assert.match(d.json.error.message, /public seed before this server sealed/);
      const drawn = await call(srv, 'POST', '/v1/seeds', { token: early.late.token, body: { daily: true } });
      assert.equal(drawn.status, 404, drawn.text);
      assert.equal(drawn.json.error.code, 'no_daily');
      // the token drawn before the upgrade still plays its seed
      const moves = await solve(tok.game, tok.level, tok.seed, tok.version);
      await awaitRun(tok, moves);
      const run = await call(srv, 'POST', '/v1/scores', { token: early.token, body: { seed_token: tok.seed_token, moves } });
      assert.equal(run.status, 200, run.text);
      assert.equal(run.json.verified, true);
      const past = await call(srv, 'GET', '/v1/daily?date=2026-12-07');
      assert.equal(past.status, 200, 'a day that is over still shows what it was');
      const ahead = await call(srv, 'GET', `/v1/daily?date=${next}`);
      assert.equal(ahead.json.sealed, true);
      assert.equal(ahead.json.seed, undefined);
    } finally { await srv.stop(); }
    srv = await startServer({ dataDir: dir, args: ['--set', `clock_offset_s=${offsetAt(next, 60)}`] });
    try {
      const d = await call(srv, 'GET', '/v1/daily');
      assert.equal(d.status, 200, d.text);
      assert.equal(d.json.sealed, true);
      assert.notEqual(d.json.seed, (await cliDaily(next)).seed);
      const t = await seed(srv, early.late.token, { daily: true });
      assert.equal(t.seed, d.json.seed);
    } finally { await srv.stop(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
