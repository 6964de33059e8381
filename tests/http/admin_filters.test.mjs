// The operator's console filters on the server (issue 38): the review
// queue by held reason, game, level, daily date and status, each keeping
// the queue's order and paging every matching item exactly once (a reason
// page reads a bounded number of rows, so it may come back short, even
// empty, with a cursor to follow); the admin log newest first and by
// action and actor. The oracle is the unfiltered queue and log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, call, register, seed, solve, ADMIN_TOKEN } from './harness.mjs';
import { order, bot, human, lcg } from './schulte_runs.mjs';

let srv;
// No waiting for runs to take their claimed time (the slack covers it;
// the early arrival is the clock term: a bot's run scores over 1000, a
// person's under); the new-account hold at its default: a
// fresh player's daily is held for it.
before(async () => {
  srv = await startServer({
    admin: ADMIN_TOKEN,
    args: ['--set', 'plausibility_slack_ms=600000', '--set', 'review_hold_threshold=1000'],
  });
});
after(async () => { await srv.stop(); srv.cleanup(); });

const admin = (method, path, body, offContract = false) => call(srv, method, path, { token: ADMIN_TOKEN, body, offContract });

async function submit(player, body, make) {
  const s = await seed(srv, player.token, body);
  const moves = await make(s);
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

// Every page of a listing (bounded), and the pages themselves.
async function pages(path, limit) {
  const items = [], seen = [];
  let cursor = '';
  for (let i = 0; i < 200; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await admin('GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    assert.ok(r.json.items.length <= limit, `${path}: a page holds at most limit`);
    items.push(...r.json.items);
    seen.push(r.json);
    cursor = r.json.next_cursor;
    if (!cursor) return { items, pages: seen };
  }
  assert.fail(`${path}: no end after 200 pages`);
}

let queue; // the whole queue, unfiltered, in its order
let today;

test('the queue is filled: held bots, ranked people, held new accounts on the daily', async () => {
  const b = await register(srv, 'scripted');
  const people = [await register(srv, 'person-a'), await register(srv, 'person-b')];
  const rand = lcg(3838);
  // twelve held runs of one bot: more than a one-item reason page reads
  for (let i = 0; i < 12; i++) await submit(b, { game: 'schulte', level: 1 + (i % 2) }, (s) => bot(1 + (i % 2), s.seed));
  for (const p of people) {
    for (const level of [1, 2]) await submit(p, { game: 'schulte', level }, (s) => human(level, s.seed, rand));
  }
  for (const name of ['newcomer-a', 'newcomer-b']) {
    const p = await register(srv, name);
    const r = await submit(p, { daily: true }, async (t) => {
      const plan = await solve(t.game, t.level, t.seed, t.version);
      let at = 0;
      return plan.map((m) => ({ ...m, t: (at += 450 + Math.floor(rand() * 300)) }));
    });
    assert.equal(r.held_reason, 'new_account', JSON.stringify(r));
    today = r.date;
  }
  queue = (await pages('/v1/admin/review', 200)).items;
  assert.equal(queue.length, 18);
  const reasons = queue.map((it) => it.held_reason);
  console.log('queue:', queue.map((it) => `${it.name} ${it.game}/${it.date ?? it.level} ${it.status} ${it.held_reason} ${it.suspicion}`).join('; '));
  assert.equal(queue.filter((it) => it.status === 'ranked').length, 4);
  assert.equal(reasons.filter((w) => w === 'new_account').length, 2);
  assert.ok(new Set(reasons.filter(Boolean)).size >= 2, 'at least two reasons');
});

// A filter's pages, at one item and at a few a page, are the unfiltered
// queue narrowed by pred, in its order, each item once.
async function assertFilter(query, pred) {
  const want = queue.filter(pred).map((it) => it.score_id);
  for (const limit of [1, 3, 200]) {
    const got = (await pages(`/v1/admin/review?${query}`, limit)).items.map((it) => it.score_id);
    assert.deepEqual(got, want, `${query} limit ${limit}`);
  }
  return want.length;
}

test('each filter of the queue narrows it, in its order, every matching item once at any page size', async () => {
  assert.ok(await assertFilter('game=schulte', (it) => it.game === 'schulte') >= 16);
  assert.equal(await assertFilter('game=schulte&level=1', (it) => it.game === 'schulte' && it.level === 1 && !it.date), 8);
  assert.equal(await assertFilter('game=schulte&level=2', (it) => it.game === 'schulte' && it.level === 2 && !it.date), 8);
  assert.equal(await assertFilter(`date=${today}`, (it) => it.date === today), 2);
  assert.equal(await assertFilter('status=held', (it) => it.status === 'held'), 14);
  assert.equal(await assertFilter('status=ranked', (it) => it.status === 'ranked'), 4);
  assert.equal(await assertFilter('reason=new_account', (it) => it.held_reason === 'new_account'), 2);
  assert.equal(await assertFilter('reason=new_account&status=held', (it) => it.held_reason === 'new_account'), 2);
  for (const word of new Set(queue.map((it) => it.held_reason).filter(Boolean))) {
    await assertFilter(`reason=${word}`, (it) => it.held_reason === word);
    await assertFilter(`reason=${word}&game=schulte&level=1`, (it) => it.held_reason === word && it.game === 'schulte' && it.level === 1 && !it.date);
  }
  assert.equal(await assertFilter('reason=twin', () => false), 0);
  assert.equal(await assertFilter('game=schulte&status=ranked&level=2', (it) => it.status === 'ranked' && it.game === 'schulte' && it.level === 2 && !it.date), 2);
  assert.equal(await assertFilter('date=2001-01-01', () => false), 0);
});

test('a reason page reads at most 10 x limit rows: short pages carry a cursor to follow', async () => {
  const heldBefore = queue.findIndex((it) => it.held_reason === 'new_account');
  const held = queue.slice(0, heldBefore).filter((it) => it.status === 'held').length;
  assert.ok(held >= 10, `the bot's held runs come first (${held})`);
  const first = await admin('GET', '/v1/admin/review?reason=new_account&limit=1');
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.json.items, [], 'ten rows read, none of them new_account');
  assert.notEqual(first.json.next_cursor, null, 'a short page is not the last');
  const { items, pages: all } = await pages('/v1/admin/review?reason=new_account', 1);
  assert.equal(items.length, 2);
  assert.ok(all.length >= 3, `${all.length} pages`);
  // without a reason a page is full until the last
  const plain = await pages('/v1/admin/review?status=held', 4);
  plain.pages.slice(0, -1).forEach((p) => assert.equal(p.items.length, 4));
});

test('bad filter values: 400 bad_query, bad_date, bad_level; 404 unknown_game', async () => {
  const cases = [
    ['reason=bogus', 400, 'bad_query'],
    ['status=voided', 400, 'bad_query'],
    ['reason=pace&status=ranked', 400, 'bad_query', true],
    ['game=nosuchgame', 404, 'unknown_game', true],
    ['date=2026-13-01', 400, 'bad_date'],
    ['date=yesterday', 400, 'bad_date'],
    ['level=1', 400, 'bad_level', true],
    ['game=schulte&level=999', 400, 'bad_level', true],
    ['game=schulte&level=x', 400, 'bad_level'],
    [`game=schulte&level=1&date=${today}`, 400, 'bad_level', true],
    ['reason=new_account&cursor=nope', 400, 'bad_cursor', true],
  ];
  for (const [query, status, code, inContract] of cases) {
    const r = await admin('GET', `/v1/admin/review?${query}`, undefined, !inContract);
    assert.equal(r.status, status, `${query}: ${r.text}`);
    assert.equal(r.json.error.code, code, query);
  }
});

test('the log: newest first with order=desc, by action and by actor, paged each way', async () => {
  const held = queue.filter((it) => it.status === 'held');
  const ranked = queue.filter((it) => it.status === 'ranked');
  const act = async (path, body) => {
    const r = await admin('POST', path, body);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
  };
  await act(`/v1/admin/scores/${held[0].score_id}/approve`, { reason: 'watched it', operator: 'ana' });
  await act(`/v1/admin/scores/${held[1].score_id}/void`, { reason: 'script', operator: 'bo' });
  await act(`/v1/admin/scores/${held[1].score_id}/restore`, { reason: 'second look', operator: 'ana' });
  await act(`/v1/admin/scores/${ranked[0].score_id}/void`, { reason: 'shared account', operator: 'ana' });
  await act(`/v1/admin/players/${held[2].player_id}/ban`, { reason: 'script', operator: 'bo' });
  await act(`/v1/admin/players/${held[2].player_id}/unban`, { reason: 'appeal', operator: 'bo' });
  await act(`/v1/admin/players/${ranked[1].player_id}/rename`, { reason: 'rude', name: 'renamed', operator: 'ana' });

  const asc = (await pages('/v1/admin/log', 200)).items;
  assert.equal(asc.length, 7);
  for (const limit of [1, 2, 200]) {
    const desc = (await pages('/v1/admin/log?order=desc', limit)).items;
    assert.deepEqual(desc.map((e) => e.id), asc.map((e) => e.id).reverse(), `desc limit ${limit}`);
    assert.deepEqual((await pages('/v1/admin/log?order=asc', limit)).items.map((e) => e.id), asc.map((e) => e.id));
  }
  const actors = [...new Set(asc.map((e) => e.actor))];
  assert.equal(actors.length, 2, JSON.stringify(actors));
  for (const action of ['void', 'restore', 'approve', 'ban', 'unban', 'rename']) {
    const want = asc.filter((e) => e.action === action).map((e) => e.id);
    assert.ok(want.length >= 1, action);
    for (const order of ['asc', 'desc']) {
      const got = (await pages(`/v1/admin/log?action=${action}&order=${order}`, 1)).items.map((e) => e.id);
      assert.deepEqual(got, order === 'asc' ? want : [...want].reverse(), `${action} ${order}`);
    }
  }
  for (const actor of actors) {
    const want = asc.filter((e) => e.actor === actor).map((e) => e.id);
    const q = `actor=${encodeURIComponent(actor)}`;
    assert.deepEqual((await pages(`/v1/admin/log?${q}`, 2)).items.map((e) => e.id), want, actor);
    assert.deepEqual((await pages(`/v1/admin/log?${q}&order=desc`, 2)).items.map((e) => e.id), [...want].reverse());
    const both = asc.filter((e) => e.actor === actor && e.action === 'void').map((e) => e.id);
    assert.deepEqual((await pages(`/v1/admin/log?${q}&action=void`, 1)).items.map((e) => e.id), both);
  }
  assert.deepEqual((await admin('GET', '/v1/admin/log?actor=nobody%40nowhere')).json.items, []);
  for (const [query, code] of [['order=newest', 'bad_query'], ['action=delete', 'bad_query'], ['actor=', 'bad_query'],
    [`actor=${'a'.repeat(128)}`, 'bad_query'], ['order=desc&cursor=x', 'bad_cursor']]) {
    const r = await admin('GET', `/v1/admin/log?${query}`, undefined, code !== 'bad_cursor');
    assert.equal(r.status, 400, `${query}: ${r.text}`);
    assert.equal(r.json.error.code, code, query);
  }
});
