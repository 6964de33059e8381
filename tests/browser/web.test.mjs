// The public pages in real headless Chromium against the real bin/replayd:
// every game's replay played to the end and verified, a tampered receipt
// failing, private daily moves, board paging and the player's own rank, a
// phone-sized viewport, the keyboard, and nothing fetched from elsewhere.
// Screenshots go to build/browser-artifacts/. Page weight and the daily
// board's render time are printed, not asserted as timings.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, call } from '../http/harness.mjs';
import { ARTIFACTS, WAIT, bytesTransferred, launch, watchedPage } from './browser.mjs';
import { populate } from './fixtures.mjs';

let srv;
let browser;
let data;

before(async () => {
  srv = await startServer({ args: ['--set', 'plausibility_slack_ms=600000', '--set', 'new_account_runs=0', '--set', 'receipt_version=2'] });
  data = await populate(srv);
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (srv) {
    await srv.stop();
    srv.cleanup();
  }
});

const digits = (text) => Number(String(text).replace(/[^0-9-]/g, ''));

// Only this server: no request to another origin, no page error, no CSP
// report; `expected` matches errors the test caused on purpose.
function assertClean(seen, expected = null) {
  const origin = new URL(srv.base).origin;
  for (const r of seen.requests) {
    const url = r.url();
    assert.ok(url.startsWith('data:') || new URL(url).origin === origin, `a request left the origin: ${url}`);
  }
  const errors = expected ? seen.errors.filter((e) => !expected.test(e)) : seen.errors;
  assert.deepEqual(errors, [], 'the page logged no errors (CSP reports included)');
}

async function openReplay(scoreId, viewport) {
  const w = await watchedPage(browser, viewport);
  await w.page.goto(`${srv.base}/replay/${scoreId}`);
  return w;
}

async function waitReady(page) {
  await page.waitForSelector('#viewer:not([hidden])', { timeout: WAIT });
  await page.waitForFunction(() => document.querySelector('#caption').textContent.length > 0, null, { timeout: WAIT });
}

async function verifyAndRead(page) {
  await page.click('#btn-verify');
  await page.waitForFunction(() => ['pass', 'fail', 'partial'].includes(document.querySelector('#verdict').dataset.verdict), null, { timeout: WAIT });
  return page.evaluate(() => ({
    verdict: document.querySelector('#verdict').dataset.verdict,
    text: document.querySelector('#verdict').textContent,
    score: document.querySelector('#chk-score').textContent,
    hash: document.querySelector('#chk-hash').textContent,
    sig: document.querySelector('#chk-sig').textContent,
  }));
}

test('the boards page: first load weight, today\'s daily, its countdown', { timeout: 90000 }, async () => {
  const { page, seen, close } = await watchedPage(browser);
  const res = await page.goto(`${srv.base}/`);
  assert.match(res.headers()['content-security-policy'], /default-src 'none'/);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  const rendered = await page.evaluate(() => performance.getEntriesByName('replayd:board-rendered')[0].startTime);
  const bytes = await bytesTransferred(seen.requests);
  console.log(`# first load of /: ${seen.requests.length} requests, ${bytes} bytes transferred; the daily board rendered at ${rendered.toFixed(1)} ms`);
  assert.ok(bytes < 200 * 1024, `first load is ${bytes} bytes`);
  const today = data.daily[0];
  const title = await page.textContent('#board-title');
  assert.ok(title.includes(today.date), title);
  const names = await page.$$eval('#entries tbody .name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(names.slice().sort(), ['daily early', 'daily late']);
  const scores = await page.$$eval('#entries tbody td.num', (els) => els.map((e) => e.textContent));
  const want = [...data.daily].sort((a, b) => b.score - a.score).map((d) => d.score);
  assert.deepEqual(scores.map(digits), want);
  // The countdown is to the end of the UTC day, and it runs.
  const left = await page.textContent('#countdown');
  assert.match(left, /^\d\d:\d\d:\d\d$/);
  const secs = (t) => t.split(':').reduce((a, b) => 60 * a + Number(b), 0);
  const wantLeft = (Date.parse(`${today.date}T00:00:00Z`) + 86400000 - Date.now()) / 1000;
  assert.ok(Math.abs(secs(left) - wantLeft) < 120, `countdown ${left} vs ${wantLeft} s`);
  await page.waitForFunction((before) => document.querySelector('#countdown').textContent !== before, left, { timeout: 5000 });
  await page.screenshot({ path: join(ARTIFACTS, 'boards-desktop.png'), fullPage: true });
  assertClean(seen);
  await close();
});

for (const game of ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption', 'driftlings']) {
  test(`${game}: the replay plays to the server's score and verifies`, { timeout: 120000 }, async () => {
    const run = data.runs[game];
    assert.ok(run, `a ${game} score was made`);
    const { page, seen, close } = await openReplay(run.score_id);
    await waitReady(page);
    // Half way, for the picture.
    const frames = Number(await page.getAttribute('#scrub', 'max'));
    assert.ok(frames >= 2, `${frames + 1} frames`);
    await page.$eval('#scrub', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input', { bubbles: true })); }, Math.floor(frames / 2));
    await page.screenshot({ path: join(ARTIFACTS, `replay-${game}-middle.png`), fullPage: true });
    // Back to the start, fast, and play with the keyboard to the end.
    await page.selectOption('#speed', '64');
    await page.focus('#canvas');
    await page.keyboard.press('Home');
    assert.equal(await page.getAttribute('#viewer', 'data-state'), 'paused');
    await page.keyboard.press('Space');
    await page.waitForSelector('#viewer[data-state="ended"]', { timeout: 60000 });
    const shown = digits(await page.textContent('#final-score'));
    assert.equal(shown, run.score, 'the final score shown is the server\'s');
    await page.screenshot({ path: join(ARTIFACTS, `replay-${game}.png`), fullPage: true });
    const v = await verifyAndRead(page);
    assert.equal(v.verdict, 'pass', JSON.stringify(v));
    assert.match(v.score, new RegExp(`computed ${run.score.toLocaleString('en-US')}`));
    assert.match(v.sig, /valid \(receipt v2, key 1\)/);
    const bytes = await bytesTransferred(seen.requests);
    console.log(`# replay of ${game}: ${seen.requests.length} requests, ${bytes} bytes transferred, ${frames + 1} frames`);
    assert.ok(bytes < 200 * 1024, `the replay page of ${game} is ${bytes} bytes`);
    // Only this game's modules were loaded.
    const modules = seen.requests.map((r) => new URL(r.url()).pathname).filter((p) => p.includes('/games/'));
    assert.ok(modules.length >= 2 && modules.every((p) => p.endsWith(`/${game}.js`) || p.endsWith(`/${game}.mjs`) || p.endsWith('/common.js')), modules.join(' '));
    assertClean(seen);
    await close();
  });
}

test('a tampered receipt, and a tampered score, fail verification plainly', { timeout: 90000 }, async () => {
  const run = data.runs.schulte;
  for (const tamper of ['receipt', 'score']) {
    const { page, seen, close } = await watchedPage(browser);
    await page.route(`**/v1/scores/${run.score_id}`, async (route) => {
      const res = await route.fetch();
      const audit = await res.json();
      if (tamper === 'receipt') {
        // One character of the signature changed.
        const last = audit.receipt.length - 5;
        audit.receipt = audit.receipt.slice(0, last) + (audit.receipt[last] === 'A' ? 'B' : 'A') + audit.receipt.slice(last + 1);
      } else {
        audit.score += 1;
      }
      await route.fulfill({ response: res, json: audit });
    });
    await page.goto(`${srv.base}/replay/${run.score_id}`);
    await waitReady(page);
    const v = await verifyAndRead(page);
    assert.equal(v.verdict, 'fail', JSON.stringify(v));
    assert.match(v.text, /Verification failed/);
    assert.match(v.sig, /^✗ the signature does not match/);
    if (tamper === 'score') assert.match(v.score, /^✗ computed/);
    else assert.match(v.score, /^✓/);
    assert.match(v.hash, /^✓/);
    if (tamper === 'receipt') await page.screenshot({ path: join(ARTIFACTS, 'verify-tampered.png'), fullPage: true });
    assertClean(seen);
    await close();
  }
});

test('a daily whose moves are still private shows why, with no replay', { timeout: 60000 }, async () => {
  const d = data.daily[0];
  const { page, seen, close } = await watchedPage(browser);
  const until = `${d.date}T23:59:59.999Z`;
  await page.route(`**/v1/scores/${d.score_id}`, async (route) => {
    const res = await route.fetch();
    const audit = await res.json();
    audit.moves = null;
    audit.moves_public = false;
    audit.moves_public_at = until;
    await route.fulfill({ response: res, json: audit });
  });
  await page.goto(`${srv.base}/replay/${d.score_id}`);
  await page.waitForSelector('#notice:not([hidden])', { timeout: WAIT });
  const notice = await page.textContent('#notice');
  const which = d.date === new Date().toISOString().slice(0, 10) ? 'today\'s daily' : `the daily of ${d.date}`;
  assert.ok(notice.startsWith(`The moves of ${which} stay private until`), notice);
  assert.ok(notice.includes(`${d.date} 23:59 UTC`), notice);
  assert.equal(await page.isVisible('#viewer'), false, 'no replay');
  assert.equal(await page.textContent('#btn-verify'), 'Check the signature');
  const v = await verifyAndRead(page);
  assert.equal(v.verdict, 'partial', JSON.stringify(v));
  assert.match(v.score, /not available until/);
  assert.match(v.sig, /^✓ valid/);
  await page.screenshot({ path: join(ARTIFACTS, 'replay-private-daily.png'), fullPage: true });
  assertClean(seen);
  await close();
});

test('a level board pages forwards and back, and shows the player\'s own rank', { timeout: 90000 }, async () => {
  const { game, level, total } = data.pageBoard;
  const api = (await call(srv, 'GET', `/v1/leaderboards/${game}/${level}?limit=200`)).json.entries;
  assert.equal(api.length, total);
  const { page, seen, close } = await watchedPage(browser);
  const me = data.runs.schulte.player;
  await page.goto(`${srv.base}/`);
  // The player the page marks as "you" is kept by id (public), never by token.
  await page.evaluate((id) => localStorage.setItem('replayd.player', String(id)), me.player_id);
  await page.goto(`${srv.base}/?game=${game}&level=${level}&limit=3`);
  const ranks = async () => {
    await page.waitForFunction(() => !document.querySelector('#entries tbody tr') || document.querySelector('#page-info').textContent, null, { timeout: WAIT });
    return page.$$eval('#entries tbody td.rank', (els) => els.map((e) => Number(e.textContent)));
  };
  const waitRanks = async (want) => {
    await page.waitForFunction((w) => [...document.querySelectorAll('#entries tbody td.rank')].map((e) => e.textContent).join(',') === w, want.join(','), { timeout: WAIT });
    assert.deepEqual(await ranks(), want);
  };
  // equal scores share a rank: the API's ranks, page by page
  const [r123, r456, r7] = [api.slice(0, 3), api.slice(3, 6), api.slice(6)].map((p) => p.map((e) => e.rank));
  await waitRanks(r123);
  assert.equal(await page.isDisabled('#page-prev'), true);
  await page.click('#page-next');
  await waitRanks(r456);
  await page.click('#page-next');
  await waitRanks(r7);
  assert.equal(await page.isDisabled('#page-next'), true);
  await page.click('#page-prev');
  await waitRanks(r456);
  await page.goBack();
  await waitRanks(r7);
  await page.click('#page-prev');
  await waitRanks(r456);
  await page.click('#page-prev');
  await waitRanks(r123);
  // The names on the pages are the API's, in order.
  await page.goto(`${srv.base}/?game=${game}&level=${level}&limit=200`);
  await waitRanks(api.map((e) => e.rank));
  assert.deepEqual(await page.$$eval('#entries tbody .name', (els) => els.map((e) => e.textContent)), api.map((e) => e.name));
  // The saved player's rank, and its row marked.
  const mine = api.find((e) => e.player_id === me.player_id);
  await page.waitForSelector('#me:not([hidden])', { timeout: WAIT });
  assert.match(await page.textContent('#me'), new RegExp(`#${me.player_id} is #${mine.rank} on this board with`));
  assert.equal(await page.$$eval('#entries tbody tr.mine .name', (els) => els.map((e) => e.textContent).join()), mine.name);
  // A board this player is not on says so.
  await page.goto(`${srv.base}/?game=pipes&level=1`);
  await page.waitForSelector('#me:not([hidden])', { timeout: WAIT });
  assert.match(await page.textContent('#me'), /has no score on this board yet/);
  assert.equal(await page.isVisible('#board-empty'), true);
  // A past daily by date, through the date picker.
  await page.goto(`${srv.base}/`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  await page.fill('#pick-date', '2026-11-30');
  await page.click('#form-daily button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('#board-title').textContent.startsWith('Daily 2026-11-30 ·'), null, { timeout: WAIT });
  assert.ok(page.url().endsWith('/?date=2026-11-30'), page.url());
  assert.equal(await page.isVisible('#board-empty'), true);
  // Not being on a board is a 404 of the player's entry, which the browser logs.
  assertClean(seen, /status of 404 .*\/players\/\d+\?around=0\)$/);
  await close();
});

test('a sealed daily not yet open shows its commitment and when it opens, not an undefined game', { timeout: 60000 }, async () => {
  const today = (await call(srv, 'GET', '/v1/daily')).json.date;
  const next = new Date(Date.parse(`${today}T00:00:00Z`) + 2 * 86400000).toISOString().slice(0, 10);
  const sealed = (await call(srv, 'GET', `/v1/daily?date=${next}`)).json;
  assert.equal(sealed.sealed, true, JSON.stringify(sealed));
  assert.equal(sealed.game, undefined, 'the game is not in a sealed answer');
  const { page, seen, close } = await watchedPage(browser);
  await page.goto(`${srv.base}/?date=${next}`);
  await page.waitForFunction((d) => document.querySelector('#board-title').textContent.startsWith(`Daily ${d} ·`), next, { timeout: WAIT });
  const title = await page.textContent('#board-title');
  assert.equal(title, `Daily ${next} · sealed`);
  assert.doesNotMatch(title, /undefined/);
  assert.equal(await page.isVisible('#board-note'), true);
  const note = await page.textContent('#board-note');
  assert.ok(note.includes(sealed.opens_at), note);
  assert.equal(await page.textContent('#board-note code.commitment'), sealed.commitment);
  assertClean(seen);
  await close();
});

test('a 375-pixel-wide viewport has no horizontal scrolling', { timeout: 120000 }, async () => {
  const phone = { width: 375, height: 740 };
  const paths = [['boards', '/'], ['board-level', `/?game=schulte&level=${data.pageBoard.level}`],
    ...data.games.map((g) => [`replay-${g}`, `/replay/${data.runs[g].score_id}`])];
  for (const [name, path] of paths) {
    const { page, seen, close } = await watchedPage(browser, phone);
    await page.goto(srv.base + path);
    if (path.startsWith('/replay/')) {
      await waitReady(page);
      await page.click('#btn-verify');
      await page.waitForFunction(() => document.querySelector('#verdict').dataset.verdict === 'pass', null, { timeout: WAIT });
    } else {
      await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
    }
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    assert.ok(scroll <= inner, `${name}: the page is ${scroll} px wide in a ${inner} px window`);
    await page.screenshot({ path: join(ARTIFACTS, `phone-${name}.png`), fullPage: true });
    assertClean(seen);
    await close();
  }
});

test('the keyboard: space plays and pauses, arrows step, focus is visible', { timeout: 60000 }, async () => {
  const { page, seen, close } = await openReplay(data.runs.pipes.score_id);
  await waitReady(page);
  const caption = () => page.textContent('#caption');
  assert.match(await caption(), /^Start/);
  await page.keyboard.press('Tab'); // the skip link, then on into the page
  for (let i = 0; i < 12; i++) {
    const id = await page.evaluate(() => document.activeElement.id);
    if (id === 'btn-play') break;
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement.id), 'btn-play', 'Tab reaches the play button');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused button shows its focus');
  await page.keyboard.press('ArrowRight');
  assert.match(await caption(), /^Move 1 of/);
  await page.keyboard.press('ArrowRight');
  assert.match(await caption(), /^Move 2 of/);
  await page.keyboard.press('ArrowLeft');
  assert.match(await caption(), /^Move 1 of/);
  // Space on the focused play button toggles once (not twice).
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#viewer', 'data-state'), 'playing');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#viewer', 'data-state'), 'paused');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('#viewer', 'data-state'), 'ended');
  await page.keyboard.press('Home');
  assert.match(await caption(), /^Start/);
  assertClean(seen);
  await close();
});

test('an unknown score id says so', { timeout: 30000 }, async () => {
  const { page, seen, close } = await openReplay('0123456789abcdef0123456789abcdef');
  await page.waitForSelector('#notice:not([hidden])', { timeout: WAIT });
  assert.match(await page.textContent('#notice'), /no score with this id/);
  // The 404 of the audit fetch is the only console error.
  assertClean(seen, /status of 404 .*\/v1\/scores\/0123456789abcdef0123456789abcdef\)$/);
  await close();
});
