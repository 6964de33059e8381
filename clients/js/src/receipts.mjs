// receipts: offline verification of a score's receipt against the server's
// published keys (GET /v1/keys), with Ed25519 from WebCrypto (Node 18+,
// current browsers on HTTPS or localhost) or a verify function you pass
// (e.g. @noble/ed25519's).
//
// New scores carry "v2.<key_id>.<base64url signature>" over the twelve lines
// of MESSAGES.v2 joined by "\n" (docs/API.md); scores recorded before v2
// carry "<key_id>.<signature>" over MESSAGES.v1. Each form is one entry of
// MESSAGES: the text it signs from a score record (the submit answer through
// receiptRecord(), or the audit).
import { blake2b, toHex } from '../vendor/blake2b.js';

const int = (x) => Number.isSafeInteger(x);

function need(ok, field) {
  if (!ok) throw new TypeError(`the record's ${field} is missing or not of the right type`);
}

function head(r) {
  need(typeof r.score_id === 'string', 'score_id');
  need(int(r.player_id), 'player_id');
  need(typeof r.game === 'string', 'game');
  need(int(r.level), 'level');
  need(int(r.seed), 'seed');
  need(int(r.version), 'version');
  need(int(r.score), 'score');
  need(typeof r.moves_hash === 'string' && /^[0-9a-f]{64}$/.test(r.moves_hash), 'moves_hash');
  return [r.score_id, r.player_id, r.game, r.level, r.seed, r.version, r.score].map(String);
}

/** The text each receipt form signs, from a score record (GET /v1/scores/{id}, or receiptRecord()). */
export const MESSAGES = {
  v1: (r) => ['replayd-receipt-v1', ...head(r), r.moves_hash].join('\n'),
  // The second form as the web pages read it (web/js/verify.js): adds
  // completed, the board and the server's receive time.
  v2: (r) => {
    const h = head(r);
    need(typeof r.completed === 'boolean', 'completed');
    need(int(r.submitted_at_ms), 'submitted_at_ms');
    const board = typeof r.date === 'string' ? `daily:${r.date}` : `level:${r.game}:${r.level}`;
    return ['replayd-receipt-v2', ...h, r.completed ? '1' : '0', board, String(r.submitted_at_ms), r.moves_hash].join('\n');
  },
};

export function fromBase64url(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const plain = text.replace(/=+$/, '');
  if (plain.length % 4 === 1) return null;
  const b64 = plain.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (plain.length % 4)) % 4);
  const bin = atob(b64);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** { form, keyId, signature } or null for a text in no known form. */
export function parseReceipt(text) {
  const m = typeof text === 'string' && /^(?:(v[0-9]+)\.)?([0-9]{1,10})\.([A-Za-z0-9_-]+)$/.exec(text);
  if (!m) return null;
  const form = m[1] || 'v1';
  const signature = fromBase64url(m[3]);
  if (!MESSAGES[form] || !signature || signature.length !== 64) return null;
  return { form, keyId: Number(m[2]), signature };
}

/** The moves hash (hex BLAKE2b-256 over every field as a 32-bit big-endian integer, in field order). */
export function movesHash(fields, moves) {
  const bytes = new Uint8Array(4 * fields.length * moves.length);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const m of moves) {
    for (const f of fields) {
      const x = m[f];
      if (!Number.isInteger(x) || x < -0x80000000 || x > 0xffffffff) throw new TypeError(`move field ${f} is not a 32-bit integer`);
      view.setUint32(at, x >>> 0, false);
      at += 4;
    }
  }
  return toHex(blake2b(bytes, 32));
}

/** The record a receipt signs, from what a client already holds: its player id, the seed answer and the submit answer. */
export function receiptRecord(playerId, seed, submitted) {
  return {
    score_id: submitted.score_id,
    player_id: playerId,
    game: seed.game,
    level: seed.level,
    seed: seed.seed,
    version: seed.version,
    score: submitted.score,
    completed: submitted.completed,
    moves_hash: submitted.moves_hash,
    receipt: submitted.receipt,
    ...(submitted.date ? { date: submitted.date } : {}),
    ...(submitted.submitted_at_ms !== undefined ? { submitted_at_ms: submitted.submitted_at_ms } : {}),
  };
}

// WebCrypto's subtle: the global one (browsers on HTTPS and localhost, Node
// 19+), else Node 18's node:crypto webcrypto (Node 18 has no global crypto).
// The import is dynamic so a bundler for the browser never needs node:crypto.
let subtleFound;
async function findSubtle() {
  if (subtleFound === undefined) {
    subtleFound = globalThis.crypto?.subtle || null;
    if (!subtleFound && typeof process !== 'undefined' && process.versions?.node) {
      try {
        subtleFound = (await import('node:crypto')).webcrypto?.subtle || null;
      } catch {
        subtleFound = null;
      }
    }
  }
  return subtleFound;
}

async function webcryptoVerify(publicKey, signature, message) {
  const subtle = await findSubtle();
  if (!subtle) {
    throw new Error('verifyReceipt: no WebCrypto (globalThis.crypto.subtle, or node:crypto webcrypto on Node.js 18+): ' +
      'pass options.verify, an Ed25519 verify(publicKey, signature, message) function');
  }
  const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  return subtle.verify({ name: 'Ed25519' }, key, signature, message);
}

/**
 * Checks a record's receipt with the keys of GET /v1/keys (the array, or the
 * whole answer). options.moves and options.fields: also recompute the moves
 * hash from the moves (else the record's is trusted); options.verify(publicKey,
 * signature, message) -> boolean replaces WebCrypto. Resolves to
 * { ok, form, keyId, reason }.
 */
export async function verifyReceipt(record, keys, options = {}) {
  const r = parseReceipt(record.receipt);
  if (!r) return { ok: false, form: null, keyId: null, reason: 'the receipt is in no known form' };
  const base = { form: r.form, keyId: r.keyId };
  const list = Array.isArray(keys) ? keys : keys?.keys;
  const key = Array.isArray(list) ? list.find((k) => k.key_id === r.keyId) : null;
  if (!key) return { ...base, ok: false, reason: `no published key ${r.keyId}` };
  if (key.alg !== 'Ed25519') return { ...base, ok: false, reason: `key ${r.keyId} is not Ed25519` };
  const publicKey = fromBase64url(key.public_key);
  if (!publicKey || publicKey.length !== 32) return { ...base, ok: false, reason: `key ${r.keyId} is not a 32-byte key` };
  if (options.moves) {
    const mine = movesHash(options.fields, options.moves);
    if (mine !== record.moves_hash) return { ...base, ok: false, reason: `the moves hash to ${mine}, the record says ${record.moves_hash}` };
  }
  let message;
  try {
    message = new TextEncoder().encode(MESSAGES[r.form](record));
  } catch (e) {
    return { ...base, ok: false, reason: e.message };
  }
  const ok = await (options.verify || webcryptoVerify)(publicKey, r.signature, message);
  return { ...base, ok: ok === true, reason: ok ? 'valid' : 'the signature does not match the record' };
}
