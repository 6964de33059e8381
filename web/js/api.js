// api: what both pages share: JSON fetches that read the API's error shape,
// the player id saved in this browser (public, never a token), player tags,
// game titles, formatting, and a small DOM builder that only ever sets text
// (never HTML).

/** The localStorage key of the player id the boards page marks as "you" (public, not a secret). */
export const PLAYER_KEY = 'replayd.player';
// Where an earlier version of the page kept a player's bearer token: removed on load.
const OLD_TOKEN_KEY = 'replayd.token';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** GET a JSON answer from this origin (never with credentials); throws ApiError (status 0 when unreachable). */
export async function getJSON(path) {
  const headers = { Accept: 'application/json' };
  let res;
  try {
    res = await fetch(path, { headers, cache: 'no-store', credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'network', 'the server could not be reached');
  }
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const e = body && body.error ? body.error : {};
    throw new ApiError(res.status, e.code || `http_${res.status}`, e.message || res.statusText);
  }
  if (body === null || typeof body !== 'object') throw new ApiError(res.status, 'bad_json', 'the answer is not JSON');
  return body;
}

// localStorage can be unavailable (privacy modes): then no player is saved.
export function savedPlayer() {
  try {
    const id = localStorage.getItem(PLAYER_KEY);
    return id && /^[1-9][0-9]{0,15}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

export function savePlayer(id) {
  try {
    if (id) localStorage.setItem(PLAYER_KEY, id);
    else localStorage.removeItem(PLAYER_KEY);
    return true;
  } catch {
    return false;
  }
}

/** Removes the bearer token an earlier version of the page may have saved: the pages keep no secret. */
export function forgetOldToken() {
  try {
    localStorage.removeItem(OLD_TOKEN_KEY);
  } catch {
    // nothing saved, nothing to remove
  }
}

/** A player's tag, "#1234" (the player id): it tells apart players of the same name. */
export const playerTag = (id) => `#${id}`;

/** Every game this page can show, in the catalogue's order, with its title. */
export const GAME_TITLES = {
  schulte: 'Schulte',
  pipes: 'Pipes',
  'target-sums': 'Target Sums',
  opposites: 'Opposites',
  contraption: 'Contraption',
  driftlings: 'Driftlings',
};

export const gameTitle = (name) => GAME_TITLES[name] || name;

const intFormat = new Intl.NumberFormat('en-US');
export const formatInt = (n) => intFormat.format(n);

/** "2026-12-02 13:10 UTC" from an RFC 3339 time. */
export function formatWhen(iso) {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return String(iso);
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "06:37:12" for a span of milliseconds (0 and below: "00:00:00"). */
export function formatSpan(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n) => String(n).padStart(2, '0');
  return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isDate(text) {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** el('a', {href: '/x', class: 'y'}, 'text', child): attributes and text only. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return node;
}

export const byId = (id) => document.getElementById(id);
