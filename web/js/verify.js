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
