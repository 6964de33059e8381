// log: GET /v1/admin/log as a view, newest first. The API reads it oldest
// first by cursor, so the view follows the cursor to the end (at most
// MAX_PAGES pages) and shows the entries reversed, filtered by action and
// by operator (the actor: "<operator>@<address>") over what was read.
import { byId, el } from '../api.js';
import { admin, describeError } from './session.js';
import { when } from './words.js';

const MAX_PAGES = 20;
let entries = [];

function render() {
  const action = byId('f-action').value, op = byId('f-operator').value.trim().toLowerCase();
  const shown = entries.filter((e) => (!action || e.action === action) && (!op || e.actor.toLowerCase().includes(op)));
  byId('log-body').replaceChildren(...shown.map((e) => el('tr', { 'data-action': e.action, 'data-id': e.id },
    el('td', {}, when(e.at_ms)), el('td', {}, e.actor), el('td', { class: 'action' }, e.action),
    el('td', {}, e.target), el('td', { class: 'reason' }, e.reason))));
  const s = byId('log-status');
  s.textContent = shown.length ? '' : 'No entry matches.';
  s.hidden = shown.length > 0;
}

export async function loadLog() {
  const all = [];
  let cursor = '';
  let truncated = false;
  try {
    for (let i = 0; ; i++) {
      if (i === MAX_PAGES) { truncated = true; break; }
      const q = new URLSearchParams({ limit: '200' });
      if (cursor) q.set('cursor', cursor);
      const page = await admin('GET', `/v1/admin/log?${q}`);
      all.push(...page.items);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
  } catch (e) {
    const s = byId('log-status');
    s.textContent = describeError(e);
    s.hidden = false;
    return;
  }
  entries = all.reverse();
  render();
  if (truncated) {
    const s = byId('log-status');
    s.textContent = `Only the first ${MAX_PAGES * 200} entries were read.`;
    s.hidden = false;
  }
  byId('log').dataset.loaded = String(Date.now());
}

export function wireLog() {
  byId('f-action').addEventListener('change', render);
  byId('f-operator').addEventListener('input', render);
}
