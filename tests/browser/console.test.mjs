// The operator's console (/admin/, issue 38) in real headless Chromium
// against the real bin/replayd, filled by a small fair-play day: two
// human-like players and a floor bot on one Schulte level board (the bot
// held for its pace), a twin pair on the daily (a leader and a re-timed
// copy, both held), and a new account (named like an HTML injection) whose
// daily is held. In the page: a wrong token is refused; sign-in; the queue
// ordered by suspicion; the twin pair side by side; an approve that ranks
// (checked on the public board), a void that re-ranks the board, a ban, a
// rename with an HTML reason; the log newest first with all four and their
// reasons; hostile text rendered as text; the token in no URL, no storage,
// no cookie and not in the server's request log; the lockout (429) shown
// by the page. Screenshots go to build/browser-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, call, register, seed, solveSchulte, awaitRun, ADMIN_TOKEN, sharedRanks } from '../http/harness.mjs';
import { Rng } from '../../vectors/port/core.mjs';
import { order, bot } from '../http/schulte_runs.mjs';
import { ARTIFACTS, WAIT, launch, watchedPage } from './browser.mjs';

// A Schulte level-4 daily (twins.test.mjs): the server's clock at its noon.
const DATE = '2026-10-06';
const offsetAt = (date, s) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) + s - Math.floor(Date.now() / 1000);
const LEVEL = 3;
// admin_failures_per_minute: a failure's budget refills in 60/FAILURES s.
// Two (30 s) keeps the lockout test's right token inside the lockout even
// when each sign-in takes seconds on a loaded machine (at 5, 12 s, a
// fresh Debian run at load 10 saw the budget refill before it was sent).
const FAILURES = 2;
const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
const HOSTILE_REASON = '<b>not bold</b><img src=x onerror=alert(2)> renamed: HTML in a name';

let srv;
let browser;
const who = {};
const runs = {};

// a person on a fixed Schulte level (its own draws: the vectors' Rng)
function human(rng) {
  return async (level, seedValue) => {
    const { cells } = await order(level, seedValue);
    const moves = [];
    let t = 0;
    const tap = (cell) => { t += 450 + rng.below(650); moves.push({ t, cell }); };
    cells.forEach((cell, i) => {
      if (i === 1) tap(cells[cells.length - 1]); // a mistake
      tap(cell);
    });
    return moves;
  };
}
// twins.test.mjs: the daily's taps at a person's pace
function paced(moves, seedValue) {
  const r = new Rng(seedValue);
  let t = 0;
  return moves.map((m) => ({ ...m, t: (t += 420 + r.below(281)) }));
}

async function play(player, tokenBody, make) {
  const s = await seed(srv, player.token, tokenBody);
  const moves = await make(s);
  await awaitRun(s, moves, 80);
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  return r.json;
}

const board = async () => (await call(srv, 'GET', `/v1/leaderboards/schulte/${LEVEL}`)).json.entries;

before(async () => {
  srv = await startServer({
    admin: ADMIN_TOKEN,
    args: ['--set', 'review_hold_threshold=600', '--set', `admin_failures_per_minute=${FAILURES}`,
      '--set', `clock_offset_s=${offsetAt(DATE, 12 * 3600)}`, '--set', 'log_requests=true'],
  });
  for (const [k, name] of [['ann', 'ann'], ['bea', 'bea'], ['bot', 'floor bot'], ['leader', 'leader'],
    ['copier', 'copier'], ['fresh', HOSTILE_NAME]]) who[k] = await register(srv, name);
  // the level board and the daily side by side (the waits overlap)
  const level = { game: 'schulte', level: LEVEL };
  const [ann, bea, botRun, lead, fresh] = await Promise.all([
    play(who.ann, level, (s) => human(new Rng(7))(LEVEL, s.seed)),
    play(who.bea, level, (s) => human(new Rng(8))(LEVEL, s.seed)),
    play(who.bot, level, (s) => bot(LEVEL, s.seed)),
    play(who.leader, { daily: true }, async (s) => { runs.daily = s; return (runs.lead = paced(await solveSchulte(s.level, s.seed, 500, s.version), 1)); }),
    play(who.fresh, { daily: true }, async (s) => paced(await solveSchulte(s.level, s.seed, 500, s.version), 3)),
  ]);
  Object.assign(runs, { ann, bea, bot: botRun, leader: lead, fresh });
  runs.copy = await play(who.copier, { daily: true }, () => runs.lead.map((m) => ({ ...m, t: Math.round(m.t * 0.7) })));
  assert.equal(ann.status, 'ranked');
  assert.equal(bea.status, 'ranked');
  assert.equal(botRun.status, 'held', JSON.stringify(botRun));
  assert.equal(runs.copy.held_reason, 'twin', JSON.stringify(runs.copy));
  assert.equal(fresh.held_reason, 'new_account', JSON.stringify(fresh));
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (srv) {
    await srv.stop();
    srv.cleanup();
  }
});

// Chromium logs every refused call; the test's wrong tokens make those.
const REFUSED = /Failed to load resource: the server responded with a status of (401|429) .*\/v1\/admin\/review/;

function assertClean(seen) {
  const origin = new URL(srv.base).origin;
  for (const r of seen.requests) {
    assert.ok(r.url().startsWith('data:') || new URL(r.url()).origin === origin, `a request left the origin: ${r.url()}`);
    assert.ok(!r.url().includes(ADMIN_TOKEN), `the token is in a URL: ${r.url()}`);
  }
  assert.deepEqual(seen.errors.filter((e) => !REFUSED.test(e)), [], 'no page error, no CSP report');
}

async function openConsole() {
  const w = await watchedPage(browser, { width: 1400, height: 1000 });
  w.dialogs = [];
  w.page.on('dialog', (d) => { w.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await w.page.goto(`${srv.base}/admin/`);
  await w.page.waitForSelector('body[data-ready="true"]', { timeout: WAIT });
  return w;
}

async function signInAs(page, token) {
  await page.evaluate(() => { delete document.querySelector('#signin-error').dataset.status; });
  await page.fill('#token', token);
  await page.click('#signin-btn');
  await page.waitForFunction(() => !document.querySelector('#queue').hidden || document.querySelector('#signin-error').dataset.status,
    null, { timeout: WAIT });
  return page.evaluate(() => ({ status: document.querySelector('#signin-error').dataset.status || null,
    text: document.querySelector('#signin-error').textContent }));
}

const rowIds = (page) => page.$$eval('#queue-body tr', (trs) => trs.map((tr) => tr.dataset.scoreId));

async function waitQueueReload(page, since) {
  await page.waitForFunction((t) => Number(document.querySelector('#queue').dataset.loaded) > t, since, { timeout: WAIT });
}

// The two-step dialog: reason (and name), Continue, the confirmation names
// the change, Confirm, the server's answer.
async function confirmAction(page, reason, name) {
  await page.waitForSelector('#action-dialog[open]', { timeout: WAIT });
  if (name) await page.fill('#action-name', name);
  await page.click('#action-next');
  assert.match(await page.textContent('#action-result'), /reason is required/, 'no reason: refused by the page');
  await page.fill('#action-reason', reason);
  await page.click('#action-next');
  const confirm = await page.textContent('#action-confirm');
  await page.click('#action-go');
  await page.waitForSelector('#action-result[data-state]', { timeout: WAIT });
  const result = await page.evaluate(() => ({ state: document.querySelector('#action-result').dataset.state,
    text: document.querySelector('#action-result').textContent }));
  assert.equal(result.state, 'done', result.text);
  await page.click('#action-cancel');
  return { confirm, result: result.text };
}

test('/admin/ is 404 without an admin token configured', async () => {
  const bare = await startServer({});
  try {
    const res = await fetch(`${bare.base}/admin/`);
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, 'not_found');
  } finally {
    await bare.stop();
    bare.cleanup();
  }
  const res = await fetch(`${srv.base}/admin/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.match(res.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  assert.match(res.headers.get('content-security-policy'), /script-src 'self' /);
  const html = await res.text();
  assert.ok(!/<script(?![^>]*\bsrc=)/.test(html) && !/<style/.test(html) && !/ on[a-z]+=/.test(html), 'no inline script or style');
});

test('the console: sign-in, the queue by suspicion, a twin pair, approve, void, ban, rename, the log; hostile text stays text; the token stays in memory', async () => {
  const w = await openConsole();
  const { page } = w;
  try {
    // a wrong token: the server's answer, shown
    const wrong = await signInAs(page, 'not-the-token-000000000000000000000');
    assert.equal(wrong.status, '401');
    assert.match(wrong.text, /admin token is required/);

    const ok = await signInAs(page, ADMIN_TOKEN);
    assert.equal(ok.status, null, ok.text);
    assert.equal(await page.inputValue('#token'), '', 'the field is cleared');
    await page.waitForSelector('#queue-body tr', { timeout: WAIT });
    const suspicion = await page.$$eval('#queue-body td.suspicion', (tds) => tds.map((td) => Number(td.textContent)));
    assert.ok(suspicion.length >= 6, `the queue: ${suspicion}`);
    for (let i = 1; i < suspicion.length; i++) assert.ok(suspicion[i - 1] >= suspicion[i], `most suspicious first: ${suspicion}`);
    const ids = await rowIds(page);
    assert.ok(ids.indexOf(runs.bot.score_id) < ids.indexOf(runs.ann.score_id), 'the bot above the person');
    // the hostile name, as text
    const text = await page.textContent('#queue-body');
    assert.ok(text.includes(HOSTILE_NAME), 'the name is shown as written');
    assert.equal(await page.$$eval('#queue-body img', (x) => x.length), 0, 'and is no element');
    const botRow = `#queue-body tr[data-score-id="${runs.bot.score_id}"]`;
    assert.match(await page.textContent(`${botRow} td.held`), /pace|padding|clock|routine|speed|rehearsal/);
    assert.match(await page.textContent(botRow), /weight /, 'the features with their weights');
    await page.screenshot({ path: join(ARTIFACTS, 'console-queue.png'), fullPage: true });
    // the filters, the server's (each change loads the first page of what it selects)
    const refilter = async (act) => { const t = Date.now(); await act(); await waitQueueReload(page, t); };
    await refilter(() => page.selectOption('#f-reason', 'twin'));
    assert.deepEqual(new Set(await rowIds(page)), new Set([runs.copy.score_id, runs.leader.score_id]),
      'held as a twin: both runs of the pair (the leader, held first as a new account, is named by its pair)');
    await refilter(() => page.selectOption('#f-reason', ''));
    await refilter(() => page.fill('#f-board', `schulte/${LEVEL}`));
    assert.deepEqual(new Set(await rowIds(page)), new Set([runs.ann.score_id, runs.bea.score_id, runs.bot.score_id]));
    await refilter(() => page.fill('#f-board', 'schulte'));
    assert.match(await page.textContent('#queue-status'), /game\/level/, 'a board it cannot read: said, not sent');
    await refilter(() => page.fill('#f-board', ''));
    assert.deepEqual(await rowIds(page), ids, 'no filter: the whole queue again, in its order');
    const asked = w.seen.requests.map((r) => new URL(r.url())).filter((u) => u.pathname === '/v1/admin/review');
    assert.ok(asked.some((u) => u.searchParams.get('reason') === 'twin'), 'the reason went to the server');
    assert.ok(asked.some((u) => u.searchParams.get('game') === 'schulte' && u.searchParams.get('level') === String(LEVEL)));

    // the twin pair side by side, the first run named
    await page.click(`#queue-body tr[data-score-id="${runs.copy.score_id}"] button.open`);
    await page.waitForFunction((id) => document.querySelector('#run').dataset.loaded === id, runs.copy.score_id, { timeout: WAIT });
    const sides = await page.$$eval('#run-sides .side', (s) => s.map((x) => ({ id: x.dataset.scoreId, text: x.textContent,
      lines: x.querySelectorAll('svg.gaps polyline.own, svg.gaps polyline.other').length,
      check: x.querySelector('.viewer .check') && x.querySelector('.viewer .check').dataset.check,
      canvas: x.querySelectorAll('.viewer canvas').length,
      history: x.querySelector('table.history tr.current') && x.querySelector('table.history tr.current').dataset.scoreId })));
    assert.equal(sides.length, 2);
    assert.deepEqual(new Set(sides.map((s) => s.id)), new Set([runs.copy.score_id, runs.leader.score_id]));
    assert.equal(sides[0].id, runs.leader.score_id, 'the run that came first on the left');
    assert.match(sides[0].text, /Came first/);
    for (const s of sides) assert.equal(s.lines, 2, 'each run\'s gaps, and the other\'s beside them');
    for (const s of sides) {
      assert.equal(s.check, 'ok', `replayed in the browser and its score checked: ${s.text}`);
      assert.equal(s.canvas, 2, 'the viewer\'s canvas and its strip of move times');
      assert.equal(s.history, s.id, 'the player\'s newest runs, this one marked');
    }
    // one control plays both from the start together
    await page.click('#run-play-both');
    await page.waitForFunction(() => [...document.querySelectorAll('#run-sides .viewer')].every((v) => v.dataset.state === 'playing'),
      null, { timeout: WAIT });
    await page.keyboard.press(' '); // Space pauses both
    await page.waitForFunction(() => [...document.querySelectorAll('#run-sides .viewer')].every((v) => v.dataset.state !== 'playing'),
      null, { timeout: WAIT });
    await page.screenshot({ path: join(ARTIFACTS, 'console-twins.png'), fullPage: true });

    // ban the copier from the pair's page
    await page.click(`#run-sides .side[data-score-id="${runs.copy.score_id}"] button[data-action="ban"]`);
    const ban = await confirmAction(page, 'copied the leader\'s daily, re-timed');
    assert.match(ban.confirm, /Ban copier #\d+/);
    assert.equal((await call(srv, 'GET', `/v1/admin/players/${who.copier.player_id}`, { token: ADMIN_TOKEN })).json.banned, true);

    // approve the bot from the queue with the keyboard: it ranks
    let since = Date.now();
    await page.click('#run-back');
    await waitQueueReload(page, since);
    const queue = await rowIds(page);
    for (let i = 0; i < queue.length; i++) await page.keyboard.press('k');
    for (let i = 0; i < queue.indexOf(runs.bot.score_id); i++) await page.keyboard.press('j');
    assert.equal(await page.getAttribute('#queue-body tr.current', 'data-score-id'), runs.bot.score_id);
    await page.keyboard.press('a');
    const approve = await confirmAction(page, 'watched it: a fast player');
    assert.match(approve.confirm, /Approve floor bot #\d+'s run .* at rank \d/);
    assert.match(approve.result, /Done: approve/);
    const before = await board();
    assert.ok(before.some((e) => e.score_id === runs.bot.score_id), 'approved: on the public board');

    // void ann's run from its page: the board re-ranks
    await page.click(`#queue-body tr[data-score-id="${runs.ann.score_id}"] button.open`);
    await page.waitForFunction((id) => document.querySelector('#run').dataset.loaded === id, runs.ann.score_id, { timeout: WAIT });
    // a level run beside its board's population: the band of the board's ranked runs
    const annSide = `#run-sides .side[data-score-id="${runs.ann.score_id}"]`;
    assert.equal(await page.$$eval(`${annSide} svg.gaps polygon.band`, (x) => x.length), 1);
    assert.match(await page.textContent(`${annSide} .legend`), /the board's \d+ ranked runs?/);
    assert.equal(await page.getAttribute(`${annSide} .viewer .check`, 'data-check'), 'ok');
    const annRank = (await board()).find((e) => e.score_id === runs.ann.score_id).rank;
    await page.click(`#run-sides .side[data-score-id="${runs.ann.score_id}"] button[data-action="void"]`);
    // the confirmation names the rank the run loses (read from the public board)
    await page.waitForFunction(() => /loses rank \d+/.test(document.querySelector('#action-what').textContent), null, { timeout: WAIT });
    const voided = await confirmAction(page, 'voided for the test');
    assert.match(voided.confirm, new RegExp(`loses rank ${annRank} and the board re-ranks`));
    const afterVoid = await board();
    assert.ok(!afterVoid.some((e) => e.score_id === runs.ann.score_id), 'voided: off the board');
    const expected = before.filter((e) => e.score_id !== runs.ann.score_id);
    assert.deepEqual(afterVoid.map((e) => e.score_id), expected.map((e) => e.score_id));
    assert.deepEqual(afterVoid.map((e) => e.rank), sharedRanks(afterVoid), 're-ranked');

    // rename the hostile name, with HTML in the reason
    since = Date.now();
    await page.click('#run-back');
    await waitQueueReload(page, since);
    await page.click(`#queue-body tr[data-score-id="${runs.fresh.score_id}"] button.open`);
    await page.waitForFunction((id) => document.querySelector('#run').dataset.loaded === id, runs.fresh.score_id, { timeout: WAIT });
    assert.ok((await page.textContent('#run-sides')).includes(HOSTILE_NAME));
    await page.click(`#run-sides .side[data-score-id="${runs.fresh.score_id}"] button[data-action="rename"]`);
    await confirmAction(page, HOSTILE_REASON, 'fresh player');

    // the log, newest first, all four with their reasons, as text
    await page.click('#nav-log');
    await page.waitForSelector('#log-body tr', { timeout: WAIT });
    const log = await page.$$eval('#log-body tr', (trs) => trs.map((tr) => ({ action: tr.dataset.action,
      reason: tr.querySelector('.reason').textContent, actor: tr.children[1].textContent })));
    assert.deepEqual(log.map((e) => e.action), ['rename', 'void', 'approve', 'ban']);
    assert.deepEqual(log.map((e) => e.reason), [HOSTILE_REASON, 'voided for the test', 'watched it: a fast player',
      'copied the leader\'s daily, re-timed']);
    assert.ok(log.every((e) => e.actor.startsWith('console@')));
    assert.equal(await page.$$eval('#log-body img, #log-body b', (x) => x.length), 0, 'the HTML reason is text');
    since = Date.now();
    await page.selectOption('#f-action', 'void');
    await page.waitForFunction((t) => Number(document.querySelector('#log').dataset.loaded) > t, since, { timeout: WAIT });
    assert.equal(await page.$$eval('#log-body tr', (trs) => trs.length), 1, 'filtered by action');
    since = Date.now();
    await page.selectOption('#f-action', '');
    await page.fill('#f-operator', log[0].actor);
    await page.waitForFunction((t) => Number(document.querySelector('#log').dataset.loaded) > t, since, { timeout: WAIT });
    assert.equal(await page.$$eval('#log-body tr', (trs) => trs.length), 4, 'filtered by the operator, exactly as logged');
    const logAsked = w.seen.requests.map((r) => new URL(r.url())).filter((u) => u.pathname === '/v1/admin/log');
    assert.ok(logAsked.every((u) => u.searchParams.get('order') === 'desc'), 'newest first, by the server');

    // nothing ran, nothing left the origin, the token in no URL
    assert.deepEqual(w.dialogs, [], 'no script ran: no dialog');
    assertClean(w.seen);
    const adminCalls = w.seen.requests.filter((r) => new URL(r.url()).pathname.startsWith('/v1/admin/'));
    assert.ok(adminCalls.length > 5);
    for (const r of adminCalls) assert.match((await r.allHeaders()).authorization || '', /^Bearer /, 'sent as the bearer');
    // and in no storage, no cookie
    const stored = await page.evaluate(() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie]));
    assert.ok(!stored.includes(ADMIN_TOKEN), stored);
    assert.deepEqual(await page.context().cookies(), []);
    assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes(ADMIN_TOKEN), 'nor in the page');
    // nor in the server's request log (which has the calls)
    const stderr = srv.stderr();
    assert.match(stderr, /"path":"\/v1\/admin\/review"/);
    assert.ok(!stderr.includes(ADMIN_TOKEN), 'the token is not in the request log');

    // signing out forgets the token and what the views showed
    await page.click('#nav-signout');
    assert.ok(await page.isVisible('#signin'));
    assert.equal(await page.$$eval('#queue-body tr, #log-body tr, #run-sides .side', (x) => x.length), 0);
  } finally {
    await w.close();
  }
});

test('after admin_failures_per_minute wrong tokens the page shows the 429 lockout, and the right token waits too', async () => {
  const w = await openConsole();
  const { page } = w;
  try {
    let last = null;
    for (let i = 0; i <= FAILURES + 1 && (!last || last.status !== '429'); i++) last = await signInAs(page, `wrong-${i}-000000000000000000000000000`);
    assert.equal(last.status, '429', last.text);
    assert.match(last.text, /too many failed admin attempts/);
    const right = await signInAs(page, ADMIN_TOKEN);
    assert.equal(right.status, '429', 'locked out: the right token is not looked at');
    assert.ok(await page.isHidden('#queue'));
    assert.deepEqual(w.dialogs, []);
    assertClean(w.seen);
  } finally {
    await w.close();
  }
});
