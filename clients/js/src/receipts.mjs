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
//
// "v3.<index>" (the default since the score log) carries no signature: it is
// the score's leaf index in the public score log, checked through the log
// (log.mjs: at once from the answer's log_proof, or later from the tiles).
import { blake2b, toHex } from '../vendor/blake2b.js';
import { parseReceiptV3, scoreLeaf, verifyLogProof, verifyLoggedScore, verifySubmission } from './log.mjs';

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

/**
 * { form, keyId, signature } (v1, v2), { form: 'v3', index: bigint, keyId:
 * null, signature: null } (v3), or null for a text in no known form.
 */
export function parseReceipt(text) {
  if (typeof text === 'string' && text.startsWith('v3.')) {
    const index = parseReceiptV3(text);
    return index === null ? null : { form: 'v3', index, keyId: null, signature: null };
  }
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
    ...(submitted.status !== undefined ? { status: submitted.status } : {}),
    ...(typeof submitted.log_proof === 'string' ? { log_proof: submitted.log_proof } : {}),
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
 * The log's origin and verifier keys from GET /v1/keys's answer (log_origin,
 * each key's log_verifier_key, the current key's first), unless
 * options.origin / options.verifierKey say them.
 */
function logKeys(keys, options) {
  const list = Array.isArray(keys) ? keys : keys?.keys;
  const origin = options.origin ?? (Array.isArray(keys) ? undefined : keys?.log_origin);
  let verifierKey = options.verifierKey;
  if (verifierKey === undefined && Array.isArray(list)) {
    verifierKey = [...list].sort((a, b) => Number(Boolean(b.current)) - Number(Boolean(a.current)))
      .map((k) => k.log_verifier_key).filter((k) => typeof k === 'string');
  }
  return { origin, verifierKey };
}

async function verifyReceiptV3(record, keys, index, options) {
  const base = { form: 'v3', keyId: null, index };
  const { origin, verifierKey } = logKeys(keys, options);
  if (typeof origin !== 'string' || origin.length === 0) return { ...base, ok: false, reason: 'no log_origin (pass the whole GET /v1/keys answer, or options.origin)' };
  if (!verifierKey || (Array.isArray(verifierKey) && verifierKey.length === 0)) return { ...base, ok: false, reason: 'no log_verifier_key published' };
  try {
    if (options.moves) {
      const mine = movesHash(options.fields, options.moves);
      if (mine !== record.moves_hash) return { ...base, ok: false, reason: `the moves hash to ${mine}, the record says ${record.moves_hash}` };
    }
    let checked;
    if (typeof record.log_proof === 'string' && options.token) {
      // a submission's answer and the seed it redeemed: offline, at once
      checked = await verifySubmission({ answer: record, token: options.token, verifierKey, origin });
    } else if (typeof record.log_proof === 'string') {
      // receiptRecord()'s record (player, game, level, seed, version from the seed answer), with its status
      checked = await verifyLogProof({ logProof: record.log_proof, leaf: scoreLeaf(record), index, verifierKey, origin });
    } else {
      // later: an audit record, through the checkpoint and the tiles
      checked = await verifyLoggedScore({
        score: record, verifierKey, origin, baseUrl: options.baseUrl, getCheckpoint: options.getCheckpoint,
        getTile: options.getTile, fetch: options.fetch,
      });
    }
    return { ...base, ok: true, size: checked.size, reason: 'valid' };
  } catch (e) {
    return { ...base, ok: false, reason: e.message };
  }
}

/**
 * Checks a record's receipt with the keys of GET /v1/keys (the array, or the
 * whole answer). options.moves and options.fields: also recompute the moves
 * hash from the moves (else the record's is trusted); options.verify(publicKey,
 * signature, message) -> boolean replaces WebCrypto. Resolves to
 * { ok, form, keyId, reason }.
 *
 * A v3 receipt is checked through the score log (log.mjs): with the whole
 * GET /v1/keys answer (its log_origin and log_verifier_key; or
 * options.origin and options.verifierKey). A record holding log_proof (the
 * submission's answer, or receiptRecord() of it) is checked offline from
 * the proof (with options.token, the seed answer, through verifySubmission);
 * any other record (the audit) later, from the log's checkpoint and tiles:
 * options.baseUrl, or options.getCheckpoint and options.getTile. The answer
 * then has keyId null, index (bigint) and, when ok, size (bigint).
 */
export async function verifyReceipt(record, keys, options = {}) {
  const r = parseReceipt(record.receipt);
  if (!r) return { ok: false, form: null, keyId: null, reason: 'the receipt is in no known form' };
  if (r.form === 'v3') return verifyReceiptV3(record, keys, r.index, options);
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
