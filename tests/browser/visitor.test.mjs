// What a visitor sees (issue 23), in real headless Chromium against a real
// bin/replayd of its own: the home page on a server whose daily nobody has
// played yet, two players of one name told apart, "your rank" found by tag
// or name with no token, ISO dates in the date field (under a German
// locale too), what Contraption's and Driftlings' scores mean, Pipes' start
// frame and the focus ring's colour, and hostile names shown as text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, call, register, seed, solve, solveSchulte } from '../http/harness.mjs';
import { ARTIFACTS, WAIT, launch, watchedPage } from './browser.mjs';

let srv;
let browser;
const runs = {}; // game -> {player, score_id, score}
const anns = []; // two players named "ann" on Schulte level 3
const HOSTILE = ['<img src=x onerror="window.__pwned=1">', '"><script>window.__pwned=1</script>'];

async function submit(player, s, moves) {
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  if (r.status !== 200) throw new Error(`submit ${s.game}: ${r.status} ${r.text}`);
  return r.json;
}

async function playSchulte(player, level, gap) {
  const s = await seed(srv, player.token, { game: 'schulte', level });
  return submit(player, s, await solveSchulte(level, s.seed, gap, s.version));
}

before(async () => {
  // new_account_runs=0: the accounts here are minutes old (the hold: newaccount.test.mjs)
  srv = await startServer({ args: ['--set', 'plausibility_slack_ms=600000', '--set', 'new_account_runs=0'] });
  // Level boards only: nobody plays today's daily until the last test.
  for (const game of ['pipes', 'contraption', 'driftlings']) {
    const player = await register(srv, `${game} player`);
    const s = await seed(srv, player.token, { game, level: 3 });
    const r = await submit(player, s, await solve(game, 3, s.seed, s.version));
    runs[game] = { player, score_id: r.score_id, score: r.score };
  }
  // Schulte level 3 is the busiest board: two "ann"s, two hostile names, two more.
  const names = ['ann', 'ann', ...HOSTILE, 'bea', 'cy'];
  for (const [i, name] of names.entries()) {
    const p = await register(srv, name);
    const r = await playSchulte(p, 3, 300 + 40 * i);
    if (name === 'ann') anns.push({ ...p, score_id: r.score_id });
  }
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (srv) {
    await srv.stop();
    srv.cleanup();
  }
});

// Only this server, no page error, no CSP report; `expected` matches errors the test caused.
function assertClean(seen, expected = null) {
  const origin = new URL(srv.base).origin;
  for (const r of seen.requests) {
    assert.ok(r.url().startsWith('data:') || new URL(r.url()).origin === origin, `a request left the origin: ${r.url()}`);
    assert.equal(r.headers().authorization, undefined, `no credentials sent: ${r.url()}`);
  }
  const errors = expected ? seen.errors.filter((e) => !expected.test(e)) : seen.errors;
  assert.deepEqual(errors, [], 'the page logged no errors (CSP reports included)');
}

const rowsOf = (page) => page.$$eval('#entries tbody tr', (trs) => trs.map((tr) => ({
  rank: Number(tr.querySelector('td.rank').textContent),
  name: tr.querySelector('.name').textContent,
  tag: tr.querySelector('.tag').textContent,
  mine: tr.classList.contains('mine'),
})));

test('the home page opens on the busiest level board while nobody has played today\'s daily', { timeout: 90000 }, async () => {
  const listed = (await call(srv, 'GET', '/v1/leaderboards')).json.boards;
  assert.deepEqual(listed.map((b) => `${b.game}:${b.level}:${b.total}`),
    ['schulte:3:6', 'pipes:3:1', 'contraption:3:1', 'driftlings:3:1']);
  const { page, seen, close } = await watchedPage(browser);
  await page.goto(`${srv.base}/`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  assert.equal(await page.textContent('#board-title'), 'Schulte · level 3');
  assert.equal((await rowsOf(page)).length, 6);
  const note = await page.textContent('#board-note');
  assert.match(note, /^Nobody has played today's daily yet, so this is the level board with the most entries\./);
  // Every board with entries is a link, with its size.
  const links = await page.$$eval('#with-entries-list li', (lis) => lis.map((li) => li.textContent));
  assert.deepEqual(links.slice().sort(), ['Contraption · level 3 (1 entry)', 'Driftlings · level 3 (1 entry)',
    'Pipes · level 3 (1 entry)', 'Schulte · level 3 (6 entries)']);
  await page.screenshot({ path: join(ARTIFACTS, 'visitor-home-daily-unplayed.png'), fullPage: true });
  // The daily itself, one click away, says plainly that it is empty.
  await page.click('#board-note a');
  await page.waitForFunction(() => document.querySelector('#board-title').textContent.startsWith('Daily '), null, { timeout: WAIT });
  assert.equal(await page.isVisible('#board-empty'), true);
  assert.match(await page.textContent('#board-empty'), /^Nobody has played today's daily yet: the first verified run will be here\. The level boards with entries are listed above\.$/);
  assert.equal(await page.isVisible('#board-note'), false);
  // A board link in the list opens that board.
  await page.click('#with-entries-list a >> text=Pipes · level 3');
  await page.waitForFunction(() => document.querySelector('#board-title').textContent === 'Pipes · level 3', null, { timeout: WAIT });
  assert.ok(page.url().endsWith('/?game=pipes&level=3'), page.url());
  assertClean(seen);
  await close();
});

test('two players named "ann" are told apart by their tag, the same on every view', { timeout: 90000 }, async () => {
  const api = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  const { page, seen, close } = await watchedPage(browser);
  await page.goto(`${srv.base}/?game=schulte&level=3`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  const rows = await rowsOf(page);
  assert.deepEqual(rows.map((r) => r.tag), api.map((e) => `#${e.player_id}`), 'each row is tagged with its player id');
  const annRows = rows.filter((r) => r.name === 'ann');
  assert.equal(annRows.length, 2);
  assert.notEqual(annRows[0].tag, annRows[1].tag);
  assert.deepEqual(annRows.map((r) => r.tag).sort(), anns.map((a) => `#${a.player_id}`).sort());
  // The replay link's accessible name carries the tag as well.
  const label = await page.getAttribute(`#entries tbody tr:nth-child(${rows.indexOf(annRows[0]) + 1}) td.act a`, 'aria-label');
  assert.match(label, new RegExp(`, ann ${annRows[0].tag}$`));
  await page.screenshot({ path: join(ARTIFACTS, 'visitor-same-names.png'), fullPage: true });
  // The replay page names the run's player with the same tag.
  for (const a of anns) {
    await page.goto(`${srv.base}/replay/${a.score_id}`);
    await page.waitForFunction(() => document.querySelector('#title').textContent !== 'Replay', null, { timeout: WAIT });
    assert.equal(await page.textContent('#title'), `ann #${a.player_id}: Schulte, level 3`);
  }
  assertClean(seen);
  await close();
});

test('your rank: found by name or tag on the public board, no token asked for, kept or sent', { timeout: 90000 }, async () => {
  const { page, seen, close } = await watchedPage(browser);
  await page.goto(`${srv.base}/`);
  // A token an earlier version of the page saved is removed on load.
  await page.evaluate(() => localStorage.setItem('replayd.token', 'pt_secret'));
  await page.goto(`${srv.base}/?game=schulte&level=3`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  assert.equal(await page.evaluate(() => localStorage.getItem('replayd.token')), null, 'no token is kept');
  assert.equal(await page.$$eval('input[type="password"]', (els) => els.length), 0, 'no token field');
  // By name: both "ann"s are listed with their tags; the player picks one.
  await page.fill('#find-input', 'ANN');
  await page.click('#form-find button[type="submit"]');
  await page.waitForSelector('#find-matches:not([hidden]) li', { timeout: WAIT });
  const listed = await page.$$eval('#find-matches button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(listed.slice().sort(), anns.map((a) => `ann #${a.player_id}`).sort());
  assert.match(await page.textContent('#find-state'), /^2 players on this board have a name holding “ANN”\. Pick yours:$/);
  const second = anns[1];
  await page.click(`#find-matches button[data-player="${second.player_id}"]`);
  await page.waitForFunction((id) => document.querySelector('#me:not([hidden])') && document.querySelector('#me').textContent.startsWith(`ann #${id} is #`), second.player_id, { timeout: WAIT });
  const me = await call(srv, 'GET', `/v1/leaderboards/schulte/3/players/${second.player_id}?around=0`);
  assert.match(await page.textContent('#me'), new RegExp(`^ann #${second.player_id} is #${me.json.rank} on this board with ${me.json.player.score.toLocaleString('en-US')} points`));
  await page.waitForSelector('#entries tbody tr.mine', { timeout: WAIT });
  const marked = (await rowsOf(page)).filter((r) => r.mine);
  assert.deepEqual(marked.map((r) => r.tag), [`#${second.player_id}`], 'only that ann\'s row is marked');
  assert.equal(await page.evaluate(() => localStorage.getItem('replayd.player')), String(second.player_id));
  await page.screenshot({ path: join(ARTIFACTS, 'visitor-your-rank.png'), fullPage: true });
  // By tag, on another board: the mark follows the player.
  await page.fill('#find-input', `#${runs.pipes.player.player_id}`);
  await page.click('#form-find button[type="submit"]');
  await page.goto(`${srv.base}/?game=pipes&level=3`);
  await page.waitForSelector('#entries tbody tr.mine', { timeout: WAIT });
  assert.match(await page.textContent('#me'), new RegExp(`^pipes player #${runs.pipes.player.player_id} is #1 `));
  // A name nobody has, and forgetting.
  await page.fill('#find-input', 'nobody-at-all');
  await page.click('#form-find button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('#find-state').textContent.startsWith('No player'), null, { timeout: WAIT });
  assert.equal(await page.textContent('#find-state'), 'No player whose name holds “nobody-at-all” on this board.');
  await page.click('#find-forget');
  await page.waitForFunction(() => document.querySelector('#me').hidden && !document.querySelector('#entries tbody tr.mine'), null, { timeout: WAIT });
  assert.equal(await page.evaluate(() => localStorage.getItem('replayd.player')), null);
  // Every rank came from the public endpoint.
  const paths = seen.requests.map((r) => new URL(r.url()).pathname);
  assert.ok(paths.some((p) => /\/players\/\d+$/.test(p)), 'the public lookup was used');
  assert.ok(!paths.some((p) => p.endsWith('/me')), 'no /me call');
  // The pipes player is not on Schulte's board: that lookup's 404 is logged.
  assertClean(seen, new RegExp(`status of 404 .*/v1/leaderboards/schulte/3/players/${runs.pipes.player.player_id}\\?around=0\\)$`));
  await close();
});

test('dates are ISO YYYY-MM-DD: the date field is text, checked, whatever the browser\'s locale', { timeout: 90000 }, async () => {
  const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1100, height: 900 } });
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${srv.base}/?date=2026-11-30`);
  await page.waitForFunction(() => document.querySelector('#board-title').textContent.startsWith('Daily 2026-11-30'), null, { timeout: WAIT });
  assert.equal(await page.getAttribute('#pick-date', 'type'), 'text');
  assert.equal(await page.inputValue('#pick-date'), '2026-11-30');
  assert.equal(await page.getAttribute('#pick-date', 'placeholder'), 'YYYY-MM-DD');
  assert.match(await page.textContent('#date-hint'), /YYYY-MM-DD/);
  const today = (await call(srv, 'GET', '/v1/daily')).json.date;
  await page.click('#pick-today');
  await page.waitForFunction((d) => document.querySelector('#board-title').textContent.startsWith(`Daily ${d}`), today, { timeout: WAIT });
  assert.equal(await page.inputValue('#pick-date'), today);
  // Bad dates are refused with a message, and the page stays where it is.
  const url = page.url();
  for (const [typed, message] of [
    ['30.11.2026', /^“30\.11\.2026” is not a date written YYYY-MM-DD \(for example \d{4}-\d{2}-\d{2}\)\.$/],
    ['11/30/2026', /is not a date written YYYY-MM-DD/],
    ['2026-02-30', /is not a date written YYYY-MM-DD/],
    ['', /^Type a date as YYYY-MM-DD/],
    ['2999-01-01', new RegExp(`^There is no daily after today, ${today} \\(UTC\\)\\.$`)],
  ]) {
    await page.fill('#pick-date', typed);
    await page.click('#form-daily button[type="submit"]');
    await page.waitForSelector('#date-error:not([hidden])', { timeout: WAIT });
    assert.match(await page.textContent('#date-error'), message, typed);
    assert.equal(await page.getAttribute('#pick-date', 'aria-invalid'), 'true');
    assert.equal(page.url(), url, `${typed}: no navigation`);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'visitor-date-refused.png'), fullPage: true });
  await page.fill('#pick-date', '2026-11-29');
  await page.waitForSelector('#date-error', { state: 'hidden', timeout: WAIT });
  await page.click('#form-daily button[type="submit"]');
  await page.waitForFunction(() => document.querySelector('#board-title').textContent.startsWith('Daily 2026-11-29 ·'), null, { timeout: WAIT });
  assert.ok(page.url().endsWith('/?date=2026-11-29'), page.url());
  // Times shown are ISO too.
  await page.goto(`${srv.base}/?game=schulte&level=3`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  for (const w of await page.$$eval('#entries tbody .when', (els) => els.map((e) => e.textContent))) assert.match(w, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  assert.deepEqual(errors, []);
  await context.close();
});

// Records every text drawn on a canvas (the HUD included), for the page to read back.
const RECORD_CANVAS_TEXT = () => {
  window.__drawn = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    window.__drawn.push(String(text));
    return fill.call(this, text, ...rest);
  };
};

test('Contraption\'s and Driftlings\' scores are explained: a legend on the board, the sum on the replay', { timeout: 120000 }, async () => {
  const sums = {
    contraption: (r) => 100000 - 10000 * r.parts_used - r.arrival_tick,
    driftlings: (r) => 1000000 * r.saved - 1000 * r.skills_used - r.ticks,
  };
  for (const game of ['contraption', 'driftlings']) {
    const run = runs[game];
    const { page, seen, close } = await watchedPage(browser);
    await page.addInitScript(RECORD_CANVAS_TEXT);
    await page.goto(`${srv.base}/?game=${game}&level=3`);
    await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
    const legend = await page.textContent('#board-legend');
    assert.equal(await page.isVisible('#board-legend'), true);
    if (game === 'contraption') assert.match(legend, /^Score: 100,000, less 10,000 for each part placed, less the ticks the ball took to reach the goal/);
    else assert.match(legend, /^Score: 1,000,000 for each walker saved, less 1,000 for each skill given, less the ticks the run lasted/);
    // The legend's own example adds up.
    assert.match(legend, /For example [\d,]+ = /);
    const numbers = legend.slice(legend.indexOf('For example')).match(/[\d,]+/g).map((n) => Number(n.replace(/,/g, '')));
    const example = game === 'contraption' ? numbers[1] - numbers[2] * numbers[3] - numbers[4] : numbers[1] * numbers[2] - numbers[3] * numbers[4] - numbers[5];
    assert.equal(example, numbers[0], `the example of ${game} adds up`);
    await page.screenshot({ path: join(ARTIFACTS, `visitor-legend-${game}.png`), fullPage: true });
    // The replay: played to the end, its score is shown as the sum it is.
    await page.goto(`${srv.base}/replay/${run.score_id}`);
    await page.waitForSelector('#viewer:not([hidden])', { timeout: WAIT });
    await page.focus('#canvas');
    await page.keyboard.press('End');
    await page.waitForSelector('#viewer[data-state="ended"]', { timeout: WAIT });
    const audit = (await call(srv, 'GET', `/v1/scores/${run.score_id}`)).json;
    const sum = await page.textContent('#final-sum');
    const n = sum.match(/[\d,]+/g).map((x) => Number(x.replace(/,/g, '')));
    if (game === 'contraption') {
      assert.equal(sum, `= 100,000 − ${audit.result.parts_used} part${audit.result.parts_used === 1 ? '' : 's'} × 10,000 − ${audit.result.arrival_tick} ticks to the goal`);
      assert.equal(n[0] - n[1] * n[2] - n[3], audit.score);
    } else {
      assert.equal(sum, `= ${audit.result.saved} saved × 1,000,000 − ${audit.result.skills_used} skill${audit.result.skills_used === 1 ? '' : 's'} × 1,000 − ${audit.result.ticks} ticks`);
      assert.equal(n[0] * n[1] - n[2] * n[3] - n[4], audit.score);
    }
    assert.equal(sums[game](audit.result), audit.score, 'the server\'s result adds up the same way');
    assert.match(await page.textContent('#legend'), /^Score: /);
    if (game === 'driftlings') {
      // The heads-up line says saved of the crowd and how many are needed, not "saved 6/5".
      const drawn = await page.evaluate(() => window.__drawn);
      const huds = drawn.filter((t) => t.startsWith('Tick '));
      assert.ok(huds.length > 0, 'the HUD was drawn');
      for (const h of huds) assert.match(h, /^Tick \d+ · saved \d+ of \d+ \(\d+ needed\)$/, h);
      assert.equal(drawn.filter((t) => /saved \d+\/\d+/.test(t)).length, 0);
      const last = huds[huds.length - 1];
      assert.equal(last, `Tick ${audit.result.ticks} · saved ${audit.result.saved} of ${audit.result.crowd} (${audit.result.quota} needed)`);
    }
    await page.screenshot({ path: join(ARTIFACTS, `visitor-sum-${game}.png`), fullPage: true });
    assertClean(seen);
    await close();
  }
});

// The WCAG relative luminance and contrast ratio of "rgb(r, g, b)" colours.
function rgb(text) {
  const m = /rgba?\((\d+), (\d+), (\d+)/.exec(text);
  assert.ok(m, text);
  return m.slice(1, 4).map(Number);
}
function luminance([r, g, b]) {
  const lin = (c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
function hue([r, g, b]) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return null;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}
const hexRgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

test('Pipes\' start frame: loose ends are small light dots; the focus ring is not the orange of a slip', { timeout: 90000 }, async () => {
  const { page, seen, close } = await watchedPage(browser);
  await page.goto(`${srv.base}/replay/${runs.pipes.score_id}`);
  await page.waitForSelector('#viewer:not([hidden])', { timeout: WAIT });
  await page.focus('#canvas');
  await page.keyboard.press('Home');
  assert.match(await page.textContent('#caption'), /^Start/);
  await page.screenshot({ path: join(ARTIFACTS, 'visitor-pipes-start.png'), fullPage: true });
  // Pixels of the start frame: loose-end red against pipe grey and blue.
  const px = await page.evaluate(async () => {
    const { C } = await import('/assets/js/canvas.js');
    const c = document.querySelector('#canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const bad = [0, 1, 2].map((i) => parseInt(C.bad.slice(1 + 2 * i, 3 + 2 * i), 16));
    let red = 0; let errorRed = 0; let pipe = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
      if (r > g + 40 && r > b + 40) red++;
      if (Math.abs(r - bad[0]) + Math.abs(g - bad[1]) + Math.abs(b - bad[2]) < 30) errorRed++;
      else if ((Math.abs(r - 138) + Math.abs(g - 148) + Math.abs(b - 158) < 24) || (b > r + 80 && b > g + 30)) pipe++;
    }
    return { red, errorRed, pipe };
  });
  console.log(`# pipes start frame: ${px.red} loose-end pixels, ${px.pipe} pipe pixels (${(100 * px.red / px.pipe).toFixed(1)} %)`);
  assert.ok(px.pipe > 0 && px.red > 0, `loose ends are still shown: ${JSON.stringify(px)}`);
  assert.ok(px.red < 0.1 * px.pipe, `loose ends do not dominate the pipes: ${JSON.stringify(px)}`);
  assert.equal(px.errorRed, 0, 'no loose end is painted the full error red');
  // Focus: a ring of its own colour, visible (3:1 against the card), not orange.
  const slip = hexRgb(await page.evaluate(async () => (await import('/assets/js/canvas.js')).C.slip));
  for (const id of ['canvas', 'btn-play', 'scrub', 'speed']) {
    await page.focus(`#${id}`);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab'); // focus by keyboard, so :focus-visible applies
    const style = await page.evaluate(() => {
      const cs = getComputedStyle(document.activeElement);
      const card = getComputedStyle(document.activeElement.closest('.card'));
      return { id: document.activeElement.id, style: cs.outlineStyle, width: cs.outlineWidth, color: cs.outlineColor, card: card.backgroundColor };
    });
    assert.equal(style.id, id);
    assert.notEqual(style.style, 'none', `${id} shows its focus`);
    assert.ok(parseFloat(style.width) >= 2, `${id}: the ring is ${style.width} wide`);
    const ring = rgb(style.color);
    assert.ok(contrast(ring, rgb(style.card)) >= 3, `${id}: the ring ${style.color} has ${contrast(ring, rgb(style.card)).toFixed(2)}:1 against the card`);
    const gap = Math.abs(hue(ring) - hue(slip));
    assert.ok(Math.min(gap, 360 - gap) >= 90, `${id}: the ring ${style.color} is far in hue from the slip orange`);
  }
  // The move on show on the canvas is ringed in ink, not in the slip orange.
  const current = hexRgb(await page.evaluate(async () => (await import('/assets/js/canvas.js')).C.current));
  assert.notDeepEqual(current, slip);
  assertClean(seen);
  await close();
  // The dark scheme's ring, on the boards page's controls.
  const dark = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1100, height: 900 } });
  const dp = await dark.newPage();
  await dp.goto(`${srv.base}/?game=schulte&level=3`);
  await dp.waitForSelector('#entries tbody tr', { timeout: WAIT });
  await dp.focus('#pick-date');
  await dp.keyboard.press('Tab'); // the Show button, by keyboard
  const ds = await dp.evaluate(() => {
    const a = document.activeElement;
    return { what: a.outerHTML.slice(0, 40), style: getComputedStyle(a).outlineStyle, color: getComputedStyle(a).outlineColor, card: getComputedStyle(a.closest('.card')).backgroundColor };
  });
  assert.equal(ds.what, '<button type="submit">Show</button>');
  assert.notEqual(ds.style, 'none');
  assert.ok(contrast(rgb(ds.color), rgb(ds.card)) >= 3, `dark: the ring ${ds.color} against ${ds.card}`);
  const dg = Math.abs(hue(rgb(ds.color)) - hue(slip));
  assert.ok(Math.min(dg, 360 - dg) >= 90, `dark: the ring ${ds.color} is far in hue from the slip orange`);
  await dark.close();
});

test('hostile names are shown as text on the boards, the search and the replay, and never run', { timeout: 90000 }, async () => {
  const { page, seen, close } = await watchedPage(browser);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; d.dismiss(); });
  await page.goto(`${srv.base}/?game=schulte&level=3`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  const names = (await rowsOf(page)).map((r) => r.name);
  for (const h of HOSTILE) assert.ok(names.includes(h), `${h} shown as text`);
  assert.equal(await page.$$eval('#entries img, #entries script', (els) => els.length), 0);
  await page.fill('#find-input', '<img');
  await page.click('#form-find button[type="submit"]');
  await page.waitForSelector('#find-matches:not([hidden]) li', { timeout: WAIT });
  const found = await page.$$eval('#find-matches button', (bs) => bs.map((b) => b.textContent.replace(/ #\d+$/, '')));
  assert.deepEqual(found, [HOSTILE[0]]);
  assert.equal(await page.$$eval('#find-box img, #find-box script', (els) => els.length), 0);
  const api = (await call(srv, 'GET', '/v1/leaderboards/schulte/3?limit=200')).json.entries;
  for (const h of HOSTILE) {
    const e = api.find((x) => x.name === h);
    await page.goto(`${srv.base}/replay/${e.score_id}`);
    await page.waitForFunction(() => document.querySelector('#title').textContent !== 'Replay', null, { timeout: WAIT });
    assert.equal(await page.textContent('#title'), `${h} #${e.player_id}: Schulte, level 3`);
    assert.equal(await page.title(), `${h} #${e.player_id} · Schulte 3 · replayd`);
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(dialogs, 0);
  assertClean(seen);
  await close();
});

test('once today\'s daily has a score, the home page opens on it', { timeout: 60000 }, async () => {
  const player = await register(srv, 'daily player');
  const s = await seed(srv, player.token, { daily: true });
  await submit(player, s, await solve(s.game, s.level, s.seed, s.version));
  const { page, seen, close } = await watchedPage(browser);
  await page.goto(`${srv.base}/`);
  await page.waitForSelector('#entries tbody tr', { timeout: WAIT });
  assert.ok((await page.textContent('#board-title')).startsWith(`Daily ${s.date} ·`));
  assert.equal(await page.isVisible('#board-note'), false);
  assert.deepEqual((await rowsOf(page)).map((r) => r.name), ['daily player']);
  assertClean(seen);
  await close();
});
