// api: a client of replayd's HTTP API (docs/API.md) over fetch.
//
//   const api = new Client({ baseUrl: 'https://scores.example' });
//   const me = await api.register('ann');            // keeps me.token for later calls
//   // or Sign in with Apple / Google: a server nonce into the provider's request
//   const { nonce } = await api.signInNonce();
//   const me = await api.signIn('apple', idTokenFromApple);  // same player every time
//   const seed = await api.seed({ game: 'schulte', level: 1 });
//   const score = await api.submit(seed.seed_token, moves);
//   for await (const page of api.boardPages({ game: 'schulte', level: 1 })) ...
//
// Retries: submit is idempotent (the same token and moves answer the same
// 200), so it is retried after a network failure, 429 or 5xx; so are GETs.
// A retry waits what Retry-After says (seconds or an HTTP date), else an
// exponential backoff with jitter; retries and the total wait are bounded.
// POST /v1/players and /v1/seeds are retried only after 429 and 503 (the
// server did nothing then), never after a network failure (it may have).

// What every failed call throws: the HTTP status, the API's error code and
// its whole answer (a 422 replay_rejected's body.error.reason says why, e.g.
// duration_exceeds_elapsed: a run submitted before its claimed time passed).
export class ApiError extends Error {
  constructor(status, body, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status; // HTTP status, 0 for a network failure
    this.code = body?.error?.code ?? null; // the API's error code
    this.body = body;
  }
}

const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/** Milliseconds a Retry-After value asks for, or null. */
export function retryAfterMs(value, now = Date.now()) {
  if (value === null || value === undefined || value === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class Client {
  /**
   * options: baseUrl; token (a player's bearer token); fetch (default
   * globalThis.fetch); retries (default 5); backoffMs (first backoff, 250);
   * maxDelayMs (one wait at most, 30000); maxWaitMs (all waits of one call,
   * 120000); sleep (injectable); random (jitter source).
   */
  constructor(options = {}) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token ?? null;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.retries = options.retries ?? 5;
    this.backoffMs = options.backoffMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 30000;
    this.maxWaitMs = options.maxWaitMs ?? 120000;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = options.random ?? Math.random;
    this.attempts = 0; // requests sent, retries included (for tests and metrics)
  }

  /**
   * One API call. retry: 'idempotent' (network failures, 429, 5xx),
   * 'refused' (429 and 503 only) or false. Resolves to the parsed body.
   */
  async request(method, path, { body, auth = false, retry = false, query } = {}) {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query || {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (auth) {
      if (!this.token) throw new TypeError(`${method} ${path} needs a player token: register first or pass token`);
      headers.Authorization = `Bearer ${this.token}`;
    }
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      let res;
      let failure = null;
      this.attempts++;
      try {
        res = await this.fetch(url, { method, headers, body: payload });
      } catch (e) {
        failure = new ApiError(0, null, `${method} ${path}: ${e.message}`);
      }
      let parsed = null;
      if (res) {
        const text = await res.text();
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        if (res.ok) return parsed;
        const said = parsed?.error ? ` ${parsed.error.code}: ${parsed.error.message}` : '';
        failure = new ApiError(res.status, parsed, `${method} ${path}: ${res.status}${said}`);
      }
      const again = retry === 'idempotent' ? (failure.status === 0 || RETRYABLE.has(failure.status))
        : retry === 'refused' ? (failure.status === 429 || failure.status === 503) : false;
      if (!again || attempt >= this.retries) throw failure;
      const asked = res ? retryAfterMs(res.headers.get('retry-after')) : null;
      const backoff = Math.min(this.maxDelayMs, this.backoffMs * 2 ** attempt) * (0.5 + this.random() / 2);
      const delay = Math.min(this.maxDelayMs, asked ?? backoff);
      if (waited + delay > this.maxWaitMs) throw failure;
      waited += delay;
      await this.sleep(delay);
    }
  }

  /** Registers a player; keeps its token for the calls that need one. */
  async register(name) {
    const me = await this.request('POST', '/v1/players', { body: { name }, retry: 'refused' });
    this.token = me.token;
    this.playerId = me.player_id;
    return me;
  }

  /** A single-use nonce to put in Apple's or Google's sign-in request. */
  signInNonce() {
    return this.request('POST', '/v1/identity/nonce', { retry: 'refused' });
  }

  /** Signs in with an Apple or Google ID token (provider 'apple' | 'google'):
   * the identity's player, made at its first sign-in; keeps the new token
   * (the player's earlier token stops working). */
  async signIn(provider, idToken, name) {
    const body = { identity: { provider, id_token: idToken } };
    if (name !== undefined) body.name = name;
    const me = await this.request('POST', '/v1/players', { body, retry: 'refused' });
    this.token = me.token;
    this.playerId = me.player_id;
    return me;
  }

  /** Binds an Apple or Google identity to the registered (guest) player. */
  linkIdentity(provider, idToken) {
    return this.request('POST', '/v1/players/me/identity', { body: { provider, id_token: idToken }, auth: true, retry: 'refused' });
  }

  games() {
    return this.request('GET', '/v1/games', { retry: 'idempotent' });
  }

  keys() {
    return this.request('GET', '/v1/keys', { retry: 'idempotent' });
  }

  daily(date) {
    return this.request('GET', '/v1/daily', { query: { date }, retry: 'idempotent' });
  }

  /** A seed token: { game, level } for a level, { daily: true } for today's daily. */
  seed(which) {
    return this.request('POST', '/v1/seeds', { body: which, auth: true, retry: 'refused' });
  }

  /** Submits a run; safe to retry (the server answers the same 200 to the same token and moves). */
  submit(seedToken, moves) {
    return this.request('POST', '/v1/scores', { body: { seed_token: seedToken, moves }, auth: true, retry: 'idempotent' });
  }

  /** The public record of a score (moves, result, receipt): the audit. */
  audit(scoreId) {
    return this.request('GET', `/v1/scores/${encodeURIComponent(scoreId)}`, { retry: 'idempotent' });
  }

  static boardPath(board) {
    if (board.date) return `/v1/leaderboards/daily/${encodeURIComponent(board.date)}`;
    return `/v1/leaderboards/${encodeURIComponent(board.game)}/${encodeURIComponent(board.level)}`;
  }

  /** One page of a board ({ game, level } or { date }); options: limit, cursor. */
  board(board, { limit, cursor } = {}) {
    return this.request('GET', Client.boardPath(board), { query: { limit, cursor }, retry: 'idempotent' });
  }

  /** Every page of a board, following next_cursor (at most maxPages). */
  async *boardPages(board, { limit, maxPages = 1000 } = {}) {
    let cursor;
    for (let i = 0; i < maxPages; i++) {
      const page = await this.board(board, { limit, cursor });
      yield page;
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /** The player's entry with up to `around` entries either side. */
  aroundMe(board, { around } = {}) {
    return this.request('GET', `${Client.boardPath(board)}/me`, { query: { around }, auth: true, retry: 'idempotent' });
  }
}
