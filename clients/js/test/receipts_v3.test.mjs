// v3 receipts (docs/API.md, "Receipts"): "v3.<index>", the score's leaf in
// the score log, checked at once from a submission's answer (its log_proof,
// a c2sp.org/tlog-proof@v1, and the seed token) or later from the
// checkpoint and the tiles. Every fixture is built here from the docs: the
// leaf bytes of docs/LOG.md section 7 (its worked example byte for byte),
// seed tokens of docs/API.md's layout, a small tree whose roots and paths
// are computed with node:crypto from RFC 9162's recursive definitions, and
// checkpoints signed with an Ed25519 key made with WebCrypto.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, webcrypto } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import {
  parseLogProof, scoreLeaf, parseReceiptV3, parseSeedToken, verifySubmission, verifyLoggedScore, verifyLogProof,
  decodeLeaf, entryBundle, tilePath, toHex, fromHex, openCheckpoint,
} from '../src/log.mjs';

const subtle = globalThis.crypto?.subtle || webcrypto.subtle;
const sha = (...parts) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p)))).digest();
const b64 = (b) => Buffer.from(b).toString('base64');

// ---- docs/LOG.md section 7's worked example, byte for byte

const EXAMPLE_HEX = ('01 00112233445566778899aabbccddeeff 000000000000002a 00000003 ee6b2800 ' +
  '00000002 0000513a fffffffffffffff9 01 01 000001a24dccd87b ' +
  '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f 05 7069706573').replace(/ /g, '');
const EXAMPLE = {
  score_id: '00112233445566778899aabbccddeeff', player_id: 42, game: 'pipes', level: 3, seed: 4000000000, version: 2,
  date: '2026-12-07', score: -7, completed: true, status: 'held', submitted_at_ms: 1796601600123,
  moves_hash: toHex(Uint8Array.from({ length: 32 }, (_, i) => i)),
};

test('scoreLeaf: docs/LOG.md section 7\'s worked example, byte for byte, and its page says so', () => {
  const b = scoreLeaf(EXAMPLE);
  assert.equal(b.length, 97);
  assert.equal(toHex(b), EXAMPLE_HEX);
  // the same from the day number, from BigInts, from 0/1 flags
  assert.equal(toHex(scoreLeaf({ ...EXAMPLE, date: undefined, day: 20794 })), EXAMPLE_HEX);
  assert.equal(toHex(scoreLeaf({ ...EXAMPLE, player_id: 42n, score: -7n, submitted_at_ms: 1796601600123n, completed: 1, status: 1 })), EXAMPLE_HEX);
  const md = readFileSync(new URL('../../../docs/LOG.md', import.meta.url), 'utf8');
  const shown = /the 97-byte leaf\n\n```\n([^`]*)```/.exec(md);
  assert.ok(shown, 'LOG.md shows the example leaf');
  assert.equal(shown[1].replace(/\s+/g, ''), EXAMPLE_HEX);
  // decodeLeaf reads back what scoreLeaf wrote
  const d = decodeLeaf(b);
  assert.equal(d.board, 'daily:2026-12-07');
  assert.equal(d.status, 'held');
  assert.equal(d.score, -7n);
  // a level score: day -1, its board
  const lvl = scoreLeaf({ ...EXAMPLE, date: null, status: 'ranked', completed: false });
  assert.equal(toHex(lvl.subarray(37, 41)), 'ffffffff');
  assert.equal(lvl[49], 0);
  assert.equal(lvl[50], 0);
  assert.equal(decodeLeaf(lvl).board, 'level:pipes:3');
});

test('scoreLeaf: fields out of their range are refused', () => {
  const bad = {
    'a short score id': { score_id: 'ab' }, 'an uppercase moves hash': { moves_hash: 'AB'.repeat(32) },
    'an empty game': { game: '' }, 'a game with a space': { game: 'pi pes' }, 'a game of 65 bytes': { game: 'x'.repeat(65) },
    'a level past 32 bits': { level: 2 ** 32 }, 'a negative seed': { seed: -1 }, 'a fractional version': { version: 1.5 },
    'a player past 64 bits': { player_id: 1n << 63n }, 'a score as text': { score: '7' }, 'status voided': { status: 'voided' },
    'completed as text': { completed: 'yes' }, 'a date of 1969': { date: '1969-12-31' }, 'a date 2026-02-30': { date: '2026-02-30' },
    'day -2': { date: undefined, day: -2 }, 'a day past 9999-12-31': { date: undefined, day: 2932897 },
    'no submitted_at_ms': { submitted_at_ms: undefined },
  };
  for (const [why, change] of Object.entries(bad)) assert.throws(() => scoreLeaf({ ...EXAMPLE, ...change }), why);
});

// ---- c2sp.org/tlog-proof@v1

const H = (i) => b64(sha(Buffer.from([i])));
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

test('parseLogProof: the C2SP form, strictly', () => {
  const cp = 'log.example/x\n3\n' + H(9) + '\n\n\u2014 log.example/x AAAA\n';
  const p = parseLogProof(`c2sp.org/tlog-proof@v1\nindex 2\n${H(1)}\n${H(2)}\n\n${cp}`);
  assert.equal(p.index, 2n);
  assert.equal(p.proof.length, 2);
  assert.equal(b64(p.proof[1]), H(2));
  assert.equal(p.extra, null);
  assert.equal(p.checkpoint, cp);
  // the optional extra line, and an empty proof (a tree of one leaf)
  const e = parseLogProof(`c2sp.org/tlog-proof@v1\nextra ${b64('hi')}\nindex 0\n\n${cp}`);
  assert.equal(Buffer.from(e.extra).toString(), 'hi');
  assert.deepEqual(e.proof, []);
  assert.equal(parseLogProof(`c2sp.org/tlog-proof@v1\nindex 9223372036854775807\n\n${cp}`).index, (1n << 63n) - 1n);
  const refused = {
    'another header': `c2sp.org/tlog-proof@v2\nindex 2\n\n${cp}`,
    'a header with a space': `c2sp.org/tlog-proof@v1 \nindex 2\n\n${cp}`,
    'no index': `c2sp.org/tlog-proof@v1\n${H(1)}\n\n${cp}`,
    'a leading zero': `c2sp.org/tlog-proof@v1\nindex 02\n\n${cp}`,
    'a negative index': `c2sp.org/tlog-proof@v1\nindex -1\n\n${cp}`,
    'an index of 2^63': `c2sp.org/tlog-proof@v1\nindex 9223372036854775808\n\n${cp}`,
    'two spaces': `c2sp.org/tlog-proof@v1\nindex  2\n\n${cp}`,
    'extra after index': `c2sp.org/tlog-proof@v1\nindex 2\nextra ${b64('hi')}\n\n${cp}`,
    'extra not base64': `c2sp.org/tlog-proof@v1\nextra !!\nindex 2\n\n${cp}`,
    'a 31-byte hash': `c2sp.org/tlog-proof@v1\nindex 2\n${b64(new Uint8Array(31))}\n\n${cp}`,
    'a 33-byte hash': `c2sp.org/tlog-proof@v1\nindex 2\n${b64(new Uint8Array(33))}\n\n${cp}`,
    'unpadded base64': `c2sp.org/tlog-proof@v1\nindex 2\n${H(1).replace(/=$/, '')}\n\n${cp}`,
    'base64url': `c2sp.org/tlog-proof@v1\nindex 2\n${Buffer.from(sha('x')).toString('base64url')}=\n\n${cp}`.replace(/[+/]/g, '-'),
    'non-canonical padding bits': `c2sp.org/tlog-proof@v1\nindex 2\n${H(1).slice(0, 42)}${B64[B64.indexOf(H(1)[42]) | 1]}=\n\n${cp}`,
    'no blank line': `c2sp.org/tlog-proof@v1\nindex 2\n${H(1)}`,
    'no checkpoint': `c2sp.org/tlog-proof@v1\nindex 2\n${H(1)}\n\n`,
    '65 hashes': `c2sp.org/tlog-proof@v1\nindex 2\n${Array(65).fill(H(1)).join('\n')}\n\n${cp}`,
    'CRLF': `c2sp.org/tlog-proof@v1\r\nindex 2\r\n\r\n${cp}`,
  };
  for (const [why, text] of Object.entries(refused)) assert.throws(() => parseLogProof(text), Error, why);
  assert.throws(() => parseLogProof(null), TypeError);
});

test('parseReceiptV3: "v3.<index>", decimal without leading zeros', () => {
  assert.equal(parseReceiptV3('v3.0'), 0n);
  assert.equal(parseReceiptV3('v3.1234'), 1234n);
  for (const bad of ['v3.', 'v3.01', 'v3.-1', 'v3.1.2', 'v2.1', 'V3.1', 'v3.1 ', 'v3.9223372036854775808', 'v3.0x1', null, 3]) {
    assert.equal(parseReceiptV3(bad), null, String(bad));
  }
});

// ---- seed tokens (docs/API.md, POST /v1/seeds): st1. + base64url(payload || 32-byte MAC)

function seedToken({ keyId = 3, player = 42n, game = 'pipes', level = 3, seed = 4000000000, version = 2, day = -1 } = {}) {
  const name = Buffer.from(game);
  const b = Buffer.alloc(1 + 4 + 8 + 1 + name.length + 2 + 4 + 2 + 8 + 8 + 4 + 16 + 32);
  let at = 0;
  b.writeUInt8(1, at); at += 1;
  b.writeUInt32BE(keyId, at); at += 4;
  b.writeBigInt64BE(BigInt(player), at); at += 8;
  b.writeUInt8(name.length, at); at += 1;
  name.copy(b, at); at += name.length;
  b.writeUInt16BE(level, at); at += 2;
  b.writeUInt32BE(seed, at); at += 4;
  b.writeUInt16BE(version, at); at += 2;
  b.writeBigInt64BE(1796601000000n, at); at += 8;
  b.writeBigInt64BE(1796604600000n, at); at += 8;
  b.writeInt32BE(day, at); at += 4;
  b.fill(0x5a, at); // nonce and a MAC nobody here can check
  return `st1.${b.toString('base64url')}`;
}

test('parseSeedToken: docs/API.md\'s layout', () => {
  const t = parseSeedToken(seedToken({ day: 20794 }));
  assert.deepEqual({ ...t }, {
    format: 1, key_id: 3, player_id: 42n, game: 'pipes', level: 3, seed: 4000000000, version: 2,
    issued_at_ms: 1796601000000n, expires_at_ms: 1796604600000n, day: 20794, date: '2026-12-07',
  });
  assert.equal(parseSeedToken(seedToken()).date, undefined);
  const good = seedToken();
  assert.throws(() => parseSeedToken(good.replace('st1.', 'st2.')));
  assert.throws(() => parseSeedToken(good.slice(0, -2)));
  assert.throws(() => parseSeedToken(`${good}AA`));
  assert.throws(() => parseSeedToken(`st1.${Buffer.from([2, ...Buffer.from(good.slice(4), 'base64url').subarray(1)]).toString('base64url')}`), /format 2/);
});

// ---- a small log: leaves, tree hashes (RFC 9162, recursively), tiles, a signed checkpoint

const leafHashOf = (e) => sha([0], e);
const nodeHashOf = (l, r) => sha([1], l, r);
const k2 = (n) => { let k = 1; while (k * 2 < n) k *= 2; return k; };
function mth(hs) {
  if (hs.length === 1) return hs[0];
  const k = k2(hs.length);
  return nodeHashOf(mth(hs.slice(0, k)), mth(hs.slice(k)));
}
function pathOf(m, hs) {
  if (hs.length === 1) return [];
  const k = k2(hs.length);
  return m < k ? [...pathOf(m, hs.slice(0, k)), mth(hs.slice(k))] : [...pathOf(m - k, hs.slice(k)), mth(hs.slice(0, k))];
}

const ORIGIN = 'scores.test/v1/log';

async function makeKey(name) {
  const kp = await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const pub = new Uint8Array(await subtle.exportKey('raw', kp.publicKey));
  const id = sha(Buffer.from(name), [0x0a, 0x01], pub).subarray(0, 4);
  const vkey = `${name}+${toHex(id)}+${b64(Buffer.concat([Buffer.from([1]), pub]))}`;
  const signNote = async (text) => {
    const sig = new Uint8Array(await subtle.sign({ name: 'Ed25519' }, kp.privateKey, Buffer.from(text)));
    return `\u2014 ${name} ${b64(Buffer.concat([id, sig]))}\n`;
  };
  return { name, vkey, signNote };
}

async function checkpointOf(key, { origin = ORIGIN, size, root, extraSigners = [] }) {
  const text = `${origin}\n${size}\n${b64(root)}\n`;
  let sigs = await key.signNote(text);
  for (const k of extraSigners) sigs += await k.signNote(text);
  return `${text}\n${sigs}`;
}

const TOKEN_FIELDS = { player: 77n, game: 'schulte', level: 5, seed: 3715984154, version: 3 };
const TARGET = 5; // the score's index in a log of 7 leaves

function answerFields(over = {}) {
  return {
    verified: true, score_id: '5f0c2a9e3b7d4c1a8e6f0b2d9c4a7e13', score: 1840, completed: true, status: 'ranked', rank: 1, best: true,
    moves_hash: '50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c', submitted_at_ms: 1796220187123,
    result: { score: 1840, completed: true }, ...over,
  };
}

/** A log of 7 leaves (actions and scores) whose leaf 5 is the answer's score; everything a test needs. */
async function fixture({ date = null, status = 'ranked', key } = {}) {
  key ||= await makeKey(ORIGIN);
  const day = date ? Math.round(Date.parse(`${date}T00:00:00Z`) / 86400000) : -1;
  const token = seedToken({ ...TOKEN_FIELDS, day });
  const answer = answerFields({ status, ...(date ? { date } : {}), receipt: `v3.${TARGET}` });
  const audit = {
    score_id: answer.score_id, player_id: Number(TOKEN_FIELDS.player), name: 'ann', game: TOKEN_FIELDS.game, level: TOKEN_FIELDS.level,
    seed: TOKEN_FIELDS.seed, version: TOKEN_FIELDS.version, score: answer.score, completed: answer.completed, status,
    submitted_at: new Date(answer.submitted_at_ms).toISOString(), submitted_at_ms: answer.submitted_at_ms,
    moves_hash: answer.moves_hash, receipt: answer.receipt, ...(date ? { date } : {}),
  };
  // the leaf, written here from the section 7 table (not with scoreLeaf)
  const g = Buffer.from(TOKEN_FIELDS.game);
  const leaf = Buffer.alloc(92 + g.length);
  leaf[0] = 1;
  Buffer.from(answer.score_id, 'hex').copy(leaf, 1);
  leaf.writeBigInt64BE(TOKEN_FIELDS.player, 17);
  leaf.writeUInt32BE(TOKEN_FIELDS.level, 25);
  leaf.writeUInt32BE(TOKEN_FIELDS.seed, 29);
  leaf.writeUInt32BE(TOKEN_FIELDS.version, 33);
  leaf.writeInt32BE(day, 37);
  leaf.writeBigInt64BE(BigInt(answer.score), 41);
  leaf[49] = 1;
  leaf[50] = status === 'held' ? 1 : 0;
  leaf.writeBigInt64BE(BigInt(answer.submitted_at_ms), 51);
  Buffer.from(answer.moves_hash, 'hex').copy(leaf, 59);
  leaf[91] = g.length;
  g.copy(leaf, 92);
  const other = (i) => Buffer.concat([Buffer.from([0x04]), Buffer.alloc(8, i), Buffer.alloc(8, i), Buffer.alloc(8, i)]); // ban leaves
  const entries = [other(1), other(2), Buffer.from(scoreLeaf(EXAMPLE)), other(3), other(4), leaf, other(5)];
  const hashes = entries.map(leafHashOf);
  const size = entries.length;
  const root = mth(hashes);
  const proofText = (index = TARGET, path = pathOf(TARGET, hashes), cp) =>
    `c2sp.org/tlog-proof@v1\nindex ${index}\n${path.map((h) => `${b64(h)}\n`).join('')}\n${cp}`;
  const checkpoint = await checkpointOf(key, { size, root });
  answer.log_proof = proofText(TARGET, pathOf(TARGET, hashes), checkpoint);
  const tiles = new Map([
    [`tile/0/000.p/${size}`, Buffer.concat(hashes)],
    [`tile/entries/000.p/${size}`, Buffer.from(entryBundle(entries))],
  ]);
  const fetched = [];
  const getTile = async (path) => {
    fetched.push(path);
    if (!tiles.has(path)) throw new Error(`404 ${path}`);
    return new Uint8Array(tiles.get(path));
  };
  return { key, token, answer, audit, leaf, entries, hashes, size, root, checkpoint, proofText, tiles, getTile, fetched };
}

test('the fixture\'s own checks: a tree of 7 leaves, its tile paths, a checkpoint that opens', async () => {
  const f = await fixture();
  assert.equal(tilePath({ level: 0, index: 0, width: 7 }), 'tile/0/000.p/7');
  assert.equal(pathOf(TARGET, f.hashes).length, 3);
  const cp = await openCheckpoint(f.checkpoint, f.key.vkey, ORIGIN);
  assert.equal(cp.size, 7n);
  assert.equal(toHex(cp.root), f.root.toString('hex'));
});

test('verifySubmission: a level score and a daily, ranked and held, from the answer and the seed token', async () => {
  for (const opts of [{}, { date: '2026-12-02' }, { status: 'held' }, { date: '2026-12-02', status: 'held' }]) {
    const f = await fixture(opts);
    const r = await verifySubmission({ answer: f.answer, token: { seed_token: f.token, game: 'schulte', level: 5, seed: 3715984154, version: 3 }, verifierKey: f.key.vkey, origin: ORIGIN });
    assert.equal(r.index, 5n);
    assert.equal(r.size, 7n);
    assert.equal(toHex(r.root), f.root.toString('hex'));
    // the token alone, as a string; the key parsed, or in a list beside others
    await verifySubmission({ answer: f.answer, token: f.token, verifierKey: [(await makeKey(ORIGIN)).vkey, f.key.vkey], origin: ORIGIN });
  }
});

test('verifySubmission: a change to any field, the index, a proof hash, the checkpoint, the key or the origin is refused', async () => {
  const f = await fixture({ date: '2026-12-02' });
  const ok = { answer: f.answer, token: f.token, verifierKey: f.key.vkey, origin: ORIGIN };
  const refuse = async (why, args, pattern = /./) => {
    await assert.rejects(verifySubmission({ ...ok, ...args }), pattern, why);
  };
  // the answer's fields
  for (const [field, value] of Object.entries({
    score_id: 'ff'.repeat(16), score: 1841, completed: false, status: 'held', submitted_at_ms: f.answer.submitted_at_ms + 1,
    moves_hash: '00'.repeat(32), date: '2026-12-03',
  })) {
    await refuse(`answer.${field}`, { answer: { ...f.answer, [field]: value } });
  }
  await refuse('no date on a daily', { answer: { ...f.answer, date: undefined } }, /date/);
  await refuse('status voided', { answer: { ...f.answer, status: 'voided' } }, /status/);
  // the token's fields
  const day = 20789; // 2026-12-02
  for (const [field, value] of Object.entries({ player: 78n, game: 'pipes', level: 6, seed: 3715984155, version: 2 })) {
    await refuse(`token.${field}`, { token: seedToken({ ...TOKEN_FIELDS, day, [field]: value }) }, /not included/);
  }
  await refuse('a level token for a daily answer', { token: seedToken({ ...TOKEN_FIELDS }) }, /date/);
  await refuse('a seed answer that disagrees with its token', { token: { seed_token: f.token, level: 6 } }, /level/);
  await refuse('no token', { token: undefined }, /seed token/);
  // the receipt and the proof's index
  await refuse('receipt v3.4', { answer: { ...f.answer, receipt: 'v3.4' } }, /index/);
  await refuse('a v2 receipt', { answer: { ...f.answer, receipt: 'v2.1.abc' } }, /not a v3 receipt/);
  await refuse('no log_proof (a retry)', { answer: { ...f.answer, log_proof: null } }, /no log_proof/);
  for (const index of [4, 6, 7, 3]) {
    await refuse(`proof index ${index}`, { answer: { ...f.answer, receipt: `v3.${index}`, log_proof: f.proofText(index, pathOf(TARGET, f.hashes), f.checkpoint) } },
      index === 7 ? /not in the checkpoint's tree/ : /not included/);
  }
  // every proof hash, one bit each; a hash dropped, one added
  const path = pathOf(TARGET, f.hashes);
  for (let i = 0; i < path.length; i++) {
    const p = path.map((h) => Buffer.from(h));
    p[i][7] ^= 0x10;
    await refuse(`proof hash ${i}`, { answer: { ...f.answer, log_proof: f.proofText(TARGET, p, f.checkpoint) } }, /not included/);
  }
  await refuse('a hash dropped', { answer: { ...f.answer, log_proof: f.proofText(TARGET, path.slice(0, -1), f.checkpoint) } }, /not included/);
  await refuse('a hash added', { answer: { ...f.answer, log_proof: f.proofText(TARGET, [...path, path[0]], f.checkpoint) } }, /not included/);
  // the checkpoint: its signed text changed (size, root), or signed over another root or size
  const withCp = (cp) => ({ answer: { ...f.answer, log_proof: f.proofText(TARGET, path, cp) } });
  await refuse('the size changed', withCp(f.checkpoint.replace('\n7\n', '\n8\n')), /does not verify/);
  await refuse('the root changed', withCp(f.checkpoint.replace(b64(f.root), b64(sha('x')))), /does not verify/);
  await refuse('a signed checkpoint of another root', withCp(await checkpointOf(f.key, { size: 7, root: sha('x') })), /not included/);
  await refuse('a signed checkpoint of size 6', withCp(await checkpointOf(f.key, { size: 6, root: f.root })), /not included/);
  await refuse('a signed checkpoint of size 5', withCp(await checkpointOf(f.key, { size: 5, root: f.root })), /not in the checkpoint's tree/);
  // LOG.md section 3: the proof pins the size only through its shape; index 5's path in 7 leaves is its
  // path in 8 (the same right edge), so only the signature vouches for the size.
  await verifySubmission({ ...ok, ...withCp(await checkpointOf(f.key, { size: 8, root: f.root })) });
  await refuse('a signature line cut', withCp(f.checkpoint.slice(0, -6) + '\n'));
  await refuse('an extension line', withCp(await (async () => {
    const text = `${ORIGIN}\n7\n${b64(f.root)}\nextension\n`;
    return `${text}\n${await f.key.signNote(text)}`;
  })()), /lines/);
  // the origin and the key
  await refuse('another origin expected', { origin: 'scores.other/v1/log' }, /origin/);
  await refuse('no origin', { origin: undefined }, /origin/);
  const stranger = await makeKey(ORIGIN);
  await refuse('another key of the same name', { verifierKey: stranger.vkey }, /no signature by a known key/);
  await refuse('a malformed verifier key', { verifierKey: 'junk' });
  // a checkpoint of the right origin signed by a key named otherwise, which the verifier was given
  const named = await makeKey('scores.test/other');
  await refuse('a key not named for the origin', { verifierKey: named.vkey, ...withCp(await checkpointOf(named, { size: 7, root: f.root })) },
    /not by a key named for the log's origin/);
  // a checkpoint of another origin, signed by that origin's key
  const elsewhere = await makeKey('elsewhere/log');
  await refuse('another log\'s checkpoint', { verifierKey: [f.key.vkey, elsewhere.vkey], ...withCp(await checkpointOf(elsewhere, { origin: 'elsewhere/log', size: 7, root: f.root })) }, /origin "elsewhere\/log"/);
  // and still good: a cosignature by a key nobody asked for is skipped
  const witness = await makeKey('witness.example');
  await verifySubmission({ ...ok, ...withCp(await checkpointOf(f.key, { size: 7, root: f.root, extraSigners: [witness] })) });
});

test('verifyLogProof: a leaf\'s bytes against a proof, with or without the receipt\'s index', async () => {
  const f = await fixture();
  const r = await verifyLogProof({ logProof: f.answer.log_proof, leaf: f.leaf, verifierKey: f.key.vkey, origin: ORIGIN });
  assert.equal(r.index, 5n);
  await verifyLogProof({ logProof: parseLogProof(f.answer.log_proof), leaf: f.leaf, index: 5, verifierKey: f.key.vkey, origin: ORIGIN });
  await assert.rejects(verifyLogProof({ logProof: f.answer.log_proof, leaf: f.leaf, index: 4n, verifierKey: f.key.vkey, origin: ORIGIN }), /index/);
  await assert.rejects(verifyLogProof({ logProof: f.answer.log_proof, leaf: f.entries[4], verifierKey: f.key.vkey, origin: ORIGIN }), /not included/);
});

test('verifyLoggedScore: the audit record later, from the checkpoint and the tiles', async () => {
  for (const opts of [{}, { date: '2026-12-02', status: 'held' }]) {
    const f = await fixture(opts);
    const getCheckpoint = async () => f.checkpoint;
    const r = await verifyLoggedScore({ score: f.audit, getCheckpoint, getTile: f.getTile, verifierKey: f.key.vkey, origin: ORIGIN });
    assert.equal(r.index, 5n);
    assert.equal(r.size, 7n);
    assert.equal(r.leaf.score_id, f.audit.score_id);
    assert.deepEqual(f.fetched.sort(), ['tile/0/000.p/7', 'tile/entries/000.p/7']);
    // status is the one at the commit: an operator's later approve or void does not change the leaf
    for (const status of ['ranked', 'held', 'voided']) {
      await verifyLoggedScore({ score: { ...f.audit, status }, getCheckpoint, getTile: f.getTile, verifierKey: f.key.vkey, origin: ORIGIN });
    }
    // through fetch and a base URL
    const served = async (url) => {
      const path = url.replace('https://scores.test/v1/log/', '');
      if (path === 'checkpoint') return new Response(f.checkpoint);
      return f.tiles.has(path) ? new Response(f.tiles.get(path)) : new Response('{}', { status: 404 });
    };
    await verifyLoggedScore({ score: f.audit, baseUrl: 'https://scores.test/', fetch: served, verifierKey: f.key.vkey, origin: ORIGIN });
  }
});

test('verifyLoggedScore: any field changed, another index, a tampered tile, checkpoint, key or origin is refused', async () => {
  const f = await fixture({ date: '2026-12-02' });
  const ok = { score: f.audit, getCheckpoint: async () => f.checkpoint, getTile: f.getTile, verifierKey: f.key.vkey, origin: ORIGIN };
  const refuse = (why, args, pattern = /./) => assert.rejects(verifyLoggedScore({ ...ok, ...args }), pattern, why);
  for (const [field, value] of Object.entries({
    score_id: 'ff'.repeat(16), player_id: 78, game: 'pipes', level: 6, seed: 1, version: 2, date: '2026-12-03', score: 1841,
    completed: false, submitted_at_ms: f.audit.submitted_at_ms - 1, moves_hash: '00'.repeat(32),
  })) {
    await refuse(field, { score: { ...f.audit, [field]: value } }, new RegExp(`has ${field} `));
    if (field !== 'date') await refuse(`no ${field}`, { score: { ...f.audit, [field]: undefined } }, /has/);
  }
  await refuse('no date on a daily', { score: { ...f.audit, date: undefined } }, /has date/);
  await refuse('a number as text', { score: { ...f.audit, score: '1840' } }, /has score/);
  // the index: another score's leaf, an action's, past the tree
  await refuse('another score', { score: { ...f.audit, receipt: 'v3.2' } }, /has score_id/);
  await refuse('a ban leaf', { score: { ...f.audit, receipt: 'v3.4' } }, /a ban leaf/);
  await refuse('past the tree', { score: { ...f.audit, receipt: 'v3.7' } }, /not in the latest checkpoint's tree/);
  await refuse('not v3', { score: { ...f.audit, receipt: 'v2.1.x' } }, /not a v3 receipt/);
  // tiles: an entry changed in the bundle, a hash of the hash tile changed
  const bundle = (entries) => Buffer.from(entryBundle(entries));
  const tampered = (path, bytes) => async (p) => (p === path ? new Uint8Array(bytes) : f.getTile(p));
  const changedLeaf = Buffer.from(f.leaf);
  changedLeaf[45] ^= 1; // the score
  await refuse('a changed entry', { getTile: tampered('tile/entries/000.p/7', bundle([...f.entries.slice(0, 5), changedLeaf, f.entries[6]])) }, /not included/);
  const hashTile = Buffer.from(f.tiles.get('tile/0/000.p/7'));
  hashTile[32 * 4 + 3] ^= 1; // the sibling's hash
  await refuse('a changed hash tile', { getTile: tampered('tile/0/000.p/7', hashTile) }, /not included/);
  await refuse('a short hash tile', { getTile: tampered('tile/0/000.p/7', hashTile.subarray(32)) }, /bytes/);
  await refuse('a short bundle', { getTile: tampered('tile/entries/000.p/7', bundle(f.entries.slice(0, 6))) }, /entries/);
  // the checkpoint, the key, the origin
  await refuse('a changed checkpoint', { getCheckpoint: async () => f.checkpoint.replace('\n7\n', '\n6\n') }, /does not verify/);
  await refuse('a signed checkpoint of another root', { getCheckpoint: async () => checkpointOf(f.key, { size: 7, root: sha('y') }) }, /not included/);
  await refuse('another origin', { origin: 'scores.other/v1/log' }, /origin/);
  await refuse('another key', { verifierKey: (await makeKey(ORIGIN)).vkey }, /no signature by a known key/);
  const named = await makeKey('scores.test/other');
  await refuse('a key not named for the origin', { verifierKey: named.vkey, getCheckpoint: async () => checkpointOf(named, { size: 7, root: f.root }) },
    /not by a key named for the log's origin/);
  // a board entry: its few fields, the index given
  const entry = { rank: 1, player_id: 77, name: 'ann', score: 1840, submitted_at: f.audit.submitted_at, score_id: f.audit.score_id };
  await verifyLoggedScore({ ...ok, score: entry, index: 5, partial: true });
  await refuse('a board entry of another score', { score: { ...entry, score: 1 }, index: 5, partial: true }, /has score /);
  await refuse('a board entry without partial', { score: entry, index: 5 }, /has no/);
});

// ---- receipts.mjs: the receipt's prefix picks the check (it imports vendor/, which npm pack and make test build)

const vendored = existsSync(new URL('../vendor/blake2b.js', import.meta.url));

test('verifyReceipt: v3 goes through the log, with GET /v1/keys\'s log_origin and log_verifier_key', { skip: !vendored && 'vendor/ is not built (make test builds it)' }, async () => {
  const { verifyReceipt, parseReceipt, receiptRecord } = await import('../src/receipts.mjs');
  const f = await fixture({ status: 'held' });
  const keys = { keys: [{ key_id: 1, alg: 'Ed25519', public_key: 'x', current: true, log_verifier_key: f.key.vkey }], log_origin: ORIGIN };
  assert.deepEqual(parseReceipt('v3.5'), { form: 'v3', index: 5n, keyId: null, signature: null });
  assert.equal(parseReceipt('v3.05'), null);
  // later, from the tiles
  const later = await verifyReceipt(f.audit, keys, { getCheckpoint: async () => f.checkpoint, getTile: f.getTile });
  assert.deepEqual(later, { form: 'v3', keyId: null, index: 5n, ok: true, size: 7n, reason: 'valid' });
  const bad = await verifyReceipt({ ...f.audit, score: 1 }, keys, { getCheckpoint: async () => f.checkpoint, getTile: f.getTile });
  assert.equal(bad.ok, false);
  assert.match(bad.reason, /has score/);
  // at once, from the answer: with the seed token, or receiptRecord() of it
  assert.equal((await verifyReceipt(f.answer, keys, { token: f.token })).ok, true);
  const seed = { seed_token: f.token, game: 'schulte', level: 5, seed: 3715984154, version: 3 };
  const rec = receiptRecord(77, seed, f.answer);
  assert.equal((await verifyReceipt(rec, keys)).ok, true, (await verifyReceipt(rec, keys)).reason);
  assert.equal((await verifyReceipt({ ...rec, status: 'ranked' }, keys)).ok, false);
  assert.equal((await verifyReceipt(rec, keys.keys)).reason.includes('log_origin'), true);
  assert.equal((await verifyReceipt(rec, keys.keys, { origin: ORIGIN })).ok, true);
  assert.equal((await verifyReceipt(rec, { ...keys, log_origin: 'x/y' })).ok, false);
});
