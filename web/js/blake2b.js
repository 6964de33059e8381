// blake2b: BLAKE2b (RFC 7693) without a key, any digest length 1..64, in
// 32-bit halves (JavaScript has no 64-bit integers that are fast). The
// browser has no BLAKE2 of its own; replayd's moves hash is BLAKE2b-256.

// The initialisation vector, each 64-bit word as (low, high).
const IV = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
  0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const v = new Uint32Array(32);
const m = new Uint32Array(32);

// v[a] += v[b] (64-bit, word indices doubled).
function add(a, b) {
  const lo = v[a] + v[b];
  v[a + 1] = v[a + 1] + v[b + 1] + (lo > 0xffffffff ? 1 : 0);
  v[a] = lo;
}

// v[a] += m[i].
function addM(a, i) {
  const lo = v[a] + m[i];
  v[a + 1] = v[a + 1] + m[i + 1] + (lo > 0xffffffff ? 1 : 0);
  v[a] = lo;
}

// v[d] = (v[d] ^ v[a]) rotated right by r (32, 24, 16 or 63).
function xorRot(d, a, r) {
  const lo = v[d] ^ v[a];
  const hi = v[d + 1] ^ v[a + 1];
  if (r === 32) {
    v[d] = hi;
    v[d + 1] = lo;
  } else if (r === 63) {
    v[d] = (lo << 1) | (hi >>> 31);
    v[d + 1] = (hi << 1) | (lo >>> 31);
  } else {
    v[d] = (lo >>> r) | (hi << (32 - r));
    v[d + 1] = (hi >>> r) | (lo << (32 - r));
  }
}

function mix(a, b, c, d, x, y) {
  add(a, b);
  addM(a, x);
  xorRot(d, a, 32);
  add(c, d);
  xorRot(b, c, 24);
  add(a, b);
  addM(a, y);
  xorRot(d, a, 16);
  add(c, d);
  xorRot(b, c, 63);
}

// Compresses one 128-byte block of `buf` into h; `count` is the bytes hashed so far.
function compress(h, buf, count, last) {
  for (let i = 0; i < 16; i++) {
    v[i] = h[i];
    v[i + 16] = IV[i];
  }
  v[24] ^= count >>> 0; // the counter: low 64 bits of 128, as (low, high)
  v[25] ^= Math.floor(count / 0x100000000);
  if (last) {
    v[28] = ~v[28];
    v[29] = ~v[29];
  }
  for (let i = 0; i < 32; i++) {
    m[i] = buf[4 * i] | (buf[4 * i + 1] << 8) | (buf[4 * i + 2] << 16) | (buf[4 * i + 3] << 24);
  }
  for (let r = 0; r < 12; r++) {
    const s = SIGMA[r % 10];
    mix(0, 8, 16, 24, 2 * s[0], 2 * s[1]);
    mix(2, 10, 18, 26, 2 * s[2], 2 * s[3]);
    mix(4, 12, 20, 28, 2 * s[4], 2 * s[5]);
    mix(6, 14, 22, 30, 2 * s[6], 2 * s[7]);
    mix(0, 10, 20, 30, 2 * s[8], 2 * s[9]);
    mix(2, 12, 22, 24, 2 * s[10], 2 * s[11]);
    mix(4, 14, 16, 26, 2 * s[12], 2 * s[13]);
    mix(6, 8, 18, 28, 2 * s[14], 2 * s[15]);
  }
  for (let i = 0; i < 16; i++) h[i] ^= v[i] ^ v[i + 16];
}

/** BLAKE2b of `data` (Uint8Array), `outLen` bytes (1..64). */
export function blake2b(data, outLen = 64) {
  if (!(data instanceof Uint8Array)) throw new TypeError('blake2b: data must be a Uint8Array');
  if (!Number.isInteger(outLen) || outLen < 1 || outLen > 64) throw new RangeError('blake2b: outLen must be 1..64');
  const h = Uint32Array.from(IV);
  h[0] ^= 0x01010000 ^ outLen; // parameter block: digest length, no key, fanout 1, depth 1
  const block = new Uint8Array(128);
  let done = 0;
  // Every full block but the last is compressed as not final.
  while (data.length - done > 128) {
    block.set(data.subarray(done, done + 128));
    done += 128;
    compress(h, block, done, false);
  }
  block.fill(0);
  block.set(data.subarray(done));
  compress(h, block, data.length, true);
  const out = new Uint8Array(outLen);
  for (let i = 0; i < outLen; i++) out[i] = h[i >> 2] >>> (8 * (i & 3));
  return out;
}

export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
