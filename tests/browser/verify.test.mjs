// The viewer's checks without a browser (web/js/verify.js, web/js/blake2b.js
// run in Node as they are): BLAKE2b against RFC 7693 and Node's own, the
// moves hash's byte layout, the receipt texts of v1 and v2 as docs/API.md
// states them, and Ed25519 verification against keys made here with Node's
// crypto, including every way a v2 receipt can be made not to match.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign, webcrypto } from 'node:crypto';
import { webModules } from './web_modules.mjs';

// The pages find WebCrypto as the global crypto, as browsers (and Node 19+)
// have it; Node 18 has it only as node:crypto's webcrypto.
if (!globalThis.crypto) globalThis.crypto = webcrypto;
const web = webModules();
after(() => web.remove());
const { blake2b, toHex } = await web.load('blake2b.js');
const { fromBase64url, movesHash, parseReceipt, receiptMessage, verifyReceipt } = await web.load('verify.js');

const enc = (s) => new TextEncoder().encode(s);

test('BLAKE2b: RFC 7693 appendix A, an independent BLAKE2b-256, and Node at every length to 400', () => {
  assert.equal(toHex(blake2b(enc('abc'), 64)),
    'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1' +
    '7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923');
  // Python's hashlib.blake2b(b'abc', digest_size=32): the digest length is in the parameter block.
  assert.equal(toHex(blake2b(enc('abc'), 32)), 'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319');
  assert.equal(toHex(blake2b(new Uint8Array(0), 32)), '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  let x = 12345;
  for (let n = 0; n <= 400; n++) {
    const data = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      data[i] = x >>> 24;
    }
    assert.equal(toHex(blake2b(data, 64)), createHash('blake2b512').update(data).digest('hex'), `length ${n}`);
  }
  assert.throws(() => blake2b(enc('x'), 0), RangeError);
  assert.throws(() => blake2b('text', 32), TypeError);
});

test('the moves hash: every field in the game\'s order, 32-bit big-endian, negatives as two\'s complement', () => {
  const moves = [{ part: 0, x: 43, y: -2, angle: -450 }, { angle: 800, y: 66, x: 15, part: 1 }];
  const fields = ['part', 'x', 'y', 'angle'];
  const bytes = Buffer.alloc(32);
  [0, 43, -2, -450, 1, 15, 66, 800].forEach((v, i) => bytes.writeInt32BE(v, 4 * i));
  assert.equal(movesHash(fields, moves), toHex(blake2b(new Uint8Array(bytes), 32)));
  // The order of the fields is the game's, not the JSON's.
  assert.notEqual(movesHash(['x', 'part', 'y', 'angle'], moves), movesHash(fields, moves));
  assert.equal(movesHash(['t', 'cell'], []), toHex(blake2b(new Uint8Array(0), 32)));
  assert.throws(() => movesHash(['t', 'cell'], [{ t: 1.5, cell: 0 }]), TypeError);
  assert.throws(() => movesHash(['t', 'cell'], [{ t: 1 }]), TypeError);
});

const audit = {
  score_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', player_id: 42, name: 'ann', game: 'pipes', level: 7,
  seed: 4294967295, version: 1, score: 1980, completed: true, submitted_at: '2026-12-02T13:10:35.123Z',
  submitted_at_ms: 1795957835123, moves_hash: 'ab'.repeat(32),
};

test('receipt texts: v1 and v2 line by line, a daily\'s board and a level\'s', () => {
  assert.equal(receiptMessage('v1', audit),
    `replayd-receipt-v1\n${audit.score_id}\n42\npipes\n7\n4294967295\n1\n1980\n${'ab'.repeat(32)}`);
  assert.equal(receiptMessage('v2', audit),
    `replayd-receipt-v2\n${audit.score_id}\n42\npipes\n7\n4294967295\n1\n1980\n1\nlevel:pipes:7\n1795957835123\n${'ab'.repeat(32)}`);
  const daily = { ...audit, completed: false, score: 0, date: '2026-12-02' };
  assert.equal(receiptMessage('v2', daily),
    `replayd-receipt-v2\n${audit.score_id}\n42\npipes\n7\n4294967295\n1\n0\n0\ndaily:2026-12-02\n1795957835123\n${'ab'.repeat(32)}`);
  // v2 signs fields v1 does not: without them there is no v2 text.
  const { submitted_at_ms: _drop, ...old } = audit;
  assert.doesNotThrow(() => receiptMessage('v1', old));
  assert.throws(() => receiptMessage('v2', old), TypeError);
  assert.throws(() => receiptMessage('v2', { ...audit, completed: 1 }), TypeError);
  assert.throws(() => receiptMessage('v1', { ...audit, score: '1980' }), TypeError);
  assert.throws(() => receiptMessage('v3', audit), TypeError);
});

test('receipt forms are told apart by their text; anything else is refused', () => {
  const sig = Buffer.alloc(64, 7).toString('base64url');
  assert.deepEqual({ ...parseReceipt(`3.${sig}`), signature: null }, { form: 'v1', keyId: 3, signature: null });
  assert.deepEqual({ ...parseReceipt(`v2.12.${sig}`), signature: null }, { form: 'v2', keyId: 12, signature: null });
  assert.deepEqual(parseReceipt(`3.${sig}`).signature, new Uint8Array(64).fill(7));
  for (const bad of ['', '3', `3.${sig}=`, `v2.${sig}`, `v3.1.${sig}`, `x.${sig}`, `3.${sig.slice(1)}`,
    `3.${Buffer.alloc(63).toString('base64url')}`, `-1.${sig}`, `3.${sig}.x`, ` 3.${sig}`, null, 42]) {
    assert.equal(parseReceipt(bad), null, String(bad));
  }
  assert.equal(fromBase64url('a+b/'), null);
  assert.equal(fromBase64url('a'), null);
  assert.deepEqual(fromBase64url('AQID'), new Uint8Array([1, 2, 3]));
});

function keyPair(keyId) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { privateKey, key: { key_id: keyId, alg: 'Ed25519', public_key: publicKey.export({ format: 'jwk' }).x, current: true } };
}

const signed = (privateKey, text) => sign(null, Buffer.from(text), privateKey).toString('base64url');

test('a v2 receipt signed with Node\'s crypto verifies, and any changed signed field fails it', async () => {
  const k = keyPair(7);
  const other = keyPair(8);
  const keys = [other.key, k.key];
  const daily = { ...audit, date: '2026-12-02' };
  for (const a of [audit, daily]) {
    const good = { ...a, receipt: `v2.7.${signed(k.privateKey, receiptMessage('v2', a))}` };
    const r = await verifyReceipt(good, keys);
    assert.deepEqual(r, { form: 'v2', keyId: 7, ok: true, reason: 'valid' });
    const changed = [
      { score: a.score + 1 }, { completed: !a.completed }, { submitted_at_ms: a.submitted_at_ms + 1 },
      { level: a.level + 1 }, { seed: a.seed - 1 }, { version: 2 }, { player_id: 43 }, { game: 'schulte' },
      { moves_hash: 'cd'.repeat(32) }, { score_id: 'ff'.repeat(16) }, a.date ? { date: '2026-12-03' } : { date: '2026-12-02' },
    ];
    for (const c of changed) {
      const v = await verifyReceipt({ ...good, ...c }, keys);
      assert.equal(v.ok, false, `changed ${JSON.stringify(c)}`);
      assert.match(v.reason, /does not match/);
    }
    // Another key's id, an id nobody publishes, the v1 form of the same signature.
    assert.equal((await verifyReceipt({ ...good, receipt: good.receipt.replace('v2.7.', 'v2.8.') }, keys)).ok, false);
    assert.match((await verifyReceipt({ ...good, receipt: good.receipt.replace('v2.7.', 'v2.9.') }, keys)).reason, /no key 9/);
    assert.equal((await verifyReceipt({ ...good, receipt: good.receipt.replace('v2.7.', '7.') }, keys)).ok, false);
  }
});

test('a v1 receipt verifies over its nine lines; v2-only fields do not matter to it', async () => {
  const k = keyPair(1);
  const good = { ...audit, receipt: `1.${signed(k.privateKey, receiptMessage('v1', audit))}` };
  assert.equal((await verifyReceipt(good, [k.key])).ok, true);
  assert.equal((await verifyReceipt({ ...good, completed: false, submitted_at_ms: 1 }, [k.key])).ok, true);
  assert.equal((await verifyReceipt({ ...good, score: 1 }, [k.key])).ok, false);
  // Bad keys are refused with a reason, not thrown.
  assert.match((await verifyReceipt(good, [{ ...k.key, alg: 'RSA' }])).reason, /not an Ed25519 key/);
  assert.match((await verifyReceipt(good, [{ ...k.key, public_key: 'AQID' }])).reason, /not a 32-byte/);
  assert.match((await verifyReceipt(good, null)).reason, /no key 1/);
  assert.match((await verifyReceipt({ ...good, receipt: 'junk' }, [k.key])).reason, /not in a form/);
  // Without WebCrypto the check is not made, and says so.
  const none = await verifyReceipt(good, [k.key], null);
  assert.equal(none.ok, false);
  assert.equal(none.unable, true);
});

// ---- v3 receipts: the score's leaf in the score log, checked through /assets/client/log.mjs

const { parseReceiptV3, verifyLogReceipt } = await web.load('verify.js');

async function logFixture(record) {
  const kp = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const pub = Buffer.from(await crypto.subtle.exportKey('raw', kp.publicKey));
  const origin = 'scores.test/v1/log';
  const id = createHash('sha256').update(Buffer.concat([Buffer.from(origin), Buffer.from([0x0a, 0x01]), pub])).digest().subarray(0, 4);
  const verifierKey = `${origin}+${id.toString('hex')}+${Buffer.concat([Buffer.from([1]), pub]).toString('base64')}`;
  // docs/LOG.md section 7: the record's score leaf at index 1 of 3 leaves (two ban leaves around it)
  const g = Buffer.from(record.game);
  const leaf = Buffer.alloc(92 + g.length);
  leaf[0] = 1;
  Buffer.from(record.score_id, 'hex').copy(leaf, 1);
  leaf.writeBigInt64BE(BigInt(record.player_id), 17);
  leaf.writeUInt32BE(record.level, 25);
  leaf.writeUInt32BE(record.seed, 29);
  leaf.writeUInt32BE(record.version, 33);
  leaf.writeInt32BE(record.date ? Date.parse(`${record.date}T00:00:00Z`) / 86400000 : -1, 37);
  leaf.writeBigInt64BE(BigInt(record.score), 41);
  leaf[49] = record.completed ? 1 : 0;
  leaf.writeBigInt64BE(BigInt(record.submitted_at_ms), 51);
  Buffer.from(record.moves_hash, 'hex').copy(leaf, 59);
  leaf[91] = g.length;
  g.copy(leaf, 92);
  const ban = (i) => Buffer.concat([Buffer.from([4]), Buffer.alloc(24, i)]);
  const entries = [ban(1), leaf, ban(2)];
  const sha = (...p) => createHash('sha256').update(Buffer.concat(p)).digest();
  const hashes = entries.map((e) => sha(Buffer.from([0]), e));
  const root = sha(Buffer.from([1]), sha(Buffer.from([1]), hashes[0], hashes[1]), hashes[2]);
  const text = `${origin}\n3\n${root.toString('base64')}\n`;
  const sig = Buffer.from(await crypto.subtle.sign({ name: 'Ed25519' }, kp.privateKey, Buffer.from(text)));
  const files = {
    checkpoint: `${text}\n\u2014 ${origin} ${Buffer.concat([id, sig]).toString('base64')}\n`,
    'tile/0/000.p/3': Buffer.concat(hashes),
    'tile/entries/000.p/3': Buffer.concat(entries.flatMap((e) => [Buffer.from([0, e.length]), e])),
  };
  const served = [];
  const fetch = async (url) => {
    served.push(url);
    const path = url.replace(/^\/v1\/log\//, '');
    return path in files ? new Response(files[path]) : new Response('{}', { status: 404 });
  };
  return { keys: { log_origin: origin, keys: [{ key_id: 1, alg: 'Ed25519', public_key: 'x', current: true, log_verifier_key: verifierKey }] }, fetch, files, served };
}

test('a v3 receipt: found in the score log through its checkpoint and tiles; any changed field, tile or key fails', async () => {
  assert.equal(parseReceiptV3('v3.1'), 1n);
  for (const bad of ['v3.01', 'v3.', 'v3.1.x', 'v2.1', null]) assert.equal(parseReceiptV3(bad), null, String(bad));
  for (const a of [audit, { ...audit, date: '2026-12-02', status: 'held' }]) {
    const rec = { ...a, status: a.status || 'ranked', receipt: 'v3.1' };
    const f = await logFixture(rec);
    const r = await verifyLogReceipt(rec, f.keys, { fetch: f.fetch });
    assert.deepEqual(r, { form: 'v3', keyId: null, index: 1n, ok: true, size: 3n, reason: 'In the score log at index 1, checkpoint of size 3' });
    assert.deepEqual(f.served.sort(), ['/v1/log/checkpoint', '/v1/log/tile/0/000.p/3', '/v1/log/tile/entries/000.p/3']);
    // status is the one at the commit: a later void does not change the leaf
    assert.equal((await verifyLogReceipt({ ...rec, status: 'voided' }, f.keys, { fetch: f.fetch })).ok, true);
    for (const c of [{ score: rec.score + 1 }, { completed: !rec.completed }, { submitted_at_ms: rec.submitted_at_ms + 1 }, { level: 8 },
      { seed: 1 }, { version: 2 }, { player_id: 43 }, { game: 'schulte' }, { moves_hash: 'cd'.repeat(32) }, { score_id: 'ff'.repeat(16) },
      rec.date ? { date: '2026-12-03' } : { date: '2026-12-02' }, { receipt: 'v3.0' }, { receipt: 'v3.2' }]) {
      const v = await verifyLogReceipt({ ...rec, ...c }, f.keys, { fetch: f.fetch });
      assert.equal(v.ok, false, `changed ${JSON.stringify(c)}`);
      assert.equal(v.unable, undefined);
    }
    assert.match((await verifyLogReceipt({ ...rec, receipt: 'v3.3' }, f.keys, { fetch: f.fetch })).reason, /not in the latest checkpoint's tree of 3/);
    // a tile changed on the way, a checkpoint changed, another key, another origin, no key published
    const changed = (name, mutate) => async (url) => {
      const res = await f.fetch(url);
      if (!url.endsWith(name)) return res;
      const b = Buffer.from(await res.arrayBuffer());
      mutate(b);
      return new Response(b);
    };
    assert.match((await verifyLogReceipt(rec, f.keys, { fetch: changed('tile/entries/000.p/3', (b) => { b[2 + 25 + 2 + 45] ^= 1; }) })).reason, /not included/);
    assert.match((await verifyLogReceipt(rec, f.keys, { fetch: changed('tile/0/000.p/3', (b) => { b[70] ^= 1; }) })).reason, /not included/);
    assert.match((await verifyLogReceipt(rec, f.keys, { fetch: changed('checkpoint', (b) => { b[b.indexOf('\n3\n') + 1] = 0x34; }) })).reason, /does not verify/);
    const other = await logFixture(rec);
    assert.match((await verifyLogReceipt(rec, other.keys, { fetch: f.fetch })).reason, /no signature by a known key/);
    assert.match((await verifyLogReceipt(rec, { ...f.keys, log_origin: 'scores.test/other' }, { fetch: f.fetch })).reason, /origin/);
    assert.match((await verifyLogReceipt(rec, { keys: f.keys.keys }, { fetch: f.fetch })).reason, /no log_origin/);
    assert.match((await verifyLogReceipt(rec, { ...f.keys, keys: [{ ...f.keys.keys[0], log_verifier_key: undefined }] }, { fetch: f.fetch })).reason, /no log_verifier_key/);
    assert.match((await verifyLogReceipt(rec, f.keys, { fetch: async () => new Response('{}', { status: 503 }) })).reason, /answers 503/);
    const none = await verifyLogReceipt(rec, f.keys, { fetch: f.fetch, subtle: null });
    assert.equal(none.unable, true);
  }
  // v1 and v2 are as they were: verifyReceipt still refuses a v3 text as a form it signs
  assert.equal(parseReceipt('v3.1'), null);
});
