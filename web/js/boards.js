// boards: the leaderboards page (GET /). Today's daily with its countdown,
// any daily by date (typed as YYYY-MM-DD), each game's level boards, the
// level boards that have entries, cursor paging, a legend of what each
// game's score means, and "your rank": a player found by tag (the player id)
// or name on the public board, remembered by id (api.js PLAYER_KEY). The
// page holds no secret: no token is asked for, sent or kept.
//
// The page's state lives in its query string, so every board and page has
// a link: ?date=YYYY-MM-DD | ?game=NAME&level=N, plus &cursor=... and
// &limit=N (1..200, default 20). With neither date nor game (the home
// page) it shows today's daily, or, while nobody has played it yet, the
// level board with the most entries (docs/WEB.md).
import {
  ApiError, byId, el, forgetOldToken, formatInt, formatSpan, formatWhen, gameTitle, getJSON, isDate,
  playerTag, savedPlayer, savePlayer,
} from './api.js';
import { legendOf } from './scoring.js';

const PAGE_DEFAULT = 20;
const PAGE_MAX = 200;
const FIND_PAGES = 5; // a name search reads at most this many pages of PAGE_MAX entries
const FIND_SHOWN = 20; // and lists at most this many matches
const WITH_ENTRIES_SHOWN = 12;

let today = null; // GET /v1/daily
let games = []; // GET /v1/games: [{name, levels}]
let withEntries = []; // GET /v1/leaderboards: [{game, level, total}]
let shown = 0; // the number of the newest board request; older answers are dropped
let current = null; // the board on show: {s}, its date or game and level resolved

function stateFromURL() {
  const q = new URLSearchParams(location.search);
  const limitText = q.get('limit');
  let limit = PAGE_DEFAULT;
  if (limitText !== null && /^\d{1,3}$/.test(limitText)) limit = Math.min(PAGE_MAX, Math.max(1, Number(limitText)));
  const cursor = q.get('cursor') || null;
  if (q.has('game')) {
    const level = Number(q.get('level'));
    return { kind: 'level', game: q.get('game'), level: Number.isInteger(level) && level > 0 ? level : 1, cursor, limit };
  }
  const date = q.get('date');
  return { kind: 'daily', date: isDate(date) ? date : null, cursor, limit };
}

function urlOf(s) {
  const q = new URLSearchParams();
  if (s.kind === 'level') {
    q.set('game', s.game);
    q.set('level', String(s.level));
  } else if (s.date) {
    q.set('date', s.date);
  }
  if (s.cursor) q.set('cursor', s.cursor);
  if (s.limit !== PAGE_DEFAULT) q.set('limit', String(s.limit));
  const text = q.toString();
  return text ? `/?${text}` : '/';
}

function go(s) {
  history.pushState(null, '', urlOf(s));
  return showBoard(s);
}

function boardPath(s) {
  if (s.kind === 'level') return `/v1/leaderboards/${encodeURIComponent(s.game)}/${s.level}`;
  return `/v1/leaderboards/daily/${s.date}`;
}

const boardName = (b) => `${gameTitle(b.game)} · level ${b.level}`;

// ---- today's daily and its countdown ----------------------------------------

let countdownTimer = 0;

function renderToday() {
  const info = byId('daily-info');
  const clock = byId('countdown');
  if (!today) {
    info.textContent = 'No daily challenge today.';
    clock.textContent = '--:--:--';
    return;
  }
  info.replaceChildren(
    el('strong', {}, gameTitle(today.game)), `, level ${today.level} · ${today.date} · `,
    el('a', { href: urlOf({ kind: 'daily', date: today.date, limit: PAGE_DEFAULT }), 'data-nav': '' }, 'see the board'),
  );
  clock.setAttribute('datetime', today.resets_at);
  clearInterval(countdownTimer);
  const tick = () => {
    const left = Date.parse(today.resets_at) - Date.now();
    clock.textContent = formatSpan(left);
    if (left <= 0) {
      clearInterval(countdownTimer);
      // The day turned: fetch the new daily (a few seconds later, once).
      setTimeout(() => loadToday().then(() => { if (!stateFromURL().date) showBoard(stateFromURL()); }), 3000);
    }
  };
  tick();
  countdownTimer = setInterval(tick, 1000);
}

async function loadToday() {
  try {
    today = await getJSON('/v1/daily');
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    today = null;
  }
  renderToday();
}

// ---- pickers ------------------------------------------------------------------

function fillLevels(game, selected) {
  const sel = byId('pick-level');
  const g = games.find((x) => x.name === game);
  const n = g ? g.levels : 0;
  sel.replaceChildren();
  for (let i = 1; i <= n; i++) sel.append(el('option', { value: i, selected: i === selected }, `Level ${i}`));
}

function fillPickers(s) {
  const gameSel = byId('pick-game');
  gameSel.replaceChildren();
  for (const g of games) gameSel.append(el('option', { value: g.name, selected: s.kind === 'level' && s.game === g.name }, gameTitle(g.name)));
  const game = s.kind === 'level' ? s.game : (games[0] && games[0].name);
  fillLevels(game, s.kind === 'level' ? s.level : 1);
  byId('pick-date').value = s.kind === 'daily' ? (s.date || (today && today.date) || '') : '';
  showDateError(null);
}

function showDateError(message) {
  const p = byId('date-error');
  p.hidden = !message;
  p.textContent = message || '';
  if (message) byId('pick-date').setAttribute('aria-invalid', 'true');
  else byId('pick-date').removeAttribute('aria-invalid');
}

/** The date typed, checked: {date} or {error}. */
function readDate() {
  const text = byId('pick-date').value.trim();
  const example = today ? today.date : '2026-12-03';
  if (!isDate(text)) {
    return { error: text ? `“${text}” is not a date written YYYY-MM-DD (for example ${example}).` : `Type a date as YYYY-MM-DD (for example ${example}).` };
  }
  if (today && text > today.date) return { error: `There is no daily after today, ${today.date} (UTC).` };
  return { date: text };
}

function renderWithEntries() {
  const nav = byId('with-entries');
  const top = withEntries.slice().sort((a, b) => b.total - a.total).slice(0, WITH_ENTRIES_SHOWN);
  nav.hidden = top.length === 0;
  byId('with-entries-list').replaceChildren(...top.map((b) => el('li', {},
    el('a', { href: urlOf({ kind: 'level', game: b.game, level: b.level, limit: PAGE_DEFAULT }), 'data-nav': '' }, boardName(b)),
    ` (${formatInt(b.total)} ${b.total === 1 ? 'entry' : 'entries'})`)));
}

// ---- the board ----------------------------------------------------------------

function entryRow(e, mine) {
  const who = `${e.name} ${playerTag(e.player_id)}`;
  return el('tr', { class: mine ? 'mine' : null },
    el('td', { class: 'rank' }, String(e.rank)),
    el('td', { class: 'who' },
      el('span', { class: 'line' },
        el('span', { class: 'name', title: e.name }, e.name),
        el('span', { class: 'tag', title: `player id ${e.player_id}` }, playerTag(e.player_id)),
        mine ? el('span', { class: 'you' }, '(you)') : null),
      el('span', { class: 'when' }, formatWhen(e.submitted_at))),
    el('td', { class: 'num' }, formatInt(e.score)),
    el('td', { class: 'act' }, el('a', { href: `/replay/${e.score_id}`, 'aria-label': `Watch the replay of rank ${e.rank}, ${who}` }, 'Watch')));
}

// The saved player's entry on board s, public (no token): {entry} or {missing}.
async function loadPlayer(s, id) {
  try {
    return { entry: (await getJSON(`${boardPath(s)}/players/${id}?around=0`)).player };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && e.code === 'not_on_board') return { missing: true };
    throw e;
  }
}

function renderMe(id, mine) {
  const p = byId('me');
  if (!mine) {
    p.hidden = true;
    return;
  }
  p.hidden = false;
  if (mine.missing) {
    p.textContent = `Player ${playerTag(id)} has no score on this board yet.`;
    return;
  }
  const m = mine.entry;
  p.replaceChildren(`${m.name} ${playerTag(m.player_id)} is `, el('strong', {}, `#${m.rank}`), ` on this board with ${formatInt(m.score)} points · `,
    el('a', { href: `/replay/${m.score_id}` }, 'watch the run'));
}

// The board's title, and the game its scores are of (a daily's is the day's).
// A sealed daily not yet open (daily_seeds = sealed) has no game to name:
// its commitment and when it opens instead.
async function boardInfo(s) {
  if (s.kind === 'level') return { title: boardName(s), game: s.game };
  let d = today && s.date === today.date ? today : null;
  try {
    d = d || await getJSON(`/v1/daily?date=${s.date}`);
  } catch {
    return { title: `Daily ${s.date}`, game: null };
  }
  if (d.sealed && !d.game) return { title: `Daily ${s.date} · sealed`, game: null, sealed: d };
  return { title: `Daily ${s.date} · ${gameTitle(d.game)}, level ${d.level}`, game: d.game };
}

function query(s) {
  const q = new URLSearchParams({ limit: String(s.limit) });
  if (s.cursor) q.set('cursor', s.cursor);
  return q;
}

async function showBoard(s) {
  const mine = ++shown;
  let note = null;
  let page = null;
  if (s.kind === 'daily' && !s.date) {
    if (!today) {
      renderBoardError('There is no daily challenge today.');
      return;
    }
    const home = !s.cursor;
    s = { ...s, date: today.date };
    // The home page: today's daily, unless nobody has played it yet and a
    // level board has entries; then the busiest level board, saying why.
    if (home && withEntries.length) {
      try {
        page = await getJSON(`${boardPath(s)}?${query(s)}`);
      } catch (e) {
        if (mine === shown) renderBoardError(e.message || String(e));
        return;
      }
      if (mine !== shown) return;
      if (page.entries.length === 0) {
        const busiest = withEntries.reduce((a, b) => (b.total > a.total ? b : a));
        note = { daily: s.date };
        s = { kind: 'level', game: busiest.game, level: busiest.level, cursor: null, limit: s.limit };
        page = null;
      }
    }
  }
  fillPickers(s);
  const player = savedPlayer();
  let me = null;
  let info;
  try {
    [page, me, info] = await Promise.all([
      page || getJSON(`${boardPath(s)}?${query(s)}`),
      player ? loadPlayer(s, player) : null,
      boardInfo(s),
    ]);
  } catch (e) {
    if (mine === shown) renderBoardError(e.message || String(e));
    return;
  }
  if (mine !== shown) return;
  const { title, game } = info;
  current = { s };
  byId('board-error').hidden = true;
  byId('board-title').textContent = title;
  byId('board-sub').textContent = `${formatInt(page.total ?? page.entries.length)} ${page.total === 1 ? 'entry' : 'entries'}` +
    (s.kind === 'daily' ? ' · one run per player' : ' · each player\'s best');
  renderNote(note, info.sealed);
  const legend = byId('board-legend');
  legend.textContent = legendOf(game) || '';
  legend.hidden = !legend.textContent;
  renderMe(player, me);
  const myId = me && me.entry ? me.entry.player_id : null;
  const body = byId('entries').tBodies[0];
  body.replaceChildren(...page.entries.map((e) => entryRow(e, e.player_id === myId)));
  byId('entries').hidden = page.entries.length === 0;
  renderEmpty(s, page.entries.length === 0);
  const first = page.entries[0];
  const last = page.entries[page.entries.length - 1];
  byId('page-info').textContent = first ? `Ranks ${first.rank}–${last.rank}` : '';
  setPager('page-prev', page.prev_cursor, s);
  setPager('page-next', page.next_cursor, s);
  document.title = `${title} · replayd`;
  performance.mark('replayd:board-rendered');
}

function renderNote(note, sealed) {
  const p = byId('board-note');
  p.hidden = !note && !sealed;
  if (sealed) {
    p.replaceChildren(`This daily is sealed until ${sealed.opens_at}: its seed is published then, with the reveal that checks it against this commitment: `,
      el('code', { class: 'commitment' }, sealed.commitment), '.');
    return;
  }
  if (!note) return;
  p.replaceChildren('Nobody has played today\'s daily yet, so this is the level board with the most entries. ',
    el('a', { href: urlOf({ kind: 'daily', date: note.daily, limit: PAGE_DEFAULT }), 'data-nav': '' }, 'Today\'s daily board'), '.');
}

function renderEmpty(s, empty) {
  const p = byId('board-empty');
  p.hidden = !empty;
  if (!empty) return;
  const daily = s.kind === 'daily';
  const what = daily && today && s.date === today.date ? 'Nobody has played today\'s daily yet: the first verified run will be here.'
    : 'No scores on this board yet.';
  p.replaceChildren(what, withEntries.length ? ' The level boards with entries are listed above.' : '');
}

function setPager(id, cursor, s) {
  const b = byId(id);
  b.disabled = !cursor;
  b.onclick = cursor ? () => go({ ...s, cursor }) : null;
}

function renderBoardError(message) {
  const p = byId('board-error');
  p.hidden = false;
  p.textContent = `The board could not be loaded: ${message}`;
  byId('entries').tBodies[0].replaceChildren();
  byId('board-empty').hidden = true;
  byId('board-note').hidden = true;
}

// ---- your rank: find a player by tag or name ------------------------------------

function renderFindState() {
  const id = savedPlayer();
  byId('find-state').textContent = id
    ? `Marked as you: player ${playerTag(id)}.`
    : 'No player is marked as you in this browser.';
}

function choosePlayer(id) {
  savePlayer(id);
  byId('find-matches').hidden = true;
  byId('find-matches').replaceChildren();
  renderFindState();
  if (current) showBoard(current.s);
}

// Every entry of the board shown whose name holds the text (case and
// accents as typed, compared in NFC lower case), from its top, bounded.
async function findByName(s, text) {
  const want = text.normalize('NFC').toLowerCase();
  const found = [];
  let cursor = null;
  let read = 0;
  for (let i = 0; i < FIND_PAGES; i++) {
    const q = new URLSearchParams({ limit: String(PAGE_MAX) });
    if (cursor) q.set('cursor', cursor);
    const page = await getJSON(`${boardPath(s)}?${q}`);
    read += page.entries.length;
    for (const e of page.entries) if (e.name.normalize('NFC').toLowerCase().includes(want)) found.push(e);
    cursor = page.next_cursor;
    if (!cursor) return { found, read, all: true };
  }
  return { found, read, all: false };
}

async function find(text) {
  const list = byId('find-matches');
  const state = byId('find-state');
  list.hidden = true;
  list.replaceChildren();
  const tag = /^#?\s*([1-9][0-9]{0,15})$/.exec(text);
  if (tag) {
    choosePlayer(tag[1]);
    return;
  }
  if (!current) return;
  const { s } = current;
  state.textContent = 'Searching…';
  let r;
  try {
    r = await findByName(s, text);
  } catch (e) {
    state.textContent = `The board could not be searched: ${e.message}`;
    return;
  }
  const scope = r.all ? 'on this board' : `in the top ${formatInt(r.read)} of this board`;
  if (r.found.length === 0) {
    state.textContent = `No player whose name holds “${text}” ${scope}.`;
    return;
  }
  state.textContent = `${r.found.length === 1 ? 'One player' : `${formatInt(r.found.length)} players`} ${scope} ${r.found.length === 1 ? 'has' : 'have'} a name holding “${text}”${r.found.length > FIND_SHOWN ? ` (the first ${FIND_SHOWN} are listed)` : ''}. Pick yours:`;
  list.replaceChildren(...r.found.slice(0, FIND_SHOWN).map((e) => el('li', {},
    el('button', { type: 'button', class: 'quiet', 'data-player': e.player_id }, `${e.name} ${playerTag(e.player_id)}`),
    ` rank ${e.rank}, ${formatInt(e.score)} points`)));
  list.hidden = false;
}

// ---- wiring ---------------------------------------------------------------------

function wire() {
  byId('form-daily').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const r = readDate();
    showDateError(r.error || null);
    if (r.date) go({ kind: 'daily', date: r.date, limit: stateFromURL().limit });
  });
  byId('pick-date').addEventListener('input', () => { if (!byId('date-error').hidden && !readDate().error) showDateError(null); });
  byId('pick-today').addEventListener('click', () => go({ kind: 'daily', date: today ? today.date : null, limit: stateFromURL().limit }));
  byId('pick-game').addEventListener('change', () => fillLevels(byId('pick-game').value, 1));
  byId('form-level').addEventListener('submit', (ev) => {
    ev.preventDefault();
    go({ kind: 'level', game: byId('pick-game').value, level: Number(byId('pick-level').value), limit: stateFromURL().limit });
  });
  byId('form-find').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = byId('find-input').value.trim();
    if (text) find(text);
  });
  byId('find-matches').addEventListener('click', (ev) => {
    const b = ev.target.closest && ev.target.closest('button[data-player]');
    if (b) choosePlayer(b.dataset.player);
  });
  byId('find-forget').addEventListener('click', () => {
    byId('find-input').value = '';
    choosePlayer(null);
  });
  // In-page links to boards navigate without a reload.
  document.addEventListener('click', (ev) => {
    const a = ev.target.closest && ev.target.closest('a[data-nav]');
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    history.pushState(null, '', a.getAttribute('href'));
    showBoard(stateFromURL());
  });
  window.addEventListener('popstate', () => showBoard(stateFromURL()));
}

async function main() {
  forgetOldToken();
  wire();
  renderFindState();
  const [, gameList, boards] = await Promise.all([
    loadToday().catch((e) => { byId('daily-info').textContent = `The daily could not be loaded: ${e.message}`; }),
    getJSON('/v1/games').catch(() => ({ games: [] })),
    getJSON('/v1/leaderboards').catch(() => ({ boards: [] })),
  ]);
  games = gameList.games.map((g) => ({ name: g.name, levels: g.levels }));
  withEntries = boards.boards;
  renderWithEntries();
  await showBoard(stateFromURL());
}

main();
