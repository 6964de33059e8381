// log: an independent verifier of the public score log (docs/LOG.md), written
// from that page and the C2SP specs it cites (tlog-checkpoint, signed-note,
// tlog-tiles) and RFC 9162, never from the server's code.
//
// Conventions of this module:
// - hashes are Uint8Array(32); where a hash is an input, a 64-digit lowercase
//   hex string is accepted too;
// - tree sizes, leaf indices and tile indices are BigInt in every answer;
//   inputs may be a BigInt or a non-negative safe integer Number;
// - 64-bit fields of decoded leaves are always BigInt (never Number, even
//   when small: one type per field); 32-bit fields are Number;
// - entry bundles are hash tiles of level -1 (tilePath/parseTilePath), and
//   parseTilePath's answer also says entries: true;
// - SHA-256 and Ed25519 come from WebCrypto (the global crypto.subtle, or
//   node:crypto's webcrypto on Node 18), so hashing functions are async.

const MAX_SIZE = 1n << 63n;           // section 2: sizes go up to 2^63 leaves
const TILE_WIDTH = 256;
const HASH = 32;
const MAX_NOTE = 16384;                // section 5: the server's limits
const MAX_SIGNATURES = 100;
const KINDS = { 1: 'score', 2: 'void', 3: 'restore', 4: 'ban', 5: 'unban', 6: 'rename', 7: 'approve', 8: 'hold' };

// ---------------------------------------------------------------- crypto

let cryptoFound;
async function findCrypto() {
  if (cryptoFound === undefined) {
    cryptoFound = { subtle: globalThis.crypto?.subtle || null };
    if (typeof process !== 'undefined' && process.versions?.node) {
      // The import is dynamic so a bundler for the browser never needs node:crypto.
      try {
        const nc = await import('node:crypto');
        cryptoFound.subtle ||= nc.webcrypto?.subtle || null;
        cryptoFound.createHash = nc.createHash; // Node's hashing is synchronous and much faster
      } catch {
        // no node:crypto: WebCrypto only
      }
    }
  }
  if (!cryptoFound.subtle && !cryptoFound.createHash) {
    throw new Error('replayd-client log: no WebCrypto (globalThis.crypto.subtle, or node:crypto webcrypto on Node.js 18+)');
  }
  return cryptoFound;
}

async function sha256(...parts) {
  const c = await findCrypto();
  if (c.createHash) {
    const h = c.createHash('sha256');
    for (const p of parts) h.update(p);
    return new Uint8Array(h.digest());
  }
  return new Uint8Array(await c.subtle.digest('SHA-256', concat(...parts)));
}

async function ed25519Verify(publicKey, signature, message) {
  const { subtle } = await findCrypto();
  if (!subtle) throw new Error('replayd-client log: no WebCrypto Ed25519');
  const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
  return subtle.verify({ name: 'Ed25519' }, key, signature, message);
}

// ---------------------------------------------------------------- bytes

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += HEX[b];
  return s;
}

/** Bytes of lowercase or uppercase hex; throws on anything else. */
export function fromHex(text) {
  if (typeof text !== 'string' || text.length % 2 || !/^[0-9a-fA-F]*$/.test(text)) throw new TypeError('not hex');
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function equal(a, b) {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}

function asBytes(x) {
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  if (typeof x === 'string') return new TextEncoder().encode(x);
  throw new TypeError('expected bytes (Uint8Array, ArrayBuffer or a string)');
}

/** A 32-byte hash from a Uint8Array or 64 hex digits; null for anything else. */
function asHash(x) {
  if (x instanceof Uint8Array) return x.length === HASH ? x : null;
  if (typeof x === 'string' && /^[0-9a-f]{64}$/.test(x)) return fromHex(x);
  return null;
}

/** A BigInt from a BigInt or a non-negative safe integer; null otherwise. */
function asCount(x) {
  if (typeof x === 'bigint') return x >= 0n ? x : null;
  if (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0) return BigInt(x);
  return null;
}

function b64encode(bytes) {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Bytes of standard, padded base64 in its one canonical form; null otherwise. */
function b64decodeCanonical(text) {
  if (typeof text !== 'string' || text.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  let bin;
  try {
    bin = atob(text);
  } catch {
    return null;
  }
  const out = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return b64encode(out) === text ? out : null; // refuses non-zero padding bits
}

// ---------------------------------------------------------------- section 1

/** SHA-256(0x00 || entry). */
export async function leafHash(bytes) {
  return sha256(new Uint8Array([0]), asBytes(bytes));
}

/** SHA-256(0x01 || left || right). */
export async function nodeHash(left, right) {
  const l = asHash(left);
  const r = asHash(right);
  if (!l || !r) throw new TypeError('nodeHash: left and right must be 32-byte hashes');
  return sha256(new Uint8Array([1]), l, r);
}

/** The tree hash of no leaves: SHA-256(""). */
export async function emptyTreeHash() {
  return sha256(new Uint8Array(0));
}

// ---------------------------------------------------------------- section 3

function asProof(proof) {
  if (!Array.isArray(proof) || proof.length > 64) return null;
  const out = proof.map(asHash);
  return out.every(Boolean) ? out : null;
}

/**
 * RFC 9162 2.1.3.2: true when `proof` proves leaf `index` (with hash
 * `leafHash`) is in the tree of `size` leaves with root `root`. Never throws.
 */
export async function verifyInclusion(args) {
  try {
    const { index, size, leafHash: leaf, proof, root } = args;
    const m = asCount(index);
    const n = asCount(size);
    const hash = asHash(leaf);
    const want = asHash(root);
    const path = asProof(proof);
    if (m === null || n === null || !hash || !want || !path || n > MAX_SIZE || m >= n) return false;
    let fn = m;
    let sn = n - 1n;
    let r = hash;
    for (const p of path) {
      if (sn === 0n) return false;
      if ((fn & 1n) === 1n || fn === sn) {
        r = await nodeHash(p, r);
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      } else {
        r = await nodeHash(r, p);
      }
      fn >>= 1n;
      sn >>= 1n;
    }
    return sn === 0n && equal(r, want);
  } catch {
    return false;
  }
}

/**
 * RFC 9162 2.1.4.2: true when `proof` proves the tree of `oldSize` leaves
 * (root `oldRoot`) is a prefix of the tree of `newSize` leaves (root
 * `newRoot`). oldSize 0 (outside the spec's 0 < m <= n): true for an empty
 * proof when oldRoot is the empty tree's hash. Never throws.
 */
export async function verifyConsistency(args) {
  try {
    const { oldSize, newSize, oldRoot, newRoot, proof } = args;
    const m = asCount(oldSize);
    const n = asCount(newSize);
    const first = asHash(oldRoot);
    const second = asHash(newRoot);
    let path = asProof(proof);
    if (m === null || n === null || !first || !second || !path || n > MAX_SIZE || m > n) return false;
    if (m === 0n) return path.length === 0 && equal(first, await emptyTreeHash());
    if (m === n) return path.length === 0 && equal(first, second);
    if (path.length === 0) return false;
    if ((m & (m - 1n)) === 0n) path = [first, ...path];
    let fn = m - 1n;
    let sn = n - 1n;
    while ((fn & 1n) === 1n) {
      fn >>= 1n;
      sn >>= 1n;
    }
    let fr = path[0];
    let sr = path[0];
    for (const c of path.slice(1)) {
      if (sn === 0n) return false;
      if ((fn & 1n) === 1n || fn === sn) {
        fr = await nodeHash(c, fr);
        sr = await nodeHash(c, sr);
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      } else {
        sr = await nodeHash(sr, c);
      }
      fn >>= 1n;
      sn >>= 1n;
    }
    return equal(fr, first) && equal(sr, second) && sn === 0n;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- section 4: paths

/** Hashes of level 8L a tree of 2^63 leaves has: the bound on N*256 + W. */
const levelCapacity = (level) => MAX_SIZE >> BigInt(8 * level);

function checkTile(level, index, width) {
  if (!Number.isInteger(level) || level < -1 || level > 7) throw new RangeError(`tile level ${level} is not in -1 (entries) .. 7`);
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) throw new RangeError(`tile width ${width} is not in 1..256`);
  if (BigInt(index) * 256n + BigInt(width) > levelCapacity(Math.max(level, 0))) {
    throw new RangeError(`tile (${level}, ${index}, width ${width}) is beyond a tree of 2^63 leaves`);
  }
}

/**
 * The one canonical path of a tile: level 0..7 for hash tiles, -1 for an
 * entry bundle; width 256 (or omitted) for a full tile, 1..255 for a partial
 * one. Throws RangeError for a tile no tree of at most 2^63 leaves has.
 */
export function tilePath({ level, index, width = TILE_WIDTH }) {
  const n = asCount(index);
  if (n === null) throw new RangeError(`tile index ${index} is not a non-negative integer`);
  checkTile(level, n, width);
  const digits = n.toString();
  const padded = digits.padStart(Math.ceil(digits.length / 3) * 3, '0');
  const elements = padded.match(/.{3}/g);
  const nPath = elements.map((e, i) => (i < elements.length - 1 ? `x${e}` : e)).join('/');
  return `tile/${level === -1 ? 'entries' : level}/${nPath}${width === TILE_WIDTH ? '' : `.p/${width}`}`;
}

/**
 * { level, index: BigInt, width, entries, path } of a tile path in its one
 * canonical form (section 4); throws RangeError for anything else (leading
 * zeros in L, N or W, an "x000" element, ".p/256", levels 8 and above, a
 * tile beyond a tree of 2^63 leaves).
 */
export function parseTilePath(text) {
  const m = typeof text === 'string' && text.length <= 64 &&
    /^tile\/(entries|0|[1-9][0-9]*)\/((?:x[0-9]{3}\/)*)([0-9]{3})(?:\.p\/([1-9][0-9]*))?$/.exec(text);
  if (!m) throw new RangeError(`not a tile path: ${JSON.stringify(text)}`);
  const entries = m[1] === 'entries';
  const level = entries ? -1 : Number(m[1]);
  const elements = [...m[2].split('/').filter(Boolean).map((e) => e.slice(1)), m[3]];
  if (elements.length > 1 && elements[0] === '000') throw new RangeError(`not a tile path (leading zero element): ${text}`);
  const index = BigInt(elements.join(''));
  const width = m[4] === undefined ? TILE_WIDTH : Number(m[4]);
  if (m[4] !== undefined && width >= TILE_WIDTH) throw new RangeError(`not a tile path (width ${m[4]}): ${text}`);
  try {
    checkTile(level, index, width);
  } catch (e) {
    throw new RangeError(`not a tile path: ${text}: ${e.message}`);
  }
  return { level, index, width, entries, path: text };
}

function tileOf(level, index, width) {
  return { level, index, width, entries: level === -1, path: tilePath({ level, index, width }) };
}

/**
 * Every tile of a tree of `size` leaves (section 4), lazily: level 0 (each
 * hash tile followed by its entry bundle when options.entries), then level
 * 1, and so on. Full tiles first within a level, then the partial one.
 */
export function* tilesForSize(size, options = {}) {
  const s = asCount(size);
  if (s === null || s > MAX_SIZE) throw new RangeError(`tree size ${size} is not in 0..2^63`);
  for (let level = 0; level <= 7; level++) {
    const c = s >> BigInt(8 * level);
    if (c === 0n) break;
    const full = c >> 8n;
    const partial = Number(c & 255n);
    for (let n = 0n; n < full; n++) {
      yield tileOf(level, n, TILE_WIDTH);
      if (level === 0 && options.entries) yield tileOf(-1, n, TILE_WIDTH);
    }
    if (partial > 0) {
      yield tileOf(level, full, partial);
      if (level === 0 && options.entries) yield tileOf(-1, full, partial);
    }
  }
}

/** The width of tile (level, index) in a tree of `size` leaves, or 0 when that tree has no such tile. */
export function tileWidth(size, level, index) {
  const s = asCount(size);
  const n = asCount(index);
  if (s === null || n === null) throw new RangeError('tileWidth: size and index must be non-negative integers');
  const c = s >> BigInt(8 * Math.max(level, 0));
  if ((n + 1n) * 256n <= c) return TILE_WIDTH;
  if (n * 256n < c) return Number(c - n * 256n);
  return 0;
}

// ---------------------------------------------------------------- section 4: contents

/** The entries of an entry bundle: 2-byte big-endian length, then the bytes, repeated. Throws on a truncated bundle or a count other than options.width. */
export function parseEntryBundle(bytes, options = {}) {
  const b = asBytes(bytes);
  const out = [];
  let at = 0;
  while (at < b.length) {
    if (at + 2 > b.length) throw new RangeError(`entry bundle: a length cut short at byte ${at}`);
    const len = (b[at] << 8) | b[at + 1];
    at += 2;
    if (at + len > b.length) throw new RangeError(`entry bundle: entry ${out.length} (${len} bytes) cut short`);
    out.push(b.slice(at, at + len));
    at += len;
  }
  if (options.width !== undefined && out.length !== options.width) {
    throw new RangeError(`entry bundle: ${out.length} entries, the tile's width is ${options.width}`);
  }
  return out;
}

/** An entry bundle's bytes from its entries. */
export function entryBundle(entries) {
  const parts = [];
  for (const e of entries) {
    const b = asBytes(e);
    if (b.length > 0xffff) throw new RangeError('entry bundle: an entry over 65535 bytes');
    parts.push(new Uint8Array([b.length >> 8, b.length & 255]), b);
  }
  return concat(...parts);
}

/**
 * Reads stored hashes (section 2) of the tree of `size` leaves from its
 * tiles, through `getTile(path) -> Promise<bytes>`; each tile is fetched at
 * most once and must be exactly width * 32 bytes.
 */
export class TileReader {
  constructor(size, getTile) {
    const s = asCount(size);
    if (s === null || s > MAX_SIZE) throw new RangeError(`tree size ${size} is not in 0..2^63`);
    if (typeof getTile !== 'function') throw new TypeError('getTile must be a function');
    this.size = s;
    this.getTile = getTile;
    this.tiles = new Map();
    this.hashes = new Map();
  }

  /** The hashes of hash tile (level, index) of this tree, as one Uint8Array. */
  async tile(level, index) {
    const width = tileWidth(this.size, level, index);
    if (width === 0) throw new RangeError(`a tree of ${this.size} leaves has no tile (${level}, ${index})`);
    const path = tilePath({ level, index, width });
    let p = this.tiles.get(path);
    if (!p) {
      p = (async () => {
        const bytes = asBytes(await this.getTile(path));
        if (bytes.length !== width * HASH) throw new RangeError(`tile ${path} is ${bytes.length} bytes, not ${width * HASH}`);
        return bytes;
      })();
      this.tiles.set(path, p);
    }
    return p;
  }

  /** Stored hash (l, i): the tree hash of the 2^l leaves from i * 2^l (section 4). */
  async storedHash(l, i) {
    const key = `${l}/${i}`;
    let h = this.hashes.get(key);
    if (!h) {
      h = this.computeStoredHash(l, i);
      this.hashes.set(key, h);
    }
    return h;
  }

  async computeStoredHash(l, i) {
    const ell = Number(l);
    const idx = BigInt(i);
    if (ell < 0 || ell > 63 || idx < 0n || (idx + 1n) << BigInt(ell) > this.size) {
      throw new RangeError(`a tree of ${this.size} leaves has no stored hash (${l}, ${i})`);
    }
    const L = Math.floor(ell / 8);
    const r = ell - 8 * L;
    const first = idx << BigInt(r);
    return foldHashes(await this.tile(L, first >> 8n), Number(first & 255n), 1 << r);
  }

  /** The tree hash of the full hash tile (level, index): what the tile above holds for it. */
  async fullTileHash(level, index) {
    if (tileWidth(this.size, level, index) !== TILE_WIDTH) throw new RangeError(`tile (${level}, ${index}) is not full in a tree of ${this.size} leaves`);
    return foldHashes(await this.tile(level, index), 0, TILE_WIDTH);
  }

  /** MTH(D[a:b]) for a range starting at a multiple of the smallest power of two at least b - a long (section 3). */
  async rangeHash(a, b) {
    let start = BigInt(a);
    const end = BigInt(b);
    if (end <= start) throw new RangeError(`empty range ${a}..${b}`);
    const parts = [];
    for (let l = 63; l >= 0; l--) {
      if (((end - BigInt(a)) >> BigInt(l)) & 1n) {
        parts.push(await this.storedHash(l, start >> BigInt(l)));
        start += 1n << BigInt(l);
      }
    }
    let h = parts.pop();
    while (parts.length) h = await nodeHash(parts.pop(), h);
    return h;
  }

  /** The tree hash of the whole tree (section 2). */
  async treeHash() {
    return this.size === 0n ? emptyTreeHash() : this.rangeHash(0n, this.size);
  }

  /** The leaf hash of leaf i (level-0 tile). */
  async leafHashAt(i) {
    return this.storedHash(0, i);
  }

  /** PATH(m, D[0:n]) (section 3), n = this tree's size. */
  async inclusionProof(index) {
    const m = asCount(index);
    if (m === null || m >= this.size) throw new RangeError(`leaf ${index} is not in a tree of ${this.size} leaves`);
    const path = async (m, lo, hi) => {
      if (hi - lo === 1n) return [];
      const k = largestPow2Below(hi - lo);
      if (m < k) return [...(await path(m, lo, lo + k)), await this.rangeHash(lo + k, hi)];
      return [...(await path(m - k, lo + k, hi)), await this.rangeHash(lo, lo + k)];
    };
    return path(m, 0n, this.size);
  }

  /** PROOF(m, D[0:n]) (section 3), n = this tree's size, 0 < m <= n. */
  async consistencyProof(oldSize) {
    const m = asCount(oldSize);
    if (m === null || m === 0n || m > this.size) throw new RangeError(`old size ${oldSize} is not in 1..${this.size}`);
    const sub = async (m, lo, hi, b) => {
      if (hi - lo === m) return b ? [] : [await this.rangeHash(lo, hi)];
      const k = largestPow2Below(hi - lo);
      if (m <= k) return [...(await sub(m, lo, lo + k, b)), await this.rangeHash(lo + k, hi)];
      return [...(await sub(m - k, lo + k, hi, false)), await this.rangeHash(lo, lo + k)];
    };
    return sub(m, 0n, this.size, true);
  }
}

/** The tree hash of the `count` (a power of two) hashes of `tile` from position `at`, hashed pairwise. */
async function foldHashes(tile, at, count) {
  let hashes = [];
  for (let k = 0; k < count; k++) hashes.push(tile.subarray((at + k) * HASH, (at + k + 1) * HASH));
  while (hashes.length > 1) {
    const up = [];
    for (let k = 0; k < hashes.length; k += 2) up.push(await nodeHash(hashes[k], hashes[k + 1]));
    hashes = up;
  }
  return hashes[0];
}

function largestPow2Below(n) {
  let k = 1n;
  while (k << 1n < n) k <<= 1n;
  return k;
}

/** The root of the tree of `size` leaves, recomputed from its hash tiles (sections 2 and 4). */
export async function treeHashFromTiles(size, getTile) {
  return new TileReader(size, getTile).treeHash();
}

/** The hash tile (Uint8Array, width * 32 bytes) of level 0 whose hashes are the leaf hashes of `entries`. */
export async function hashTileOfEntries(entries) {
  return concat(...(await Promise.all(entries.map((e) => leafHash(e)))));
}

/**
 * Checks every tile of the tree of `size` leaves against each other: each
 * hash of a level-L tile (L >= 1) is the tree hash of the full level-(L-1)
 * tile under it, and, with options.entries, each entry bundle's entries hash
 * to its level-0 tile. With the root check of treeHashFromTiles, this
 * authenticates every stored hash (and entry) of the tree. Fetches every
 * tile: for small trees and monitors. Throws on the first mismatch.
 */
export async function checkAllTiles(size, getTile, options = {}) {
  const reader = new TileReader(size, getTile);
  for (const t of tilesForSize(size, { entries: options.entries })) {
    if (t.entries) {
      const hashes = await reader.tile(0, t.index);
      const entries = parseEntryBundle(await getTile(t.path), { width: t.width });
      for (let j = 0; j < entries.length; j++) {
        if (!equal(await leafHash(entries[j]), hashes.subarray(j * HASH, (j + 1) * HASH))) {
          throw new Error(`entry ${j} of ${t.path} does not hash to its level-0 tile hash`);
        }
      }
    } else if (t.level > 0) {
      const hashes = await reader.tile(t.level, t.index);
      for (let j = 0; j < t.width; j++) {
        const below = (t.index * 256n + BigInt(j));
        const h = await reader.fullTileHash(t.level - 1, below);
        if (!equal(h, hashes.subarray(j * HASH, (j + 1) * HASH))) {
          throw new Error(`hash ${j} of ${t.path} is not the tree hash of tile ${tilePath({ level: t.level - 1, index: below })}`);
        }
      }
    }
  }
  return true;
}

// ---------------------------------------------------------------- section 5

const EM_DASH = '\u2014';
const SPACE_IN_NAME = /[\p{White_Space}\p{Zs}\uFEFF+]/u;
const LONE_SURROGATE = /\p{Cs}/u;
const utf8Length = (s) => new TextEncoder().encode(s).length;

function checkKeyName(name) {
  if (typeof name !== 'string' || name.length === 0) throw new Error('key name is empty');
  if (SPACE_IN_NAME.test(name)) throw new Error(`key name ${JSON.stringify(name)} has a space or a "+"`);
  if (LONE_SURROGATE.test(name) || /[\u0000-\u001f]/.test(name)) throw new Error('key name is not valid UTF-8 text');
  if (utf8Length(name) > 255) throw new Error('key name is over 255 bytes');
}

/** The 4-byte key id of an Ed25519 key: SHA-256(name || 0x0A || 0x01 || publicKey)[:4], as 8 lowercase hex digits. */
export async function keyId(name, publicKey) {
  const h = await sha256(new TextEncoder().encode(name), new Uint8Array([0x0a, 0x01]), asBytes(publicKey));
  return toHex(h.subarray(0, 4));
}

/**
 * { name, keyId (8 lowercase hex digits), publicKey (Uint8Array 32) } of a
 * verifier key string "<name>+<key id hex>+<base64(0x01 || key)>"; throws
 * when the form, the algorithm byte, the key's length or the key id is wrong.
 */
export async function parseVerifierKey(text) {
  if (typeof text !== 'string') throw new TypeError('a verifier key is a string');
  // The name has no "+", the key id is 8 hex digits; the base64 may hold "+".
  const plus = text.indexOf('+');
  if (plus < 0 || text[plus + 9] !== '+') throw new Error('a verifier key is <name>+<key id>+<base64 key>');
  const name = text.slice(0, plus);
  const id = text.slice(plus + 1, plus + 9);
  const b64 = text.slice(plus + 10);
  checkKeyName(name);
  if (!/^[0-9a-f]{8}$/.test(id)) throw new Error(`verifier key id ${JSON.stringify(id)} is not 8 lowercase hex digits`);
  const key = b64decodeCanonical(b64);
  if (!key) throw new Error('verifier key: the key is not canonical base64');
  if (key.length !== 33 || key[0] !== 0x01) throw new Error('verifier key: not an Ed25519 key (0x01 and 32 bytes)');
  const publicKey = key.slice(1);
  const computed = await keyId(name, publicKey);
  if (computed !== id) throw new Error(`verifier key: the key id is ${computed}, the string says ${id}`);
  return { name, keyId: id, publicKey };
}

/**
 * Opens a C2SP signed note (section 5) with the verifier keys you trust
 * (strings or parseVerifierKey answers). Resolves to { text, signatures:
 * [{ name, keyId, known, verified }], verifiedBy: [names] } when at least one
 * known key signed it and every known key's signature verifies; rejects with
 * an Error naming the reason otherwise.
 */
export async function openNote(note, verifierKeys) {
  let text = note;
  if (typeof note !== 'string') {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(asBytes(note));
    } catch {
      throw new Error('note: not valid UTF-8');
    }
  }
  if (LONE_SURROGATE.test(text)) throw new Error('note: not valid UTF-8');
  if (utf8Length(text) > MAX_NOTE) throw new Error(`note: over ${MAX_NOTE} bytes`);
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw new Error('note: a control character other than newline');
  const keys = await Promise.all((Array.isArray(verifierKeys) ? verifierKeys : [verifierKeys])
    .map((k) => (typeof k === 'string' ? parseVerifierKey(k) : k)));
  const split = text.lastIndexOf('\n\n');
  if (split < 0) throw new Error('note: no blank line before the signatures');
  const body = text.slice(0, split + 1);
  const block = text.slice(split + 2);
  if (!block.endsWith('\n')) throw new Error('note: the signatures do not end in a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) throw new Error(`note: over ${MAX_SIGNATURES} signatures`);
  const message = new TextEncoder().encode(body);
  const signatures = [];
  const seen = new Set();
  const verifiedBy = [];
  for (const line of lines) {
    if (!line.startsWith(`${EM_DASH} `)) throw new Error(`note: a signature line not starting with "${EM_DASH} ": ${JSON.stringify(line)}`);
    const rest = line.slice(2);
    const space = rest.indexOf(' ');
    if (space < 0) throw new Error('note: a signature line without its signature');
    const name = rest.slice(0, space);
    checkKeyName(name);
    const sig = b64decodeCanonical(rest.slice(space + 1));
    if (!sig) throw new Error(`note: the signature of ${name} is not canonical base64`);
    if (sig.length < 5) throw new Error(`note: the signature of ${name} is under 5 bytes`);
    const id = toHex(sig.subarray(0, 4));
    const key = keys.find((k) => k.name === name && k.keyId === id);
    const entry = { name, keyId: id, known: Boolean(key), verified: false };
    signatures.push(entry);
    if (!key) continue;
    if (seen.has(`${name}+${id}`)) throw new Error(`note: two signatures by the key ${name}+${id}`);
    seen.add(`${name}+${id}`);
    if (sig.length !== 4 + 64 || !(await ed25519Verify(key.publicKey, sig.subarray(4), message))) {
      throw new Error(`note: the signature of ${name}+${id} does not verify`);
    }
    entry.verified = true;
    verifiedBy.push(name);
  }
  if (verifiedBy.length === 0) throw new Error('note: no signature by a known key');
  return { text: body, signatures, verifiedBy };
}

// ---------------------------------------------------------------- section 6

/**
 * { origin, size: BigInt, root: Uint8Array, rootBase64 } of a checkpoint's
 * note text (the text openNote answers: exactly three lines, each ending in
 * a newline, no extension lines). Throws on anything else.
 */
export function parseCheckpoint(noteText) {
  if (typeof noteText !== 'string' || !noteText.endsWith('\n')) throw new Error('checkpoint: not a text ending in a newline');
  const lines = noteText.slice(0, -1).split('\n');
  if (lines.length !== 3) throw new Error(`checkpoint: ${lines.length} lines, not 3 (origin, size, root; no extension lines)`);
  const [origin, sizeText, rootText] = lines;
  if (origin.length === 0) throw new Error('checkpoint: an empty origin');
  if (/[\u0000-\u001f]/.test(origin) || LONE_SURROGATE.test(origin)) throw new Error('checkpoint: the origin is not text');
  if (!/^(0|[1-9][0-9]{0,18})$/.test(sizeText)) throw new Error(`checkpoint: size ${JSON.stringify(sizeText)} is not decimal without leading zeros`);
  const size = BigInt(sizeText);
  if (size > MAX_SIZE) throw new Error(`checkpoint: size ${sizeText} is over 2^63`);
  const root = b64decodeCanonical(rootText);
  if (!root || root.length !== HASH) throw new Error('checkpoint: the root is not the canonical base64 of 32 bytes');
  return { origin, size, root, rootBase64: rootText };
}

// ---------------------------------------------------------------- section 7

function leafError(msg) {
  return new RangeError(`leaf: ${msg}`);
}

const MAX_DAY = 2932896; // 9999-12-31: the last day a YYYY-MM-DD board can name

/**
 * A leaf's fields (section 7) as a plain object: kind ('score', 'void',
 * 'restore', 'ban', 'unban', 'rename', 'approve', 'hold') and kindByte; score_id and
 * moves_hash as lowercase hex; 64-bit integers (player_id, score,
 * submitted_at_ms, action_id, at_ms) always as BigInt; 32-bit ones as
 * Number. Throws RangeError on a wrong length, an unknown kind or a bad field.
 */
export function decodeLeaf(bytes) {
  const b = asBytes(bytes);
  if (b.length === 0) throw leafError('empty');
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const kindByte = b[0];
  const kind = KINDS[kindByte];
  if (!kind) throw leafError(`unknown kind 0x${HEX[kindByte]}`);
  const need = (n) => {
    if (b.length !== n) throw leafError(`a ${kind} leaf is ${n} bytes, this one ${b.length}`);
  };
  if (kind === 'score') {
    if (b.length < 93) throw leafError(`a score leaf is at least 93 bytes, this one ${b.length}`);
    const g = b[91];
    if (g < 1 || g > 64) throw leafError(`game name length ${g} is not in 1..64`);
    need(92 + g);
    const nameBytes = b.subarray(92);
    if (!nameBytes.every((c) => c >= 0x21 && c <= 0x7e)) throw leafError('the game name is not printable ASCII');
    const game = String.fromCharCode(...nameBytes);
    const day = view.getInt32(37);
    if (day < -1 || day > MAX_DAY) throw leafError(`day ${day} is neither -1 nor a day of years 1970..9999`);
    if (b[49] > 1) throw leafError(`completed is ${b[49]}, not 0 or 1`);
    if (b[50] > 1) throw leafError(`status is ${b[50]}, not 0 or 1`);
    const level = view.getUint32(25);
    const date = day >= 0 ? new Date(day * 86400000).toISOString().slice(0, 10) : null;
    return {
      kind,
      kindByte,
      score_id: toHex(b.subarray(1, 17)),
      player_id: view.getBigInt64(17),
      level,
      seed: view.getUint32(29),
      version: view.getUint32(33),
      day,
      score: view.getBigInt64(41),
      completed: b[49] === 1,
      status: b[50] === 0 ? 'ranked' : 'held',
      submitted_at_ms: view.getBigInt64(51),
      moves_hash: toHex(b.subarray(59, 91)),
      game,
      ...(date ? { date } : {}),
      board: date ? `daily:${date}` : `level:${game}:${level}`,
    };
  }
  if (b.length < 25) throw leafError(`a ${kind} leaf is at least 25 bytes, this one ${b.length}`);
  const head = { kind, kindByte, action_id: view.getBigInt64(1), at_ms: view.getBigInt64(9), player_id: view.getBigInt64(17) };
  if (kind === 'ban' || kind === 'unban') {
    need(25);
    return head;
  }
  if (kind === 'void' || kind === 'restore' || kind === 'approve' || kind === 'hold') {
    need(41);
    return { ...head, score_id: toHex(b.subarray(25, 41)) };
  }
  // rename
  if (b.length < 27) throw leafError(`a rename leaf is at least 27 bytes, this one ${b.length}`);
  const n = b[25];
  if (n < 1 || n > 64) throw leafError(`new name length ${n} is not in 1..64`);
  need(26 + n);
  let name;
  try {
    name = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b.subarray(26));
  } catch {
    throw leafError('the new name is not valid UTF-8');
  }
  return { ...head, name };
}

// ---------------------------------------------------------------- section 10

/**
 * Section 10, steps 1-2: opens the checkpoint with the verifier key, checks
 * its origin, recomputes the root of its size from the tiles (getTile(path)
 * -> Promise<bytes>) and compares. options.allTiles: also check every tile
 * of the tree against the others (checkAllTiles; entry bundles too with
 * options.entries). Resolves to { origin, size, root } or rejects with an
 * Error saying what failed.
 */
export async function verifyLog({ checkpointText, verifierKey, origin, getTile, allTiles = false, entries = false }) {
  if (typeof origin !== 'string' || origin.length === 0) throw new TypeError('verifyLog: the origin you expect is required');
  const key = typeof verifierKey === 'string' ? await parseVerifierKey(verifierKey) : verifierKey;
  const opened = await openNote(checkpointText, [key]);
  const cp = parseCheckpoint(opened.text);
  if (cp.origin !== origin) throw new Error(`checkpoint: origin ${JSON.stringify(cp.origin)}, expected ${JSON.stringify(origin)}`);
  // the log signs under its origin (docs/LOG.md sections 6 and 9)
  if (key.name !== origin) throw new Error(`checkpoint: signed by key ${JSON.stringify(key.name)}, not the log's ${JSON.stringify(origin)}`);
  const root = await treeHashFromTiles(cp.size, getTile);
  if (!equal(root, cp.root)) throw new Error(`the tiles give root ${toHex(root)}, the checkpoint says ${toHex(cp.root)}`);
  if (allTiles) await checkAllTiles(cp.size, getTile, { entries });
  return { origin: cp.origin, size: cp.size, root: cp.root };
}

// ---------------------------------------------------------------- v3 receipts (docs/API.md, "Receipts")
//
// A v3 receipt is "v3.<index>": the score's leaf index in the score log. It
// is checked at once from the submission's answer (its log_proof, a
// c2sp.org/tlog-proof@v1, and the seed token it redeemed: verifySubmission),
// or later from the audit record and the log's checkpoint and tiles
// (verifyLoggedScore).

const PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** The leaf index of a v3 receipt "v3.<index>" (decimal, no leading zeros, below 2^63) as a BigInt; null for anything else. */
export function parseReceiptV3(receipt) {
  const m = typeof receipt === 'string' && /^v3\.(0|[1-9][0-9]{0,18})$/.exec(receipt);
  if (!m) return null;
  const index = BigInt(m[1]);
  return index < MAX_SIZE ? index : null;
}

/**
 * { index: BigInt, proof: [Uint8Array(32)], extra: Uint8Array | null,
 * checkpoint: string } of a c2sp.org/tlog-proof@v1 (C2SP tlog-proof): its
 * header line, an optional "extra <base64>" line, "index <N>" (decimal, no
 * leading zeros), zero to 64 lines of canonical base64 of 32-byte hashes,
 * one empty line, then the checkpoint note verbatim (not opened here).
 * Throws an Error naming what is wrong.
 */
export function parseLogProof(text) {
  if (typeof text !== 'string') throw new TypeError('log proof: not a string');
  if (utf8Length(text) > MAX_NOTE + 64 * 45 + 200) throw new Error('log proof: too long');
  const lines = text.split('\n');
  let at = 0;
  if (lines[at++] !== PROOF_HEADER) throw new Error(`log proof: the first line is not ${PROOF_HEADER}`);
  let extra = null;
  if (lines[at] !== undefined && lines[at].startsWith('extra ')) {
    extra = b64decodeCanonical(lines[at].slice(6));
    if (!extra || extra.length === 0) throw new Error('log proof: the extra line is not canonical base64 of some bytes');
    at++;
  }
  const m = lines[at] !== undefined && /^index (0|[1-9][0-9]{0,18})$/.exec(lines[at]);
  if (!m) throw new Error(`log proof: line ${at + 1} is not "index <N>" (decimal, no leading zeros): ${JSON.stringify(lines[at] ?? null)}`);
  const index = BigInt(m[1]);
  if (index >= MAX_SIZE) throw new Error(`log proof: index ${m[1]} is not below 2^63`);
  at++;
  const proof = [];
  for (; at < lines.length && lines[at] !== ''; at++) {
    const h = b64decodeCanonical(lines[at]);
    if (!h || h.length !== HASH) throw new Error(`log proof: line ${at + 1} is not the canonical base64 of a 32-byte hash`);
    proof.push(h);
  }
  if (proof.length > 64) throw new Error(`log proof: ${proof.length} hashes, over 64`);
  if (at >= lines.length) throw new Error('log proof: no empty line before the checkpoint');
  const checkpoint = lines.slice(at + 1).join('\n');
  if (checkpoint.length === 0) throw new Error('log proof: no checkpoint after the empty line');
  return { index, proof, extra, checkpoint };
}

function int64(x, field) {
  let v;
  if (typeof x === 'bigint') v = x;
  else if (typeof x === 'number' && Number.isSafeInteger(x)) v = BigInt(x);
  else throw new TypeError(`score leaf: ${field} is not an integer`);
  if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`score leaf: ${field} is not a signed 64-bit integer`);
  return v;
}

function uint32(x, field) {
  const v = typeof x === 'bigint' && x >= 0n && x <= 0xffffffffn ? Number(x) : x;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`score leaf: ${field} is not an unsigned 32-bit integer`);
  return v;
}

/** The day number (days since 1970-01-01) of a "YYYY-MM-DD" date of years 1970..9999; throws otherwise. */
export function dayOfDate(date) {
  if (typeof date !== 'string' || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date)) throw new RangeError(`date ${JSON.stringify(date)} is not YYYY-MM-DD`);
  const ms = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  const day = ms / 86400000;
  if (!Number.isInteger(day) || day < 0 || day > MAX_DAY || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new RangeError(`date ${JSON.stringify(date)} is not a day of 1970-01-01..9999-12-31`);
  }
  return day;
}

function flag(x, field, names) {
  if (x === true || x === 1 || x === names[1]) return 1;
  if (x === false || x === 0 || x === names[0]) return 0;
  throw new TypeError(`score leaf: ${field} is ${JSON.stringify(x)}, not ${names.map((n) => JSON.stringify(n)).join(' or ')}`);
}

/**
 * The bytes of a score leaf (docs/LOG.md section 7, kind 0x01) from a
 * score's fields: score_id (32 lowercase hex digits), player_id, game,
 * level, seed, version, day (-1 for a level score) or date ("YYYY-MM-DD";
 * neither: a level score), score, completed (boolean or 0/1), status
 * ('ranked' or 'held', or 0/1), submitted_at_ms, moves_hash (64 lowercase
 * hex digits). 64-bit fields take a BigInt or a safe integer. Throws on a
 * missing or out-of-range field.
 */
export function scoreLeaf(fields) {
  if (!fields || typeof fields !== 'object') throw new TypeError('score leaf: no fields');
  const f = fields;
  if (typeof f.score_id !== 'string' || !/^[0-9a-f]{32}$/.test(f.score_id)) throw new TypeError('score leaf: score_id is not 32 lowercase hex digits');
  if (typeof f.moves_hash !== 'string' || !/^[0-9a-f]{64}$/.test(f.moves_hash)) throw new TypeError('score leaf: moves_hash is not 64 lowercase hex digits');
  if (typeof f.game !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(f.game)) throw new TypeError('score leaf: game is not 1..64 printable ASCII bytes');
  let day;
  if (f.day !== undefined && f.day !== null) {
    day = f.day;
    if (!Number.isInteger(day) || day < -1 || day > MAX_DAY) throw new RangeError(`score leaf: day ${day} is neither -1 nor a day of years 1970..9999`);
    if (f.date !== undefined && f.date !== null && (day < 0 || dayOfDate(f.date) !== day)) throw new RangeError('score leaf: day and date disagree');
  } else {
    day = f.date === undefined || f.date === null ? -1 : dayOfDate(f.date);
  }
  const name = new TextEncoder().encode(f.game);
  const b = new Uint8Array(92 + name.length);
  const view = new DataView(b.buffer);
  b[0] = 0x01;
  b.set(fromHex(f.score_id), 1);
  view.setBigInt64(17, int64(f.player_id, 'player_id'));
  view.setUint32(25, uint32(f.level, 'level'));
  view.setUint32(29, uint32(f.seed, 'seed'));
  view.setUint32(33, uint32(f.version, 'version'));
  view.setInt32(37, day);
  view.setBigInt64(41, int64(f.score, 'score'));
  b[49] = flag(f.completed, 'completed', [false, true]);
  b[50] = flag(f.status, 'status', ['ranked', 'held']);
  view.setBigInt64(51, int64(f.submitted_at_ms, 'submitted_at_ms'));
  b.set(fromHex(f.moves_hash), 59);
  b[91] = name.length;
  b.set(name, 92);
  return b;
}

function b64urlDecode(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * The fields of a seed token "st1.<base64url>" (docs/API.md, POST
 * /v1/seeds): { format, key_id, player_id: BigInt, game, level, seed,
 * version, issued_at_ms: BigInt, expires_at_ms: BigInt, day, date? }. Its MAC
 * is the server's secret's and is not checked here. Throws on another form.
 */
export function parseSeedToken(token) {
  const bytes = typeof token === 'string' && token.startsWith('st1.') ? b64urlDecode(token.slice(4)) : null;
  if (!bytes) throw new TypeError('seed token: not "st1." and base64url');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const g = bytes.length > 13 ? bytes[13] : 0;
  const want = 14 + g + 2 + 4 + 2 + 8 + 8 + 4 + 16 + 32;
  if (g === 0 || bytes.length !== want) throw new RangeError(`seed token: ${bytes.length} bytes, not the layout of format 1`);
  if (bytes[0] !== 1) throw new RangeError(`seed token: format ${bytes[0]}, not 1`);
  const nameBytes = bytes.subarray(14, 14 + g);
  if (!nameBytes.every((c) => c >= 0x21 && c <= 0x7e)) throw new RangeError('seed token: the game name is not printable ASCII');
  let at = 14 + g;
  const level = view.getUint16(at);
  const seed = view.getUint32(at + 2);
  const version = view.getUint16(at + 6);
  const issued = view.getBigInt64(at + 8);
  const expires = view.getBigInt64(at + 16);
  const day = view.getInt32(at + 24);
  at += 28;
  const date = day >= 0 ? new Date(day * 86400000).toISOString().slice(0, 10) : null;
  return {
    format: 1, key_id: view.getUint32(1), player_id: view.getBigInt64(5), game: String.fromCharCode(...nameBytes),
    level, seed, version, issued_at_ms: issued, expires_at_ms: expires, day, ...(date ? { date } : {}),
  };
}

/** Keys (strings or parseVerifierKey answers; one or an array) parsed; throws on a malformed one. */
async function keysOf(verifierKey) {
  const list = Array.isArray(verifierKey) ? verifierKey : [verifierKey];
  if (list.length === 0 || list.some((k) => k === undefined || k === null)) throw new TypeError('a verifier key of the log is required');
  return Promise.all(list.map((k) => (typeof k === 'string' ? parseVerifierKey(k) : k)));
}

/**
 * Opens a checkpoint note with the log's verifier key(s) and checks that it
 * is the log `origin`'s: its origin line is `origin` and a key named
 * `origin` signed it (docs/LOG.md sections 5, 6 and 9). Resolves to {
 * origin, size, root } or rejects with the reason.
 */
export async function openCheckpoint(checkpointText, verifierKey, origin) {
  if (typeof origin !== 'string' || origin.length === 0) throw new TypeError('the origin of the log you expect is required');
  const keys = await keysOf(verifierKey);
  const opened = await openNote(checkpointText, keys);
  const cp = parseCheckpoint(opened.text);
  if (cp.origin !== origin) throw new Error(`checkpoint: origin ${JSON.stringify(cp.origin)}, expected ${JSON.stringify(origin)}`);
  if (!opened.verifiedBy.includes(origin)) {
    throw new Error(`checkpoint: signed by ${opened.verifiedBy.map((n) => JSON.stringify(n)).join(', ')}, not by a key named for the log's origin ${JSON.stringify(origin)}`);
  }
  return { origin: cp.origin, size: cp.size, root: cp.root };
}

/**
 * Checks a v3 submission answer (POST /v1/scores) offline, at once: its
 * receipt is "v3.<index>" with the index of its log_proof; the score leaf
 * rebuilt from the answer (score_id, date, score, completed, status,
 * submitted_at_ms, moves_hash) and the seed token it redeemed (player, game,
 * level, seed, version: `token` is the seed answer of POST /v1/seeds or its
 * seed_token string; the answer's date must be the token's day) is included
 * at that index in the tree of the proof's checkpoint, opened with the log's
 * verifier key whose name is `origin`. Resolves to { index, size, root }
 * (BigInt, BigInt, Uint8Array) or rejects with the reason.
 */
export async function verifySubmission({ answer, token, verifierKey, origin } = {}) {
  if (!answer || typeof answer !== 'object') throw new TypeError('verifySubmission: the answer of POST /v1/scores is required');
  const index = parseReceiptV3(answer.receipt);
  if (index === null) throw new Error(`the receipt ${JSON.stringify(answer.receipt)} is not a v3 receipt "v3.<index>"`);
  if (answer.log_proof === null || answer.log_proof === undefined) {
    throw new Error('the answer has no log_proof (a retry answers null): check the score later from the tiles (verifyLoggedScore)');
  }
  const proof = parseLogProof(answer.log_proof);
  if (proof.index !== index) throw new Error(`the receipt names index ${index}, its log_proof index ${proof.index}`);
  const tokenText = typeof token === 'string' ? token : token?.seed_token;
  const t = parseSeedToken(tokenText);
  if (token && typeof token === 'object') {
    for (const f of ['game', 'level', 'seed', 'version']) {
      if (token[f] !== undefined && token[f] !== t[f]) throw new Error(`the seed answer's ${f} is ${JSON.stringify(token[f])}, its token's ${JSON.stringify(t[f])}`);
    }
  }
  const answerDate = answer.date === undefined || answer.date === null ? null : answer.date;
  if (answerDate !== (t.date ?? null)) {
    throw new Error(`the answer's date is ${JSON.stringify(answerDate)}, the seed token's ${JSON.stringify(t.date ?? null)}`);
  }
  if (answer.status !== 'ranked' && answer.status !== 'held') throw new Error(`the answer's status ${JSON.stringify(answer.status)} is neither "ranked" nor "held"`);
  const leaf = scoreLeaf({
    score_id: answer.score_id, player_id: t.player_id, game: t.game, level: t.level, seed: t.seed, version: t.version,
    date: answerDate, score: answer.score, completed: answer.completed, status: answer.status,
    submitted_at_ms: answer.submitted_at_ms, moves_hash: answer.moves_hash,
  });
  return verifyLogProof({ logProof: proof, leaf, index, verifierKey, origin });
}

/**
 * Checks a c2sp.org/tlog-proof@v1 (text, or a parseLogProof answer) for a
 * leaf's bytes: its index is `index` (when given), its checkpoint opens with
 * the log's verifier key named `origin`, and the leaf's hash is included at
 * the index in the checkpoint's tree. Resolves to { index, size, root } or
 * rejects with the reason.
 */
export async function verifyLogProof({ logProof, leaf, index, verifierKey, origin } = {}) {
  const proof = typeof logProof === 'string' ? parseLogProof(logProof) : logProof;
  if (!proof || typeof proof.index !== 'bigint' || !Array.isArray(proof.proof)) throw new TypeError('verifyLogProof: a log proof is required');
  if (index !== undefined && asCount(index) !== proof.index) throw new Error(`the receipt names index ${index}, its log_proof index ${proof.index}`);
  const cp = await openCheckpoint(proof.checkpoint, verifierKey, origin);
  if (proof.index >= cp.size) throw new Error(`index ${proof.index} is not in the checkpoint's tree of ${cp.size} leaves`);
  const ok = await verifyInclusion({ index: proof.index, size: cp.size, leafHash: await leafHash(leaf), proof: proof.proof, root: cp.root });
  if (!ok) throw new Error(`the score's leaf is not included at index ${proof.index} in the checkpoint's tree of ${cp.size} leaves (the proof or a field does not match)`);
  return { index: proof.index, size: cp.size, root: cp.root };
}

// The fields of a score leaf that a score record must equal (status aside:
// the leaf's is the one at its commit).
const SCORE_FIELDS = ['score_id', 'player_id', 'game', 'level', 'seed', 'version', 'date', 'score', 'completed', 'submitted_at_ms', 'moves_hash'];

function sameField(name, recorded, logged) {
  if (typeof logged === 'bigint') {
    return (typeof recorded === 'bigint' || Number.isSafeInteger(recorded)) && BigInt(recorded) === logged;
  }
  if (name === 'date') return (recorded ?? null) === (logged ?? null);
  return recorded === logged;
}

/**
 * Checks a v3 score later, from the log (docs/API.md, "Receipts";
 * docs/LOG.md section 10): fetches the checkpoint (getCheckpoint() ->
 * Promise<text>, or `${baseUrl}/v1/log/checkpoint`), opens it with the
 * log's verifier key whose name is `origin`, fetches the entry bundle that
 * holds the receipt's index and the hash tiles of its inclusion proof
 * (getTile(path) -> Promise<bytes>, or `${baseUrl}/v1/log/<path>`),
 * verifies the entry's inclusion, decodes it and compares it with `score`
 * (an audit record of GET /v1/scores/{id}): every field must be equal but
 * status. `index` (BigInt or number) replaces the receipt's, for a record
 * without one (a board entry); options.partial compares only the fields the
 * record holds (a board entry's), score_id always. Resolves to { index,
 * size, root, leaf } or rejects with the reason.
 */
export async function verifyLoggedScore({ score, baseUrl, getCheckpoint, getTile, verifierKey, origin, index, partial = false, fetch: fetchFn } = {}) {
  if (!score || typeof score !== 'object') throw new TypeError('verifyLoggedScore: the score record is required');
  const i = index === undefined ? parseReceiptV3(score.receipt) : asCount(index);
  if (i === null) throw new Error(`the receipt ${JSON.stringify(score.receipt)} is not a v3 receipt "v3.<index>"`);
  if (!getCheckpoint || !getTile) {
    if (typeof baseUrl !== 'string') throw new TypeError('verifyLoggedScore: baseUrl, or getCheckpoint and getTile, are required');
    const f = fetchFn || globalThis.fetch;
    const prefix = `${baseUrl.replace(/\/+$/, '')}/v1/log/`;
    const get = async (path) => {
      const res = await f(prefix + path);
      if (!res.ok) throw new Error(`GET ${prefix}${path}: ${res.status}`);
      return res;
    };
    getCheckpoint ||= async () => (await get('checkpoint')).text();
    getTile ||= async (path) => new Uint8Array(await (await get(path)).arrayBuffer());
  }
  const cp = await openCheckpoint(await getCheckpoint(), verifierKey, origin);
  if (i >= cp.size) throw new Error(`index ${i} is not in the latest checkpoint's tree of ${cp.size} leaves`);
  const bundleIndex = i / 256n;
  const width = tileWidth(cp.size, 0, bundleIndex);
  const entries = parseEntryBundle(await getTile(tilePath({ level: -1, index: bundleIndex, width })), { width });
  const entry = entries[Number(i % 256n)];
  const reader = new TileReader(cp.size, getTile);
  const proof = await reader.inclusionProof(i);
  const ok = await verifyInclusion({ index: i, size: cp.size, leafHash: await leafHash(entry), proof, root: cp.root });
  if (!ok) throw new Error(`the log's entry ${i} is not included in the checkpoint's tree of ${cp.size} leaves (a tile does not match)`);
  const leaf = decodeLeaf(entry);
  if (leaf.kind !== 'score') throw new Error(`the log's entry ${i} is a ${leaf.kind} leaf, not a score`);
  for (const name of SCORE_FIELDS) {
    const has = Object.hasOwn(score, name);
    if (!has && name !== 'date' && (!partial || name === 'score_id')) throw new Error(`the score record has no ${name}`);
    if (!has && partial) continue;
    if (name === 'date' && partial && !has) continue;
    if (!sameField(name, score[name], leaf[name])) {
      throw new Error(`the log's entry ${i} has ${name} ${JSON.stringify(String(leaf[name] ?? null))}, the score record ${JSON.stringify(String(score[name] ?? null))}`);
    }
  }
  return { index: i, size: cp.size, root: cp.root, leaf };
}

// ---------------------------------------------------------------- section 11

const SCORE_ACTIONS = new Set(['hold', 'approve', 'void', 'restore']);

function byScoreThenIndex(a, b) {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  return a.index < b.index ? -1 : a.index > b.index ? 1 : 0;
}

/** A board's name from a decoded score leaf (its `board`, or from day, game and level). */
function boardOf(leaf) {
  if (typeof leaf.board === 'string') return leaf.board;
  if (typeof leaf.date === 'string') return `daily:${leaf.date}`;
  const day = Number(leaf.day ?? -1);
  if (day >= 0) return `daily:${new Date(day * 86400000).toISOString().slice(0, 10)}`;
  return `level:${leaf.game}:${leaf.level}`;
}

/**
 * Folds the log's leaves into the boards they describe (docs/LOG.md section
 * 11). `leaves`: every leaf from index 0, in index order (an array or any
 * iterable), each as decodeLeaf answers it or as its bytes. Synchronous;
 * returns a Map from board name (`daily:YYYY-MM-DD`,
 * `level:<game>:<level>`) to its entries in board order, [{ rank (Number),
 * player_id (BigInt), score (BigInt), score_id (hex), index (BigInt: the
 * score leaf's) }], for every board a score leaf names (in the order the
 * boards first appear; a board whose scores are all off it maps to []).
 *
 * A score is on its board when it is neither held nor voided and its
 * player is not banned; a daily board lists every score on it, a level
 * board each player's one best (highest score, the earliest index among
 * equals); entries are ordered by score, higher first, then index, and a
 * rank is 1 + the number of entries with a strictly higher score.
 *
 * Throws RangeError (naming the leaf's index) for a log that cannot be
 * folded: a leaf that does not decode, a score id recorded twice, a hold,
 * approve, void or restore of a score no earlier leaf recorded or of
 * another player's score, or a hold whose action_id is not the index of an
 * earlier score leaf.
 */
export function foldBoards(leaves) {
  if (leaves === null || leaves === undefined || typeof leaves[Symbol.iterator] !== 'function') {
    throw new TypeError('foldBoards: the leaves (an array or iterable, in index order from 0) are required');
  }
  const scores = new Map(); // score_id -> { board, level, player, player_id, score, score_id, index, held, voided }
  const scoreIndexes = new Set(); // indexes of score leaves
  const boards = new Map(); // board -> its scores, in index order
  const banned = new Set(); // player ids (decimal strings)
  let i = 0n;
  for (const item of leaves) {
    let leaf;
    if (item && typeof item === 'object' && typeof item.kind === 'string' && !ArrayBuffer.isView(item)) {
      leaf = item;
    } else {
      try {
        leaf = decodeLeaf(item);
      } catch (e) {
        throw new RangeError(`foldBoards: leaf ${i}: ${e.message}`);
      }
    }
    const player = String(BigInt(leaf.player_id));
    if (leaf.kind === 'score') {
      if (scores.has(leaf.score_id)) throw new RangeError(`foldBoards: leaf ${i}: score ${leaf.score_id} was recorded before, at leaf ${scores.get(leaf.score_id).index}`);
      const board = boardOf(leaf);
      const held = leaf.status === 'held' || leaf.status === 1;
      const s = { board, level: board.startsWith('level:'), player, player_id: BigInt(leaf.player_id), score: BigInt(leaf.score), score_id: leaf.score_id, index: i, held, voided: false };
      scores.set(leaf.score_id, s);
      scoreIndexes.add(i);
      if (!boards.has(board)) boards.set(board, []);
      boards.get(board).push(s);
    } else if (SCORE_ACTIONS.has(leaf.kind)) {
      const s = scores.get(leaf.score_id);
      if (!s) throw new RangeError(`foldBoards: leaf ${i}: ${leaf.kind} of score ${leaf.score_id}, which no earlier leaf recorded`);
      if (s.player !== player) throw new RangeError(`foldBoards: leaf ${i}: ${leaf.kind} of score ${leaf.score_id} for player ${player}, the score's player is ${s.player}`);
      if (leaf.kind === 'hold') {
        const cause = BigInt(leaf.action_id);
        if (cause >= i || !scoreIndexes.has(cause)) throw new RangeError(`foldBoards: leaf ${i}: a hold caused by leaf ${cause}, which is not an earlier score leaf`);
        s.held = true;
      } else if (leaf.kind === 'approve') {
        s.held = false;
      } else if (leaf.kind === 'void') {
        s.voided = true;
      } else {
        s.voided = false;
      }
    } else if (leaf.kind === 'ban') {
      banned.add(player);
    } else if (leaf.kind === 'unban') {
      banned.delete(player);
    } else if (leaf.kind !== 'rename') {
      throw new RangeError(`foldBoards: leaf ${i}: unknown kind ${JSON.stringify(leaf.kind)}`);
    }
    i++;
  }
  const out = new Map();
  for (const [board, list] of boards) {
    let on = list.filter((s) => !s.held && !s.voided && !banned.has(s.player));
    if (list[0].level) {
      const best = new Map();
      for (const s of on) {
        const b = best.get(s.player);
        if (!b || byScoreThenIndex(s, b) < 0) best.set(s.player, s);
      }
      on = [...best.values()];
    }
    on.sort(byScoreThenIndex);
    const entries = [];
    for (const [k, s] of on.entries()) {
      const rank = k > 0 && s.score === on[k - 1].score ? entries[k - 1].rank : k + 1;
      entries.push({ rank, player_id: s.player_id, score: s.score, score_id: s.score_id, index: s.index });
    }
    out.set(board, entries);
  }
  return out;
}
