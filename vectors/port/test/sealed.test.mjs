// The port's sealed dailies (sealed.mjs) against the vectors it wrote and
// against CORE.md's formulas recomputed here step by step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, createHmac } from 'node:crypto';
import { sealedDaily, sealedMessage, checkReveal } from '../sealed.mjs';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'daily-sealed.json');
const cases = JSON.parse(readFileSync(file, 'utf8')).sealed;

test('every case of server/daily-sealed.json', () => {
  assert.ok(cases.length >= 30);
  for (const c of cases) {
    assert.deepEqual(sealedDaily(c.key, c.date), { reveal: c.reveal, commitment: c.commitment, seed: c.seed }, c.name);
    assert.equal(sealedMessage(c.date).toString('utf8'), c.message);
    assert.equal(checkReveal(c.date, c.reveal, c.commitment), c.seed);
  }
});

test('the formulas: 24-byte message, HMAC reveal, big-endian seed, commitment over message and reveal', () => {
  const key = Buffer.alloc(32, 7);
  const m = Buffer.from('replayd-daily:2026-07-28');
  assert.equal(m.length, 24);
  const reveal = createHmac('sha256', key).update(m).digest();
  const d = sealedDaily(key.toString('hex'), '2026-07-28');
  assert.equal(d.reveal, reveal.toString('hex'));
  assert.equal(d.seed, ((reveal[0] << 24) >>> 0) + (reveal[1] << 16) + (reveal[2] << 8) + reveal[3]);
  assert.equal(d.commitment, createHash('sha256').update(Buffer.concat([m, reveal])).digest('hex'));
});

test('a reveal that is not the committed one, or of another date, fails the check', () => {
  const c = cases[0];
  const other = cases.find((o) => o.key === c.key && o.date !== c.date);
  assert.equal(checkReveal(c.date, other.reveal, c.commitment), null);
  assert.equal(checkReveal(other.date, c.reveal, c.commitment), null);
  assert.throws(() => sealedDaily(c.key, '2026-7-28'), RangeError);
  assert.throws(() => sealedDaily('00', c.date), RangeError);
});
