// Sealed dailies (docs/CORE.md, "Sealed dailies"): a date's seed from the
// date and a deployment secret, and the commitment published before the
// day. Written from CORE.md alone; node:crypto gives HMAC-SHA-256 and
// SHA-256 (OpenSSL's, not the server's libsodium).
import { createHash, createHmac } from 'node:crypto';

/** M = "replayd-daily:" + "YYYY-MM-DD" (zero padded), as bytes. */
export function sealedMessage(date) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not YYYY-MM-DD: ${date}`);
  return Buffer.from(`replayd-daily:${date}`, 'utf8');
}

/**
 * The sealed daily of `date` under the 32-byte secret `keyHex` (hex):
 * reveal = HMAC-SHA-256(key, M), seed = reveal[0..3] big-endian,
 * commitment = SHA-256(M || reveal); hex strings and an unsigned seed.
 */
export function sealedDaily(keyHex, date) {
  const key = Buffer.from(keyHex, 'hex');
  if (key.length !== 32) throw new RangeError('the daily secret is 32 bytes');
  const m = sealedMessage(date);
  const reveal = createHmac('sha256', key).update(m).digest();
  const commitment = createHash('sha256').update(m).update(reveal).digest();
  return { reveal: reveal.toString('hex'), commitment: commitment.toString('hex'), seed: reveal.readUInt32BE(0) };
}

/** What a player checks once the day opens: the reveal matches the commitment; its seed. */
export function checkReveal(date, revealHex, commitmentHex) {
  const reveal = Buffer.from(revealHex, 'hex');
  const c = createHash('sha256').update(sealedMessage(date)).update(reveal).digest('hex');
  if (reveal.length !== 32 || c !== commitmentHex) return null;
  return reveal.readUInt32BE(0);
}
