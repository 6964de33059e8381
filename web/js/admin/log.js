// log: GET /v1/admin/log as a view, newest first (order=desc), filtered
// by the server by action and by operator (the actor exactly as logged:
// "<operator>@<address>"), a page of PAGE entries at a time by its cursor.
import { byId, el } from '../api.js';
import { admin, describeError } from './session.js';
import { when } from './words.js';

const PAGE = 200;
const state = { cursors: [''], page: 0, next: null };

function status(text) {
  const s = byId('log-status');
  s.textContent = text || '';
  s.hidden = !text;
}

function render(items) {
  byId('log-body').replaceChildren(...items.map((e) => el('tr', { 'data-action': e.action, 'data-id': e.id },
    el('td', {}, when(e.at_ms)), el('td', {}, e.actor), el('td', { class: 'action' }, e.action),
    el('td', {}, e.target), el('td', { class: 'reason' }, e.reason))));
  status(items.length ? '' : 'No entry matches.');
  byId('log-next').disabled = !state.next;
  byId('log-first').disabled = state.page === 0;
}

export async function loadLog() {
  const q = new URLSearchParams({ order: 'desc', limit: String(PAGE) });
  const action = byId('f-action').value, actor = byId('f-operator').value.trim();
  if (action) q.set('action', action);
  if (actor) q.set('actor', actor);
  const cursor = state.cursors[state.page];
  if (cursor) q.set('cursor', cursor);
  try {
    const page = await admin('GET', `/v1/admin/log?${q}`);
    state.next = page.next_cursor;
    render(page.items);
  } catch (e) {
    status(describeError(e));
    return;
  }
  byId('log').dataset.loaded = String(Date.now());
}

function refilter() {
  state.page = 0;
  state.cursors = [''];
  loadLog();
}

export function wireLog() {
  byId('f-action').addEventListener('change', refilter);
  let typing = 0;
  byId('f-operator').addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(refilter, 300); });
  byId('log-next').addEventListener('click', () => {
    if (!state.next) return;
    state.cursors[++state.page] = state.next;
    loadLog();
  });
  byId('log-first').addEventListener('click', () => { state.page = 0; loadLog(); });
}
