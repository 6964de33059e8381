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
const KINDS = { 1: 'score', 2: 'void', 3: 'restore', 4: 'ban', 5: 'unban', 6: 'rename', 7: 'approve' };

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
 * 'restore', 'ban', 'unban', 'rename', 'approve') and kindByte; score_id and
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
  if (kind === 'void' || kind === 'restore' || kind === 'approve') {
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
