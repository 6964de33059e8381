// The Node.js reference server of `make bench` (docs/BENCH.md, "HTTP"): what a
// studio would otherwise build, a plain Node server doing replayd's work for
// the three endpoints bench_http drives (POST /v1/players, /v1/seeds,
// /v1/scores), with the JavaScript port (vectors/port/) as its game library
// and SQLite through better-sqlite3 with replayd's durability: WAL,
// synchronous=FULL, an answer only after its commit, and group commit of
// whatever submissions are queued in one event-loop turn.
//
// Per submission: bearer lookup (keyed BLAKE2b of the token, one indexed
// read), exact-field JSON checks, the seed token's MAC (HMAC-SHA-512-256,
// replayd's token layout), the moves hash (BLAKE2b), the level from a cache
// filled at issue, the replay with the port's game code (rejections are 422
// and recorded), the plausibility check (claimed time against time since
// issue, +1% +100 ms), an Ed25519 receipt, then one transaction: re-read the
// token, look for another player's identical run, insert the score, mark
// the token redeemed, keep the level best, read the rank. Not a product: no rate limits, dailies, boards or retries
// of the same moves; it exists to be measured beside replayd.
//
//   node tests/bench/node_ref/server.mjs --listen 127.0.0.1:0 --data DIR
// prints {"event":"listening","port":N} on stderr once it accepts.
import http from 'node:http';
import crypto from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { GAMES } from '../../../vectors/port/vectors.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const [host, portText] = opt('--listen', '127.0.0.1:0').split(':');
const dataDir = opt('--data', '.');

const TOKEN_TTL_MS = 24 * 3600 * 1000;
const KEY_ID = 1;
const MAX_BODY = 256 * 1024;
const macKey = crypto.randomBytes(32);
const bearerKey = crypto.randomBytes(32);
const { privateKey: signKey } = crypto.generateKeyPairSync('ed25519');

// ---- storage: the same durability as replayd's writer --------------------

const db = new Database(path.join(dataDir, 'node-ref.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`
CREATE TABLE IF NOT EXISTS players (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, token_hash BLOB NOT NULL UNIQUE, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seed_tokens (
  nonce BLOB PRIMARY KEY, player_id INTEGER NOT NULL REFERENCES players(id), game TEXT NOT NULL,
  level INTEGER NOT NULL, seed INTEGER NOT NULL, version INTEGER NOT NULL, issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL, text TEXT NOT NULL, redeemed INTEGER NOT NULL DEFAULT 0,
  score_seq INTEGER, outcome TEXT) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seed_tokens_player ON seed_tokens (player_id, redeemed, expires_at);
CREATE TABLE IF NOT EXISTS scores (
  seq INTEGER PRIMARY KEY, score_id TEXT NOT NULL, nonce BLOB NOT NULL, player_id INTEGER NOT NULL,
  game TEXT NOT NULL, level INTEGER NOT NULL, seed INTEGER NOT NULL, version INTEGER NOT NULL,
  score INTEGER NOT NULL, completed INTEGER NOT NULL, received_at INTEGER NOT NULL,
  moves_hash BLOB NOT NULL, receipt TEXT NOT NULL, moves_json TEXT NOT NULL, result_json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS scores_run ON scores (seed, moves_hash);
CREATE TABLE IF NOT EXISTS level_bests (
  game TEXT NOT NULL, level INTEGER NOT NULL, score INTEGER NOT NULL, seq INTEGER NOT NULL,
  player_id INTEGER NOT NULL, PRIMARY KEY (game, level, score DESC, seq)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS level_bests_player ON level_bests (game, level, player_id);
CREATE TABLE IF NOT EXISTS rejections (
  id INTEGER PRIMARY KEY, nonce BLOB NOT NULL, player_id INTEGER NOT NULL, reason TEXT NOT NULL,
  move_index INTEGER NOT NULL, received_at INTEGER NOT NULL, moves_hash BLOB NOT NULL,
  moves_json TEXT NOT NULL);
`);

const st = {
  playerInsert: db.prepare('INSERT INTO players (name, token_hash, created_at) VALUES (?, ?, ?)'),
  playerByHash: db.prepare('SELECT id FROM players WHERE token_hash = ?'),
  tokenInsert: db.prepare(`INSERT INTO seed_tokens (nonce, player_id, game, level, seed, version, issued_at,
                           expires_at, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  tokenGet: db.prepare('SELECT player_id, redeemed FROM seed_tokens WHERE nonce = ?'),
  scoreInsert: db.prepare(`INSERT INTO scores (score_id, nonce, player_id, game, level, seed, version, score,
                           completed, received_at, moves_hash, receipt, moves_json, result_json)
                           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  tokenRedeem: db.prepare('UPDATE seed_tokens SET redeemed = 1, score_seq = ?, outcome = ? WHERE nonce = ?'),
  bestGet: db.prepare('SELECT score, seq FROM level_bests WHERE game = ? AND level = ? AND player_id = ?'),
  bestDelete: db.prepare('DELETE FROM level_bests WHERE game = ? AND level = ? AND player_id = ?'),
  bestInsert: db.prepare('INSERT INTO level_bests (game, level, score, seq, player_id) VALUES (?, ?, ?, ?, ?)'),
  rank: db.prepare(`SELECT COUNT(*) AS above FROM level_bests
                    WHERE game = ? AND level = ? AND (score > ? OR (score = ? AND seq < ?))`),
  sameRun: db.prepare('SELECT 1 FROM scores WHERE seed = ? AND moves_hash = ? AND player_id <> ? LIMIT 1'),
  rejectionInsert: db.prepare(`INSERT INTO rejections (nonce, player_id, reason, move_index, received_at,
                               moves_hash, moves_json) VALUES (?, ?, ?, ?, ?, ?, ?)`),
};

// ---- answers ---------------------------------------------------------------

function send(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

class HttpError extends Error {
  constructor(status, code, message, extra = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

function sendError(res, e) {
  if (!(e instanceof HttpError)) {
    process.stderr.write(`node-ref: ${e.stack}\n`);
    e = new HttpError(500, 'internal', 'internal error');
  }
  send(res, e.status, { error: { code: e.code, message: e.message, ...e.extra } });
}

/** The body as an object holding exactly `fields` (name -> typeof check). */
function exactObject(text, fields) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'malformed_json', 'the body is not JSON');
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new HttpError(400, 'malformed_json', 'the body is not a JSON object');
  const names = Object.keys(fields);
  if (Object.keys(doc).length !== names.length || !names.every((k) => Object.hasOwn(doc, k) && fields[k](doc[k])))
    throw new HttpError(400, 'bad_request', `expected exactly the fields ${names.join(', ')}`);
  return doc;
}

const isString = (v) => typeof v === 'string';
const isInt = (v) => Number.isInteger(v);
const iso = (ms) => new Date(ms).toISOString();

// ---- players and bearer tokens -------------------------------------------

/** Keyed BLAKE2b of a bearer token (node:crypto's BLAKE2b takes no key, so the key is a prefix). */
function bearerHash(token) {
  return crypto.createHash('blake2b512').update(bearerKey).update(token).digest().subarray(0, 32);
}

function authenticate(req) {
  const h = req.headers.authorization;
  if (!h || !h.startsWith('Bearer ')) throw new HttpError(401, 'unauthorized', 'a bearer token is required');
  const row = st.playerByHash.get(bearerHash(h.slice(7)));
  if (!row) throw new HttpError(401, 'unauthorized', 'not a valid bearer token');
  return row.id;
}

function registerPlayer(res, text) {
  const { name } = exactObject(text, { name: isString });
  if (Buffer.byteLength(name) < 1 || Buffer.byteLength(name) > 64 || /[\u0000-\u001f\u007f-\u009f]/.test(name))
    throw new HttpError(400, 'bad_name', 'not an acceptable name');
  const token = crypto.randomBytes(32).toString('base64url');
  const id = Number(st.playerInsert.run(name, bearerHash(token), Date.now()).lastInsertRowid);
  send(res, 201, { player_id: id, name, token });
}

// ---- seed tokens: replayd's layout, HMAC-SHA-512-256 ----------------------

function mac(payload) {
  return crypto.createHmac('sha512', macKey).update(payload).digest().subarray(0, 32);
}

function encodeToken(t) {
  const game = Buffer.from(t.game);
  const p = Buffer.alloc(1 + 4 + 8 + 1 + game.length + 2 + 4 + 2 + 8 + 8 + 4 + 16);
  let o = p.writeUInt8(1, 0);
  o = p.writeUInt32BE(KEY_ID, o);
  o = p.writeBigInt64BE(BigInt(t.playerId), o);
  o = p.writeUInt8(game.length, o);
  o += game.copy(p, o);
  o = p.writeUInt16BE(t.level, o);
  o = p.writeUInt32BE(t.seed, o);
  o = p.writeUInt16BE(t.version, o);
  o = p.writeBigInt64BE(BigInt(t.issuedAt), o);
  o = p.writeBigInt64BE(BigInt(t.expiresAt), o);
  o = p.writeInt32BE(-1, o);
  t.nonce.copy(p, o);
  return 'st1.' + Buffer.concat([p, mac(p)]).toString('base64url');
}

const invalidToken = () => new HttpError(400, 'invalid_seed_token', 'the seed token is not one this server issued');

function decodeToken(text) {
  if (!text.startsWith('st1.') || text.length > 512 || !/^[A-Za-z0-9_-]+$/.test(text.slice(4))) throw invalidToken();
  const raw = Buffer.from(text.slice(4), 'base64url');
  if (raw.length < 32 + 1 + 4 + 8 + 1) throw invalidToken();
  const p = raw.subarray(0, raw.length - 32);
  if (!crypto.timingSafeEqual(mac(p), raw.subarray(raw.length - 32))) throw invalidToken();
  if (p.readUInt8(0) !== 1 || p.readUInt32BE(1) !== KEY_ID) throw invalidToken();
  const gameLen = p.readUInt8(13);
  if (p.length !== 14 + gameLen + 2 + 4 + 2 + 8 + 8 + 4 + 16) throw invalidToken();
  let o = 14 + gameLen;
  const t = {
    playerId: Number(p.readBigInt64BE(5)),
    game: p.toString('latin1', 14, o),
    level: p.readUInt16BE(o),
    seed: p.readUInt32BE(o + 2),
    version: p.readUInt16BE(o + 6),
    issuedAt: Number(p.readBigInt64BE(o + 8)),
    expiresAt: Number(p.readBigInt64BE(o + 16)),
    nonce: Buffer.from(p.subarray(o + 28, o + 44)),
  };
  return t;
}

// The level cache, filled at issue (bounded: cleared when it grows past a cap).
const levels = new Map();
const LEVEL_CACHE_MAX = 50000;
function levelOf(g, version, level, seed) {
  const key = `${g.name}/${version}/${level}/${seed}`;
  let lv = levels.get(key);
  if (!lv) {
    if (levels.size >= LEVEL_CACHE_MAX) levels.clear();
    lv = g.generate(version, level, seed);
    levels.set(key, lv);
  }
  return lv;
}

function issueSeed(res, playerId, text) {
  const { game, level } = exactObject(text, { game: isString, level: isInt });
  const g = Object.hasOwn(GAMES, game) ? GAMES[game] : null;
  if (!g) throw new HttpError(404, 'unknown_game', 'no such game');
  if (level < 1 || level > g.levels) throw new HttpError(400, 'bad_level', 'no such level');
  const seed = crypto.randomBytes(4).readUInt32BE(0);
  const issuedAt = Date.now();
  const t = { playerId, game, level, seed, version: g.version, issuedAt, expiresAt: issuedAt + TOKEN_TTL_MS,
              nonce: crypto.randomBytes(16) };
  levelOf(g, t.version, level, seed);
  const token = encodeToken(t);
  st.tokenInsert.run(t.nonce, playerId, game, level, seed, t.version, issuedAt, t.expiresAt, token);
  send(res, 201, { seed_token: token, game, level, seed, version: t.version, issued_at: iso(issuedAt),
                   expires_at: iso(t.expiresAt) });
}

// ---- submissions -----------------------------------------------------------

/** BLAKE2b over every move's fields in the game's order, each a 32-bit big-endian integer. */
function movesHash(fields, moves) {
  const b = Buffer.alloc(4 * fields.length * moves.length);
  let o = 0;
  for (const m of moves) for (const f of fields) o = b.writeInt32BE(m[f] | 0, o);
  return crypto.createHash('blake2b512').update(b).digest().subarray(0, 32);
}

function receipt(s) {
  const msg = `replayd-receipt-v1\n${s.scoreId}\n${s.playerId}\n${s.game}\n${s.level}\n${s.seed}\n${s.version}\n` +
              `${s.score}\n${s.movesHashHex}`;
  return `${KEY_ID}.` + crypto.sign(null, Buffer.from(msg), signKey).toString('base64url');
}

function submit(res, playerId, text, now) {
  const doc = exactObject(text, { seed_token: isString, moves: Array.isArray });
  const t = decodeToken(doc.seed_token);
  if (t.playerId !== playerId) throw new HttpError(403, 'not_your_token', 'this seed token was issued to another player');
  const g = Object.hasOwn(GAMES, t.game) ? GAMES[t.game] : null;
  if (!g || !g.versions.includes(t.version) || t.level < 1 || t.level > g.levels)
    throw new HttpError(400, 'invalid_seed_token', 'the seed token names a game or version not served');
  if (now > t.expiresAt) throw new HttpError(400, 'token_expired', 'the seed token has expired');
  const moves = doc.moves;
  if (moves.length > g.MAX_MOVES) throw new HttpError(413, 'too_many_moves', `at most ${g.MAX_MOVES} moves`);
  for (let i = 0; i < moves.length; i++)
    if (!g.validMove(moves[i], t.version))
      throw new HttpError(400, 'bad_moves', `move ${i} is not a move of this game`, { move: i });
  const fields = g.fieldsOf(t.version);
  const hash = movesHash(fields, moves);

  const state = g.start(levelOf(g, t.version, t.level, t.seed));
  let rejected = null;
  for (let i = 0; i < moves.length && !rejected; i++) {
    const code = g.apply(state, moves[i]);
    if (g.kindOf(code) === 'rejected') rejected = { reason: code, move: i };
  }
  const result = rejected ? null : g.result(state);
  const elapsed = now - t.issuedAt;
  const allowed = elapsed + Math.floor(elapsed / 100) + 100;
  if (!rejected && result.duration_ms > allowed) {
    let i = moves.findIndex((m) => m.t > allowed);
    rejected = { reason: 'duration_exceeds_elapsed', move: i >= 0 ? i : Math.max(0, moves.length - 1) };
  }
  const canon = JSON.stringify(moves.map((m) => Object.fromEntries(fields.map((f) => [f, m[f]]))));
  if (rejected) {
    enqueue({ kind: 'rejection', res, t, playerId, now, hash, canon, rejected });
    return;
  }
  const s = { scoreId: t.nonce.toString('hex'), playerId, game: t.game, level: t.level, seed: t.seed,
              version: t.version, score: result.score, movesHashHex: hash.toString('hex') };
  s.receipt = receipt(s);
  enqueue({ kind: 'score', res, t, playerId, now, hash, canon, result, s });
}

// ---- group commit: every write queued in one event-loop turn, one transaction

let queue = [];
function enqueue(w) {
  if (queue.length === 0) setImmediate(flush);
  queue.push(w);
}

function writeScore(w) {
  const { t, s } = w;
  const tok = st.tokenGet.get(t.nonce);
  if (!tok) return new HttpError(400, 'invalid_seed_token', 'the seed token is not on record');
  if (tok.redeemed) return new HttpError(409, 'token_used', 'this seed token was already redeemed');
  if (st.sameRun.get(t.seed, w.hash, w.playerId))
    return new HttpError(409, 'duplicate_run', "these moves are another player's run on the same level and seed");
  const seq = Number(st.scoreInsert.run(s.scoreId, t.nonce, w.playerId, t.game, t.level, t.seed, t.version, s.score,
    w.result.completed ? 1 : 0, w.now, w.hash, s.receipt, w.canon, JSON.stringify(w.result)).lastInsertRowid);
  st.tokenRedeem.run(seq, w.result.completed ? 'completed' : 'incomplete', t.nonce);
  let best = st.bestGet.get(t.game, t.level, w.playerId);
  if (!best || s.score > best.score) {
    if (best) st.bestDelete.run(t.game, t.level, w.playerId);
    st.bestInsert.run(t.game, t.level, s.score, seq, w.playerId);
    best = { score: s.score, seq };
  }
  const rank = st.rank.get(t.game, t.level, best.score, best.score, best.seq).above + 1;
  return { status: 200, body: { verified: true, score_id: s.scoreId, score: s.score, completed: w.result.completed,
    status: 'ranked', rank, best: best.seq === seq, moves_hash: s.movesHashHex, receipt: s.receipt,
    result: w.result } };
}

function writeRejection(w) {
  const tok = st.tokenGet.get(w.t.nonce);
  if (!tok) return new HttpError(400, 'invalid_seed_token', 'the seed token is not on record');
  if (tok.redeemed) return new HttpError(409, 'token_used', 'this seed token was already redeemed');
  st.rejectionInsert.run(w.t.nonce, w.playerId, w.rejected.reason, w.rejected.move, w.now, w.hash, w.canon);
  return new HttpError(422, 'replay_rejected', `the replay was rejected at move ${w.rejected.move}: ${w.rejected.reason}`,
                       { reason: w.rejected.reason, move: w.rejected.move, token_burned: false });
}

function flush() {
  const batch = queue;
  queue = [];
  let outs;
  try {
    db.exec('BEGIN IMMEDIATE');
    outs = batch.map((w) => (w.kind === 'score' ? writeScore(w) : writeRejection(w)));
    db.exec('COMMIT'); // synchronous=FULL: durable once this returns
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    outs = batch.map(() => e);
  }
  batch.forEach((w, i) => (outs[i] instanceof Error ? sendError(w.res, outs[i]) : send(w.res, outs[i].status, outs[i].body)));
}

// ---- HTTP --------------------------------------------------------------------

function route(req, res, text) {
  const now = Date.now();
  if (req.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'POST only');
  if (!(req.headers['content-type'] || '').startsWith('application/json'))
    throw new HttpError(415, 'unsupported_media_type', 'expected application/json');
  switch (req.url) {
    case '/v1/players':
      return registerPlayer(res, text);
    case '/v1/seeds':
      return issueSeed(res, authenticate(req), text);
    case '/v1/scores':
      return submit(res, authenticate(req), text, now);
    default:
      throw new HttpError(404, 'not_found', 'no such endpoint');
  }
}

const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size <= MAX_BODY) chunks.push(c);
  });
  req.on('end', () => {
    try {
      if (size > MAX_BODY) throw new HttpError(413, 'body_too_large', 'the body is too large');
      route(req, res, Buffer.concat(chunks).toString('utf8'));
    } catch (e) {
      sendError(res, e);
    }
  });
});
server.maxConnections = 1024;
server.listen(Number(portText), host, () => {
  process.stderr.write(JSON.stringify({ event: 'listening', port: server.address().port }) + '\n');
});
const stop = () => {
  server.close(() => {
    db.close();
    process.exit(0);
  });
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
