// Think floors (issue 37, "The midnight solver"): on the placement games a
// script that reads the level makes its one decision as soon as the level
// exists. Contraption's single placement and Driftlings' plan carry no pace
// signal, so the server holds a run whose first decision came before the
// level's think floor (the spec's "Fair play" section), held_reason
// think_time, off the board; a run at a person's pace (the level read
// first) ranks. Default settings for the floors and the review hold; the
// new-account hold and the review of records are off here (newaccount and
// records test them) so that the person's daily run can rank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, gen, replayCli, sleep } from './harness.mjs';
import { dailyOf, contraptionDay } from './solvers.mjs';

const ADMIN = 'think-time-admin-credential-0123456789abcdef';

// A clock offset that puts the server's clock at `secs` past midnight of a date.
const offsetAt = (date, secs) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) + secs - Math.floor(Date.now() / 1000);


// The floors as the specs state them ("Fair play"), from the gen output.
const contraptionFloor = (g) => 1500 + 250 * (g.walls.length + g.inventory.ramp + g.inventory.fan) + 1000;
const BANDS = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4];
const driftlingsFloor = (level, g) =>
  1500 + 250 * (BANDS[level - 1] * Math.ceil(g.width / 16) + Object.values(g.inventory).filter((v) => v > 0).length) + 1000;

// Submits once `claimed` ms (plus `extra`) have passed since the seed answer arrived at `arrived`.
async function submitAfter(srv, p, t, arrived, claimed, extra, moves) {
  const wait = arrived + claimed + extra - Date.now();
  if (wait > 0) await sleep(wait);
  return call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: t.seed_token, moves } });
}

const signalsOf = async (srv, scoreId) => {
  const r = await call(srv, 'GET', `/v1/admin/scores/${scoreId}`, { token: ADMIN });
  assert.equal(r.status, 200, r.text);
  return r.json.signals;
};

test('the Contraption midnight solver: its placement at 00:00:0x is held as think_time, a person who read the level ranks first', async () => {
  const day = await contraptionDay();
  const srv = await startServer({ admin: ADMIN, holdDefault: true, args: ['--set', `clock_offset_s=${offsetAt(day, 1)}`,
    '--set', 'new_account_runs=0', '--set', 'review_top=0'] });
  try {
    const bot = await register(srv, 'midnight-solver');
    const person = await register(srv, 'early-riser');
    // 00:00:01: the bot reads the daily and takes its token
    const daily = await call(srv, 'GET', '/v1/daily');
    assert.equal(daily.json.game, 'contraption');
    const tb = await seed(srv, bot.token, { daily: true });
    const botArrived = Date.now();
    const g = await gen('contraption', tb.level, tb.seed, tb.version);
    assert.ok(g.plan.length > 0, 'the level has a plan');
    const floor = contraptionFloor(g);
    assert.ok(floor >= 3000 && floor <= 6000, `floor ${floor}`);
    const runMs = g.tick_ms * g.plan_arrival_tick; // the simulation the player watches
    // the plan at the part gap, sent the moment the claim has passed
    const plan = g.plan.map((m) => ({ ...m, t: 1003 }));
    const rb = await submitAfter(srv, bot, tb, botArrived, 1003 + runMs, 80, plan);
    assert.equal(rb.status, 200, rb.text);
    assert.equal(rb.json.completed, true);
    assert.equal(rb.json.status, 'held');
    assert.equal(rb.json.held_reason, 'think_time');
    assert.equal(rb.json.rank, null);
    const sb = await signalsOf(srv, rb.json.score_id);
    assert.equal(sb.features.think_floor_ms, floor, 'the server\'s floor is the spec\'s');
    assert.ok(sb.features.think_ms < floor, `think ${sb.features.think_ms} under the floor ${floor}`);
    assert.deepEqual(sb.think_time, { think_ms: sb.features.think_ms, think_floor_ms: floor });
    // the person takes a token, reads the level past its floor, places the same machine
    const tp = await seed(srv, person.token, { daily: true });
    const personArrived = Date.now();
    const at = floor + 1237;
    const mine = g.plan.map((m) => ({ ...m, t: at }));
    const rp = await submitAfter(srv, person, tp, personArrived, at + runMs, 150, mine);
    assert.equal(rp.status, 200, rp.text);
    assert.equal(rp.json.score, rb.json.score, 'the same machine earns the same score');
    assert.equal(rp.json.status, 'ranked', rp.text);
    assert.equal(rp.json.rank, 1);
    const sp = await signalsOf(srv, rp.json.score_id);
    assert.ok(sp.features.think_ms >= floor, `think ${sp.features.think_ms} at or past the floor ${floor}`);
    assert.equal(sp.think_time, undefined);
    const board = await call(srv, 'GET', `/v1/leaderboards/daily/${day}`);
    assert.equal(board.status, 200, board.text);
    assert.deepEqual(board.json.entries.map((e) => e.player_id), [person.player_id], 'the bot is not on the board');
  } finally { await srv.stop(); srv.cleanup(); }
});

test('Driftlings: the crowd plan sent at once is held as think_time; the same plan after reading the level with the clock paused ranks', async () => {
  const srv = await startServer({ admin: ADMIN, holdDefault: true });
  try {
    const level = 5;
    const bot = await register(srv, 'plan-bot');
    const person = await register(srv, 'reader');
    const tb = await seed(srv, bot.token, { game: 'driftlings', level });
    const botArrived = Date.now();
    const g = await gen('driftlings', level, tb.seed, tb.version);
    const run = await replayCli('driftlings', level, tb.seed, g.plan, tb.version);
    assert.equal(run.completed, true);
    const floor = driftlingsFloor(level, g);
    assert.ok(25 * g.plan[0].tick < floor, 'the plan\'s first skill comes before the floor');
    const rb = await submitAfter(srv, bot, tb, botArrived, run.duration_ms, 80, g.plan);
    assert.equal(rb.status, 200, rb.text);
    assert.equal(rb.json.status, 'held');
    assert.equal(rb.json.held_reason, 'think_time');
    assert.equal(rb.json.rank, null);
    const sb = await signalsOf(srv, rb.json.score_id);
    assert.equal(sb.features.think_floor_ms, floor, 'the server\'s floor is the spec\'s');
    assert.ok(sb.features.think_ms < floor);

    // the person: another seed of the same level, read for the floor and more before playing
    const tp = await seed(srv, person.token, { game: 'driftlings', level });
    const personArrived = Date.now();
    const gp = await gen('driftlings', level, tp.seed, tp.version);
    const runP = await replayCli('driftlings', level, tp.seed, gp.plan, tp.version);
    const floorP = driftlingsFloor(level, gp);
    const rp = await submitAfter(srv, person, tp, personArrived, floorP + runP.duration_ms, 900, gp.plan);
    assert.equal(rp.status, 200, rp.text);
    assert.equal(rp.json.status, 'ranked', rp.text);
    assert.equal(rp.json.rank, 1);
    const sp = await signalsOf(srv, rp.json.score_id);
    assert.ok(sp.features.think_ms >= floorP);
    const board = await call(srv, 'GET', `/v1/leaderboards/driftlings/${level}`);
    assert.equal(board.status, 200, board.text);
    assert.deepEqual(board.json.entries.map((e) => e.player_id), [person.player_id], 'the bot is not on the board');
  } finally { await srv.stop(); srv.cleanup(); }
});

test('think_floor_permille = 0 turns the floors off: the midnight solver\'s Driftlings plan ranks', async () => {
  const srv = await startServer({ holdDefault: true, args: ['--set', 'think_floor_permille=0'] });
  try {
    const bot = await register(srv, 'plan-bot');
    const t = await seed(srv, bot.token, { game: 'driftlings', level: 1 });
    const arrived = Date.now();
    const g = await gen('driftlings', 1, t.seed, t.version);
    const run = await replayCli('driftlings', 1, t.seed, g.plan, t.version);
    const r = await submitAfter(srv, bot, t, arrived, run.duration_ms, 80, g.plan);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'ranked', r.text);
  } finally { await srv.stop(); srv.cleanup(); }
});

test('on default settings throughout, the midnight solver\'s daily is held and named think_time (before new_account and record)', async () => {
  const day = await contraptionDay();
  const srv = await startServer({ holdDefault: true, args: ['--set', `clock_offset_s=${offsetAt(day, 1)}`] });
  try {
    const bot = await register(srv, 'midnight-solver');
    const t = await seed(srv, bot.token, { daily: true });
    const arrived = Date.now();
    assert.equal(t.game, 'contraption');
    const g = await gen('contraption', t.level, t.seed, t.version);
    const plan = g.plan.map((m) => ({ ...m, t: 1003 }));
    const r = await submitAfter(srv, bot, t, arrived, 1003 + g.tick_ms * g.plan_arrival_tick, 80, plan);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'held');
    assert.equal(r.json.held_reason, 'think_time');
    assert.equal(r.json.rank, null);
    assert.equal(r.json.best, false);
    assert.equal(r.json.would_be_rank, 1, 'pending review, with the rank it would take');
  } finally { await srv.stop(); srv.cleanup(); }
});
