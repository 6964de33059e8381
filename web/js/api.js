// api: what both pages share: JSON fetches that read the API's error shape,
// the player token saved in this browser, game titles, formatting, and a
// small DOM builder that only ever sets text (never HTML).

/** The localStorage key of the player token the boards page uses for "your rank". */
export const TOKEN_KEY = 'replayd.token';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** GET a JSON answer from this origin; throws ApiError (status 0 when unreachable). */
export async function getJSON(path, { token = null } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
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

// localStorage can be unavailable (privacy modes): then there is no saved token.
export function savedToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

export function saveToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
    return true;
  } catch {
    return false;
  }
}

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

export const isDate = (text) => typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

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
