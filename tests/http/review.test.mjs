// The review queue (issue 11): a scripted bot (floor-paced, round
// timestamps, no wasted moves) and a human-like run (jittered gaps, a few
// mistaken taps) on the same levels land in the queue bot first, with their
// features; review_hold_threshold keeps the bot's runs off the boards until
// an operator approves them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, awaitRun, ADMIN_TOKEN, sharedRanks } from './harness.mjs';
import { order, bot, human, lcg } from './schulte_runs.mjs';

let srv;
before(async () => {
  srv = await startServer({ admin: ADMIN_TOKEN, args: ['--set', 'review_hold_threshold=600'] });
});
after(async () => { await srv.stop(); srv.cleanup(); });

const admin = (method, path, body) => call(srv, method, path, { token: ADMIN_TOKEN, body });

// Each run submitted once its claimed time has passed, as an honest
// client's would be (a run ahead of the server's clock is a signal of its own).
async function submit(player, level, make) {
  const s = await seed(srv, player.token, { game: 'schulte', level });
  const moves = await make(level, s.seed);
  await awaitRun(s, moves);
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.completed, true, r.text);
  return r.json;
}

test('a floor-paced bot and a human-like player on the same levels: the queue puts the bot first; the threshold holds it until approved', async () => {
  const b = await register(srv, 'scripted');
  const h = await register(srv, 'person');
  const rand = lcg(12345);
  const runs = { bot: [], human: [] };
  await Promise.all([1, 3].map(async (level) => { // the levels side by side: the waits overlap
    const [hr, br] = await Promise.all([submit(h, level, (l, sd) => human(l, sd, rand)), submit(b, level, bot)]);
    runs.human.push(hr);
    runs.bot.push(br);
  }));
  for (const r of runs.bot) assert.equal(r.status, 'held', 'the bot is held off the boards');
  for (const r of runs.human) assert.equal(r.status, 'ranked');

  // the whole queue, a page of one at a time (bounded)
  const items = [];
  let cursor = '';
  for (let i = 0; i < 20; i++) {
    const page = await admin('GET', `/v1/admin/review?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(page.status, 200, page.text);
    items.push(...page.json.items);
    cursor = page.json.next_cursor;
    if (!cursor) break;
  }
  assert.equal(cursor, null, 'the queue ends');
  assert.deepEqual(items.map((it) => it.player_id), [b.player_id, b.player_id, h.player_id, h.player_id], JSON.stringify(items.map((it) => [it.name, it.suspicion])));
  for (let i = 1; i < items.length; i++) assert.ok(items[i - 1].suspicion >= items[i].suspicion, 'highest suspicion first');
  console.log('suspicion in queue order:', items.map((it) => `${it.name} level ${it.level}: ${it.suspicion}`).join(', '));
  const [botItem] = items;
  const humanItem = items[items.length - 1];
  assert.ok(botItem.suspicion >= 600, `bot ${botItem.suspicion}`);
  assert.ok(humanItem.suspicion < 200, `human ${humanItem.suspicion}`);
  const bf = botItem.signals.features, hf = humanItem.signals.features;
  assert.equal(bf.wasted, 0);
  assert.ok(hf.wasted >= 2, JSON.stringify(hf));
  assert.ok(bf.at_floor_permille > 800, JSON.stringify(bf));
  assert.ok(hf.at_floor_permille < 200, JSON.stringify(hf));
  assert.equal(bf.round_t_permille, 1000);
  assert.ok(hf.round_t_permille < 300);
  assert.equal(bf.floor_ratio_permille, 1000, 'finished on the finish floor');
  assert.ok(hf.floor_ratio_permille > 1500);
  assert.equal(botItem.status, 'held');
  assert.equal(botItem.player_features.perfect_permille, 1000);
  assert.equal(humanItem.player_features.perfect_permille, 0);

  // held: off the board until approved
  const boardOf = async (level) => (await call(srv, 'GET', `/v1/leaderboards/schulte/${level}`)).json.entries;
  assert.ok(!(await boardOf(1)).some((e) => e.player_id === b.player_id));
  const heldOnLevel1 = items.find((it) => it.player_id === b.player_id && it.level === 1);
  const ok = await admin('POST', `/v1/admin/scores/${heldOnLevel1.score_id}/approve`, { reason: 'watched the replay: a fast player' });
  assert.equal(ok.status, 200, ok.text);
  const level1 = await boardOf(1);
  assert.ok(level1.some((e) => e.score_id === heldOnLevel1.score_id), 'approved: on the board');
  assert.deepEqual(level1.map((e) => e.rank), sharedRanks(level1));
  assert.equal((await admin('POST', `/v1/admin/scores/${heldOnLevel1.score_id}/approve`)).json.error.code, 'not_held');
  // the other held run is voided: it leaves the queue too
  const other = items.find((it) => it.player_id === b.player_id && it.level === 3);
  assert.equal((await admin('POST', `/v1/admin/scores/${other.score_id}/void`, { reason: 'script' })).status, 200);
  const queue = await admin('GET', '/v1/admin/review');
  assert.deepEqual(queue.json.items.map((it) => it.player_id), [h.player_id, h.player_id]);
  // the admin view of a score carries its suspicion
  const view = await admin('GET', `/v1/admin/scores/${botItem.score_id}`);
  assert.equal(view.json.suspicion, botItem.suspicion);
  // the parts of the suspicion, by term, add up to it (the features' own sum)
  const parts = Object.values(bf.points);
  assert.ok(bf.points.pace > 0, JSON.stringify(bf.points));
  assert.equal(parts.reduce((a, b) => a + b, 0), bf.suspicion);
  // the run's gaps beside its board's ranked runs (the person's): one band a gap
  const gaps = view.json.gaps_ms, pop = view.json.population;
  assert.ok(Array.isArray(gaps) && gaps.length >= 8, view.text);
  assert.equal(pop.bands.length, gaps.length);
  assert.ok(pop.runs >= 1, JSON.stringify(pop));
  for (const band of pop.bands) {
    assert.ok(band.runs >= 1 && band.p25 <= band.median && band.median <= band.p75, JSON.stringify(band));
  }
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  assert.ok(sum(pop.bands.map((band) => band.median)) > sum(gaps), 'the person took longer than the floor bot');
  // the player's runs, newest first, as the operator left them
  const player = await admin('GET', `/v1/admin/players/${b.player_id}`);
  assert.equal(player.status, 200, player.text);
  assert.deepEqual(player.json.runs.map((run) => run.status).sort(), ['ranked', 'voided']);
  assert.ok(player.json.runs[0].submitted_at_ms >= player.json.runs[1].submitted_at_ms);
});

test('review_hold_threshold is on by default: a bot-paced run is held, says why in one word, and is queued', async () => {
  const plain = await startServer({ admin: ADMIN_TOKEN, holdDefault: true });
  try {
    const b = await register(plain, 'scripted');
    const s = await seed(plain, b.token, { game: 'schulte', level: 1 });
    const moves = await bot(1, s.seed);
    await awaitRun(s, moves);
    const r = await call(plain, 'POST', '/v1/scores', { token: b.token, body: { seed_token: s.seed_token, moves } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'held');
    assert.equal(r.json.held_reason, 'pace');
    assert.equal(r.json.rank, null);
    const again = await call(plain, 'POST', '/v1/scores', { token: b.token, body: { seed_token: s.seed_token, moves } });
    assert.equal(again.json.held_reason, 'pace', 'a retry answers the same reason');
    const q = await call(plain, 'GET', '/v1/admin/review', { token: ADMIN_TOKEN });
    assert.equal(q.json.items[0].score_id, r.json.score_id);
    assert.ok(q.json.items[0].suspicion >= 500);
  } finally { await plain.stop(); plain.cleanup(); }
});
