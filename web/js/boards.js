// boards: the leaderboards page (GET /). Today's daily with its countdown,
// any daily by date, each game's level boards, cursor paging, and the
// player's own rank when a token is saved (api.js TOKEN_KEY).
//
// The page's state lives in its query string, so every board and page has
// a link: ?date=YYYY-MM-DD | ?game=NAME&level=N, plus &cursor=... and
// &limit=N (1..200, default 20).
import {
  ApiError, byId, el, formatInt, formatSpan, formatWhen, gameTitle, getJSON, isDate,
  savedToken, saveToken,
} from './api.js';

const PAGE_DEFAULT = 20;
const PAGE_MAX = 200;

let today = null; // GET /v1/daily
let games = []; // GET /v1/games: [{name, levels}]
let shown = 0; // the number of the newest board request; older answers are dropped

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
  if (today) byId('pick-date').max = today.date;
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
}

// ---- the board ----------------------------------------------------------------

function entryRow(e, mine) {
  const tr = el('tr', { class: mine ? 'mine' : null },
    el('td', { class: 'rank' }, String(e.rank)),
    el('td', { class: 'who' },
      el('span', { class: 'name', title: e.name }, e.name),
      mine ? el('span', { class: 'you' }, ' (you)') : null,
      el('span', { class: 'when' }, formatWhen(e.submitted_at))),
    el('td', { class: 'num' }, formatInt(e.score)),
    el('td', { class: 'act' }, el('a', { href: `/replay/${e.score_id}`, 'aria-label': `Watch the replay of rank ${e.rank}, ${e.name}` }, 'Watch')));
  return tr;
}

async function loadMe(s, token) {
  try {
    return { me: await getJSON(`${boardPath(s)}/me?around=0`, { token }) };
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 401)) return { error: e };
    throw e;
  }
}

function renderMe(s, mine) {
  const p = byId('me');
  if (!mine) {
    p.hidden = true;
    return;
  }
  p.hidden = false;
  if (mine.error) {
    p.textContent = mine.error.status === 401
      ? 'The player token saved in this browser is not accepted by this server.'
      : 'You are not on this board yet.';
    return;
  }
  const m = mine.me.me;
  p.replaceChildren('You are ', el('strong', {}, `#${m.rank}`), ` with ${formatInt(m.score)} points · `,
    el('a', { href: `/replay/${m.score_id}` }, 'watch your run'));
}

async function boardTitle(s) {
  if (s.kind === 'level') return `${gameTitle(s.game)} · level ${s.level}`;
  if (today && s.date === today.date) return `Daily ${s.date} · ${gameTitle(today.game)}, level ${today.level}`;
  try {
    const d = await getJSON(`/v1/daily?date=${s.date}`);
    return `Daily ${s.date} · ${gameTitle(d.game)}, level ${d.level}`;
  } catch {
    return `Daily ${s.date}`;
  }
}

async function showBoard(s) {
  const mine = ++shown;
  if (s.kind === 'daily' && !s.date) {
    if (!today) {
      renderBoardError('There is no daily challenge today.');
      return;
    }
    s = { ...s, date: today.date };
  }
  fillPickers(s);
  const q = new URLSearchParams({ limit: String(s.limit) });
  if (s.cursor) q.set('cursor', s.cursor);
  const token = savedToken();
  let page;
  let me = null;
  let title;
  try {
    [page, me, title] = await Promise.all([
      getJSON(`${boardPath(s)}?${q}`),
      token ? loadMe(s, token) : null,
      boardTitle(s),
    ]);
  } catch (e) {
    if (mine === shown) renderBoardError(e.message || String(e));
    return;
  }
  if (mine !== shown) return;
  byId('board-error').hidden = true;
  byId('board-title').textContent = title;
  byId('board-sub').textContent = `${formatInt(page.total ?? page.entries.length)} ${page.total === 1 ? 'entry' : 'entries'}` +
    (s.kind === 'daily' ? ' · one run per player' : ' · each player\'s best');
  renderMe(s, me);
  const myId = me && me.me ? me.me.me.player_id : null;
  const body = byId('entries').tBodies[0];
  body.replaceChildren(...page.entries.map((e) => entryRow(e, e.player_id === myId)));
  byId('entries').hidden = page.entries.length === 0;
  byId('board-empty').hidden = page.entries.length !== 0;
  const first = page.entries[0];
  const last = page.entries[page.entries.length - 1];
  byId('page-info').textContent = first ? `Ranks ${first.rank}–${last.rank}` : '';
  setPager('page-prev', page.prev_cursor, s);
  setPager('page-next', page.next_cursor, s);
  document.title = `${title} · replayd`;
  performance.mark('replayd:board-rendered');
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
}

// ---- the saved token ------------------------------------------------------------

function renderTokenState() {
  byId('token-state').textContent = savedToken()
    ? 'A player token is saved in this browser.'
    : 'No player token is saved in this browser.';
}

// ---- wiring ---------------------------------------------------------------------

function wire() {
  byId('form-daily').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const date = byId('pick-date').value;
    if (isDate(date)) go({ kind: 'daily', date, limit: stateFromURL().limit });
  });
  byId('pick-today').addEventListener('click', () => go({ kind: 'daily', date: null, limit: stateFromURL().limit }));
  byId('pick-game').addEventListener('change', () => fillLevels(byId('pick-game').value, 1));
  byId('form-level').addEventListener('submit', (ev) => {
    ev.preventDefault();
    go({ kind: 'level', game: byId('pick-game').value, level: Number(byId('pick-level').value), limit: stateFromURL().limit });
  });
  byId('form-token').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const t = byId('token-input').value.trim();
    if (!t) return;
    saveToken(t);
    byId('token-input').value = '';
    renderTokenState();
    showBoard(stateFromURL());
  });
  byId('token-forget').addEventListener('click', () => {
    saveToken(null);
    renderTokenState();
    showBoard(stateFromURL());
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
  wire();
  renderTokenState();
  const [, gameList] = await Promise.all([
    loadToday().catch((e) => { byId('daily-info').textContent = `The daily could not be loaded: ${e.message}`; }),
    getJSON('/v1/games').catch(() => ({ games: [] })),
  ]);
  games = gameList.games.map((g) => ({ name: g.name, levels: g.levels }));
  await showBoard(stateFromURL());
}

main();
