// queue: GET /v1/admin/review as a table, most suspicious first (the
// server's order), paged by its cursor and filtered by the server (reason,
// game, date, and a board: "game/level" or a daily's date), with the
// keyboard: j/k next/previous, Enter open, a approve, v void.
import { byId, el, getJSON } from '../api.js';
import { admin, describeError } from './session.js';
import { openAction, dialogOpen } from './actions.js';
import { playerInfo } from './players.js';
import { REASONS, reasonWords, boardWords, playerWords, ageAtRun, when, int, featureLines, weightLines } from './words.js';

const PAGE = 50;
const state = { items: [], shown: [], cursors: [''], page: 0, next: null, current: 0, open: null };

function status(text) {
  const s = byId('queue-status');
  s.textContent = text || '';
  s.hidden = !text;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const BOARD = /^([a-z][a-z0-9-]*)\/(\d+)$/;
const EMPTY_PAGES = 10; // with a reason, a page may come back empty: follow the cursor this far

/** The filters as query parameters, or a string saying what is wrong. */
function filters() {
  const q = new URLSearchParams();
  const reason = byId('f-reason').value, game = byId('f-game').value;
  const date = byId('f-date').value.trim(), board = byId('f-board').value.trim();
  if (reason) q.set('reason', reason);
  if (game) q.set('game', game);
  if (date && !DATE.test(date)) return 'Type the date as YYYY-MM-DD.';
  if (date) q.set('date', date);
  if (board) {
    const m = BOARD.exec(board);
    if (DATE.test(board)) {
      if (date && date !== board) return 'The board\'s date and the date differ.';
      q.set('date', board);
    } else if (m) {
      if (game && game !== m[1]) return 'The board\'s game and the game differ.';
      if (date) return 'A level board has no date: clear one of them.';
      q.set('game', m[1]);
      q.set('level', m[2]);
    } else {
      return 'Type the board as game/level (schulte/4) or a daily\'s date.';
    }
  }
  return q;
}

function playerCell(item) {
  const facts = el('ul', {});
  const line = (text) => facts.append(el('li', {}, text));
  if (item.provider) line(`identity: ${item.provider}`); else line('guest (no identity)');
  if (item.banned) line('banned');
  for (const l of item.linked_accounts || []) line(`linked: ${playerWords(l.name, l.player_id)}`);
  const ageLi = el('li', { class: 'age' }, 'account age …');
  facts.append(ageLi);
  playerInfo(item.player_id).then((p) => { ageLi.textContent = `account age ${ageAtRun(p, item)}`; })
    .catch(() => { ageLi.textContent = 'account age unknown'; });
  return el('td', { class: 'who' }, el('span', { class: 'name' }, playerWords(item.name, item.player_id)), facts);
}

function row(item, i) {
  const weights = el('ul', { class: 'weights' });
  for (const [k, v] of weightLines(item.signals)) weights.append(el('li', {}, `${k}: ${v}`));
  const all = el('ul', {});
  for (const [k, v] of featureLines(item.signals, false)) all.append(el('li', {}, `${k}: ${v}`));
  const features = el('div', {}, weights, el('details', {}, el('summary', {}, 'all features'), all));
  const open = el('button', { type: 'button', class: 'quiet open' }, 'Open');
  open.addEventListener('click', () => openItem(i));
  const held = el('td', { class: 'held' }, reasonWords(item.held_reason));
  if (item.would_be_rank) held.append(el('div', { class: 'muted' }, `would be rank ${item.would_be_rank}`));
  if (item.twin) held.append(el('div', { class: 'muted' }, `twin of ${playerWords(item.twin.name, item.twin.player_id)}`));
  return el('tr', { 'data-score-id': item.score_id, 'data-index': i },
    el('td', { class: 'num suspicion' }, String(item.suspicion)),
    el('td', {}, boardWords(item), el('div', { class: 'muted' }, when(item.submitted_at_ms))),
    playerCell(item),
    el('td', { class: 'num' }, int(item.score)),
    held,
    el('td', {}, features),
    el('td', { class: 'act' }, open));
}

function render() {
  state.shown = state.items;
  const body = byId('queue-body');
  body.replaceChildren(...state.shown.map(row));
  if (state.current >= state.shown.length) state.current = Math.max(0, state.shown.length - 1);
  mark();
  byId('queue-next').disabled = !state.next;
  byId('queue-first').disabled = state.page === 0;
  const filtered = [...filters()].length > 0;
  status(state.shown.length ? '' : state.next ? 'No run matches in the rows read so far: Next page reads on.'
    : filtered ? 'No run matches the filters.' : 'Nothing waits for review.');
}

function mark() {
  [...byId('queue-body').children].forEach((tr, i) => tr.classList.toggle('current', i === state.current));
}

export async function loadQueue(cursor = state.cursors[state.page]) {
  const q = filters();
  if (typeof q === 'string') {
    state.items = [];
    state.next = null;
    body().replaceChildren();
    status(q);
    byId('queue').dataset.loaded = String(Date.now());
    return;
  }
  q.set('limit', String(PAGE));
  let page;
  for (let i = 0; i < EMPTY_PAGES; i++) {
    if (cursor) q.set('cursor', cursor);
    page = await admin('GET', `/v1/admin/review?${q}`);
    if (page.items.length || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  state.items = page.items;
  state.next = page.next_cursor;
  render();
  byId('queue').dataset.loaded = String(Date.now());
}

const body = () => byId('queue-body');

/** A filter changed: the first page of what it selects. */
function refilter() {
  state.page = 0;
  state.cursors = [''];
  state.current = 0;
  reloadQueue();
}

export function reloadQueue() {
  return loadQueue().catch((e) => status(describeError(e)));
}

function openItem(i) {
  state.current = i;
  mark();
  if (state.open) state.open(state.shown[i]);
}

function act(kind) {
  const item = state.shown[state.current];
  if (item) openAction(kind, item, () => reloadQueue());
}

function onKey(ev) {
  if (byId('queue').hidden || dialogOpen() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target.tagName)) return;
  if (ev.key === 'Enter' && ev.target.tagName === 'BUTTON') return; // the button's own click
  const n = state.shown.length;
  if (ev.key === 'j' && n) { state.current = Math.min(n - 1, state.current + 1); mark(); }
  else if (ev.key === 'k' && n) { state.current = Math.max(0, state.current - 1); mark(); }
  else if (ev.key === 'Enter' && n) openItem(state.current);
  else if (ev.key === 'a') act('approve');
  else if (ev.key === 'v') act('void');
  else return;
  ev.preventDefault();
}

/** onOpen(item) shows a run. */
export async function wireQueue(onOpen) {
  state.open = onOpen;
  for (const [word] of Object.entries(REASONS)) byId('f-reason').append(el('option', { value: word }, word));
  for (const id of ['f-reason', 'f-game']) byId(id).addEventListener('change', refilter);
  let typing = 0; // a query once the typing stops, not one a key
  for (const id of ['f-date', 'f-board']) {
    byId(id).addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(refilter, 300); });
  }
  byId('queue-next').addEventListener('click', () => {
    if (!state.next) return;
    state.cursors[++state.page] = state.next;
    state.current = 0;
    reloadQueue();
  });
  byId('queue-first').addEventListener('click', () => { state.page = 0; state.current = 0; reloadQueue(); });
  document.addEventListener('keydown', onKey);
  try {
    const games = await getJSON('/v1/games');
    for (const g of games.games) byId('f-game').append(el('option', { value: g.name }, g.name));
  } catch { /* the game filter stays "any" */ }
}
