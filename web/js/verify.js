// verify: what the viewer checks without trusting the server's word: the
// moves hash (BLAKE2b-256 over every move's fields as 32-bit big-endian
// integers, in the game's field order) and the receipt's Ed25519 signature
// (WebCrypto) against the keys of GET /v1/keys. No DOM: Node runs it too.
//
// Receipt forms (docs/API.md), told apart by their text:
//   v1  "<key_id>.<base64url sig>" over the 9 lines
//       replayd-receipt-v1, score_id, player_id, game, level, seed, version, score, moves_hash
//   v2  "v2.<key_id>.<base64url sig>" over the 12 lines
//       replayd-receipt-v2, score_id, player_id, game, level, seed, version, score,
//       completed (1|0), board (daily:YYYY-MM-DD | level:<game>:<level>), submitted_at_ms, moves_hash
// Lines are joined by "\n" with no trailing newline; integers in plain decimal.
//   v3  "v3.<index>": no signature; the score's leaf index in the public score
//       log (docs/LOG.md), checked through the log's signed checkpoint and its
//       tiles by the package's verifier, served as /assets/client/log.mjs
//       (clients/js/src/log.mjs) and loaded only for a v3 receipt.
import { blake2b, toHex } from './blake2b.js';

/** Bytes of unpadded (or padded) base64url; null if the text is not base64url. */
export function fromBase64url(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const plain = text.replace(/=+$/, '');
  if (plain.length % 4 === 1) return null;
  const b64 = plain.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (plain.length % 4)) % 4);
  let bin;
  try {
    bin = atob(b64);
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** {form: 'v1'|'v2', keyId, signature: Uint8Array(64)} or null when the text is neither form. */
export function parseReceipt(text) {
  if (typeof text !== 'string') return null;
  const m = /^(v2\.)?(\d{1,10})\.([A-Za-z0-9_-]+)$/.exec(text);
  if (!m) return null;
  const signature = fromBase64url(m[3]);
  if (!signature || signature.length !== 64) return null;
  return { form: m[1] ? 'v2' : 'v1', keyId: Number(m[2]), signature };
}

const isInt = (x) => Number.isSafeInteger(x);

/** The board line of a v2 receipt: "daily:YYYY-MM-DD" or "level:<game>:<level>". */
export function boardOf(audit) {
  return typeof audit.date === 'string' ? `daily:${audit.date}` : `level:${audit.game}:${audit.level}`;
}

/**
 * The signed text of a receipt of `form` for an audit record (GET
 * /v1/scores/{id}). Throws TypeError when a field the form signs is missing
 * or of the wrong type (the audit cannot match then).
 */
export function receiptMessage(form, audit) {
  const need = (ok, field) => {
    if (!ok) throw new TypeError(`the audit's ${field} is missing or not of the right type`);
  };
  need(typeof audit.score_id === 'string', 'score_id');
  need(isInt(audit.player_id), 'player_id');
  need(typeof audit.game === 'string', 'game');
  need(isInt(audit.level), 'level');
  need(isInt(audit.seed), 'seed');
  need(isInt(audit.version), 'version');
  need(isInt(audit.score), 'score');
  need(typeof audit.moves_hash === 'string', 'moves_hash');
  const head = [audit.score_id, audit.player_id, audit.game, audit.level, audit.seed, audit.version, audit.score].map(String);
  if (form === 'v1') return ['replayd-receipt-v1', ...head, audit.moves_hash].join('\n');
  if (form !== 'v2') throw new TypeError(`unknown receipt form ${form}`);
  need(typeof audit.completed === 'boolean', 'completed');
  need(isInt(audit.submitted_at_ms), 'submitted_at_ms');
  need(audit.date === undefined || typeof audit.date === 'string', 'date');
  return ['replayd-receipt-v2', ...head, audit.completed ? '1' : '0', boardOf(audit),
    String(audit.submitted_at_ms), audit.moves_hash].join('\n');
}

/** The moves hash (hex) of `moves` (objects) with the game's `fields` in order. */
export function movesHash(fields, moves) {
  const bytes = new Uint8Array(4 * fields.length * moves.length);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const mv of moves) {
    for (const f of fields) {
      const x = mv[f];
      if (!Number.isInteger(x) || x < -0x80000000 || x > 0xffffffff) throw new TypeError(`move field ${f} is not a 32-bit integer`);
      view.setUint32(at, x >>> 0, false);
      at += 4;
    }
  }
  return toHex(blake2b(bytes, 32));
}

/**
 * Checks the receipt of `audit` with `keys` (the list of GET /v1/keys).
 * Resolves to {ok, form, keyId, reason, unable}: ok is true only for a valid
 * signature over the fields as recorded; unable marks a browser that cannot
 * check at all (no WebCrypto, no Ed25519), which is not a mismatch.
 * `subtle` is injectable for tests.
 */
export async function verifyReceipt(audit, keys, subtle = globalThis.crypto && globalThis.crypto.subtle) {
  const r = parseReceipt(audit.receipt);
  if (!r) return { ok: false, form: null, keyId: null, reason: 'the receipt is not in a form this page knows' };
  const base = { form: r.form, keyId: r.keyId };
  const key = Array.isArray(keys) ? keys.find((k) => k.key_id === r.keyId) : null;
  if (!key) return { ...base, ok: false, reason: `the server publishes no key ${r.keyId}` };
  if (key.alg !== 'Ed25519') return { ...base, ok: false, reason: `key ${r.keyId} is not an Ed25519 key` };
  const raw = fromBase64url(key.public_key);
  if (!raw || raw.length !== 32) return { ...base, ok: false, reason: `key ${r.keyId} is not a 32-byte public key` };
  let message;
  try {
    message = new TextEncoder().encode(receiptMessage(r.form, audit));
  } catch (e) {
    return { ...base, ok: false, reason: e.message };
  }
  if (!subtle) return { ...base, ok: false, unable: true, reason: 'this browser offers no WebCrypto here (it needs HTTPS or localhost)' };
  let cryptoKey;
  try {
    cryptoKey = await subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return { ...base, ok: false, unable: true, reason: 'this browser cannot check Ed25519 signatures' };
  }
  const ok = await subtle.verify({ name: 'Ed25519' }, cryptoKey, r.signature, message);
  return { ...base, ok, reason: ok ? 'valid' : 'the signature does not match the recorded fields' };
}

/** The leaf index (a BigInt) of a v3 receipt "v3.<index>", or null for any other text. */
export function parseReceiptV3(text) {
  const m = typeof text === 'string' && /^v3\.(0|[1-9][0-9]{0,18})$/.exec(text);
  return m && BigInt(m[1]) < 1n << 63n ? BigInt(m[1]) : null;
}

/**
 * Checks a v3 receipt (docs/API.md, "Receipts") of `audit` through the score
 * log: the origin and the current key's verifier key from `keysAnswer` (the
 * whole GET /v1/keys answer: log_origin, keys[].log_verifier_key), the
 * checkpoint (GET /v1/log/checkpoint), the entry bundle and hash tiles that
 * hold the index; the entry must be included in the checkpoint's tree and
 * equal every recorded field but status. Resolves to {ok, form: 'v3', index,
 * size, reason, unable}; unable marks a browser that cannot check at all.
 * options: fetch (injectable for tests), base (the server's URL, '' for
 * this origin), subtle.
 */
export async function verifyLogReceipt(audit, keysAnswer, options = {}) {
  const index = parseReceiptV3(audit.receipt);
  const base = { form: 'v3', keyId: null, index };
  if (index === null) return { ...base, ok: false, reason: 'the receipt is not in a form this page knows' };
  const subtle = 'subtle' in options ? options.subtle : globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return { ...base, ok: false, unable: true, reason: 'this browser offers no WebCrypto here (it needs HTTPS or localhost)' };
  const origin = keysAnswer && keysAnswer.log_origin;
  const keys = keysAnswer && Array.isArray(keysAnswer.keys) ? keysAnswer.keys : [];
  const current = keys.find((k) => k.current) || keys[0];
  const verifierKey = current && current.log_verifier_key;
  if (typeof origin !== 'string' || !origin) return { ...base, ok: false, reason: 'the server publishes no log_origin' };
  if (typeof verifierKey !== 'string') return { ...base, ok: false, reason: 'the server publishes no log_verifier_key for its current key' };
  let log;
  try {
    log = await import('../client/log.mjs');
  } catch (e) {
    return { ...base, ok: false, unable: true, reason: `the score log's verifier could not be loaded: ${e.message}` };
  }
  const f = options.fetch || globalThis.fetch.bind(globalThis);
  const prefix = `${options.base || ''}/v1/log/`;
  const get = async (path) => {
    const res = await f(prefix + path);
    if (!res.ok) throw new Error(`the server answers ${res.status} to /v1/log/${path}`);
    return res;
  };
  try {
    const r = await log.verifyLoggedScore({
      score: audit, verifierKey, origin,
      getCheckpoint: async () => (await get('checkpoint')).text(),
      getTile: async (path) => new Uint8Array(await (await get(path)).arrayBuffer()),
    });
    return { ...base, ok: true, size: r.size, reason: `In the score log at index ${r.index}, checkpoint of size ${r.size}` };
  } catch (e) {
    if (e && e.name === 'NotSupportedError') return { ...base, ok: false, unable: true, reason: 'this browser cannot check Ed25519 signatures' };
    return { ...base, ok: false, reason: e.message };
  }
}
