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
