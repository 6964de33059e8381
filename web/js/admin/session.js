// session: the admin token and the calls that carry it.
//
// The token lives in this module's variable and nowhere else: not in
// sessionStorage, localStorage, a cookie or a URL. A reload (or a new tab)
// asks for it again, and nothing of it is left once the tab is closed.
// Every call sends it as `Authorization: Bearer`, to this origin only,
// never cached and without cookies.
import { ApiError } from '../api.js';

let token = '';

export const signedIn = () => token !== '';
export function signIn(value) { token = value; }
export function signOut() { token = ''; }

/** An admin call: the JSON answer, or throws ApiError with the server's code and message. */
export async function admin(method, path, body) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  const init = { method, headers, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', 'the server could not be reached');
  }
  let json = null;
  try { json = await res.json(); } catch { json = null; }
  if (!res.ok) {
    const e = json && json.error ? json.error : {};
    const err = new ApiError(res.status, e.code || `http_${res.status}`, e.message || res.statusText);
    err.retryAfter = res.headers.get('Retry-After');
    throw err;
  }
  return json;
}

/** "401 unauthorized: the admin token is required" (and the wait of a 429). */
export function describeError(e) {
  const wait = e.status === 429 && e.retryAfter ? ` (try again in ${e.retryAfter} s)` : '';
  return `${e.status || 'no answer'} ${e.code}: ${e.message}${wait}`;
}
