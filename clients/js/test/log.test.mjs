// The score log verifier (src/log.mjs) against tests/unit/data/log-vectors.json,
// the examples of docs/LOG.md, Certificate Transparency's and Go's published
// vectors, and tampered input. Tile fixtures are built here from the vector
// leaves ("replayd leaf <i>") with the module's own functions, then checked
// against the vectors' sha256 of each tile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import {
  leafHash, nodeHash, emptyTreeHash, verifyInclusion, verifyConsistency, tilePath, parseTilePath, tilesForSize,
  tileWidth, parseEntryBundle, entryBundle, treeHashFromTiles, TileReader, checkAllTiles, hashTileOfEntries,
  parseVerifierKey, openNote, parseCheckpoint, keyId, decodeLeaf, verifyLog, toHex, fromHex,
} from '../src/log.mjs';
import * as log from '../src/log.mjs';

const root = new URL('../../../', import.meta.url);
const V = JSON.parse(readFileSync(new URL('tests/unit/data/log-vectors.json', root), 'utf8'));
const LOG_MD = readFileSync(new URL('docs/LOG.md', root), 'utf8');
const sha = (b) => createHash('sha256').update(b).digest('hex');
const enc = (s) => new TextEncoder().encode(s);
const P63 = 1n << 63n;

const flipHex = (h, bit = 0) => {
  const b = fromHex(h);
  b[bit >> 3] ^= 1 << (bit & 7);
  return toHex(b);
};

// ---- tile fixtures: the tree of V.big_size leaves, as hash arrays per level

const LEAVES = Array.from({ length: V.big_size }, (_, i) => enc(`replayd leaf ${i}`));
let fixture;
async function tree() {
  if (fixture) return fixture;
  const levels = [await Promise.all(LEAVES.map((e) => leafHash(e)))];
  // level L+1: the tree hash of each full tile of level L, through the module's own reader
  const reader = new TileReader(V.big_size, (p) => bytesOf(levels, p));
  for (let L = 0; levels[L].length >= 256; L++) {
    const up = [];
    for (let n = 0; (n + 1) * 256 <= levels[L].length; n++) up.push(await reader.fullTileHash(L, n));
    levels.push(up);
  }
  fixture = levels;
  return levels;
}

function bytesOf(levels, path) {
  const t = parseTilePath(path);
  const start = Number(t.index) * 256;
  if (t.entries) return entryBundle(LEAVES.slice(start, start + t.width));
  const hashes = levels[t.level].slice(start, start + t.width);
  assert.equal(hashes.length, t.width, `fixture has ${path}`);
  return Buffer.concat(hashes);
}

/** getTile for the tree of `size` leaves: serves only the tiles that size implies (404 otherwise). */
function getTileFor(levels, size, log) {
  const have = new Set([...tilesForSize(size, { entries: true })].map((t) => t.path));
  return async (path) => {
    if (log) log.push(path);
    if (!have.has(path)) throw new Error(`404 ${path}`);
    return bytesOf(levels, path);
  };
}

// A test-local MTH straight from RFC 9162's recursive definition, over leaf hashes.
async function mth(hashes) {
  if (hashes.length === 0) return emptyTreeHash();
  if (hashes.length === 1) return hashes[0];
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(await mth(hashes.slice(0, k)), await mth(hashes.slice(k)));
}

// Ed25519 signing with the vectors' seed (node:crypto, PKCS#8 around the seed).
function signer(seedHex) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seedHex, 'hex')]);
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  return (text) => new Uint8Array(sign(null, Buffer.from(text), key));
}

async function signNote(text, name, seedHex, publicKeyHex) {
  const id = fromHex(await keyId(name, fromHex(publicKeyHex)));
  const sig = Buffer.concat([id, signer(seedHex)(text)]).toString('base64');
  return `${text}\n\u2014 ${name} ${sig}\n`;
}

// ---- section 1

test('hashing: empty tree, CT leaves and roots for 1..8 leaves, the vector roots 0..300', async () => {
  assert.equal(toHex(await emptyTreeHash()), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const ct = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(fromHex);
  const ctRoots = [
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
    'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
    '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
    'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
    '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
  ];
  // The two ends LOG.md section 1 quotes.
  assert.ok(ctRoots[0].startsWith('6e340b9c') && ctRoots[7].startsWith('5dc9da79'));
  const ctHashes = await Promise.all(ct.map((e) => leafHash(e)));
  const ctLevels = [ctHashes];
  for (let n = 1; n <= 8; n++) {
    assert.equal(toHex(await mth(ctHashes.slice(0, n))), ctRoots[n - 1], `CT root of ${n}`);
    const got = await treeHashFromTiles(n, async (p) => {
      const t = parseTilePath(p);
      assert.equal(t.width, n, 'a tree of n < 256 leaves reads its one partial level-0 tile');
      return Buffer.concat(ctLevels[0].slice(0, t.width));
    });
    assert.equal(toHex(got), ctRoots[n - 1], `CT root of ${n} from tiles`);
  }
  // CT's inclusion proof of leaf 5 in the tree of 8.
  const proof5 = ['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
    'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7'];
  assert.equal(await verifyInclusion({ index: 5, size: 8, leafHash: ctHashes[5], proof: proof5, root: ctRoots[7] }), true);
  assert.equal(await verifyInclusion({ index: 4, size: 8, leafHash: ctHashes[5], proof: proof5, root: ctRoots[7] }), false);
  // The three roots LOG.md section 1 quotes for the vector leaves.
  assert.ok(V.roots[1].startsWith('8cbaeaab') && V.roots[1].endsWith('b07991a4e'.slice(1)));
  assert.ok(V.roots[2].startsWith('6644d717') && V.roots[2].endsWith('5f9989cd'));
  assert.ok(V.roots[300].startsWith('8a4d0bf3') && V.roots[300].endsWith('5f0f608e'));
  const levels = await tree();
  for (let n = 0; n <= 300; n++) {
    assert.equal(toHex(await treeHashFromTiles(n, getTileFor(levels, n))), V.roots[n], `root of ${n} from tiles`);
  }
  for (const n of [1, 2, 3, 7, 64, 255, 256, 257, 300]) {
    assert.equal(toHex(await mth(levels[0].slice(0, n))), V.roots[n], `root of ${n} by the recursive definition`);
  }
  await assert.rejects(nodeHash(new Uint8Array(31), new Uint8Array(32)), TypeError);
});

// ---- section 4: tiles of the big tree

test('tiles: the tree of 70000 leaves, its tile list, each tile\'s sha256, its root from tiles', async () => {
  const levels = await tree();
  const list = [...tilesForSize(V.big_size, { entries: true })];
  assert.deepEqual(list.map((t) => t.path), V.tiles.map((t) => t.path));
  for (const [i, t] of V.tiles.entries()) {
    assert.equal(list[i].level, t.level);
    assert.equal(list[i].index, BigInt(t.index));
    assert.equal(list[i].width, t.width);
    assert.equal(sha(bytesOf(levels, t.path)), t.sha256, `sha256 of ${t.path}`);
  }
  // Section 4's count: 273 full level-0 tiles and one of 112, one full level-1 and one of 17, one level-2 of 1.
  const hashTiles = list.filter((t) => !t.entries).map((t) => `${t.level}:${t.width}`);
  assert.equal(hashTiles.filter((x) => x === '0:256').length, 273);
  assert.deepEqual(hashTiles.filter((x) => x !== '0:256'), ['0:112', '1:256', '1:17', '2:1']);
  const fetched = [];
  const r = await treeHashFromTiles(V.big_size, getTileFor(levels, V.big_size, fetched));
  assert.equal(toHex(r), V.big_root);
  assert.ok(fetched.length <= 3, `the root reads few tiles (${fetched})`);
  assert.equal(await checkAllTiles(V.big_size, getTileFor(levels, V.big_size), { entries: true }), true);
  // Entry bundles hash to their level-0 tile.
  const bundle = parseEntryBundle(bytesOf(levels, 'tile/entries/273.p/112'), { width: 112 });
  assert.equal(bundle.length, 112);
  assert.equal(new TextDecoder().decode(bundle[0]), 'replayd leaf 69888');
  assert.deepEqual(await hashTileOfEntries(bundle), new Uint8Array(bytesOf(levels, 'tile/0/273.p/112')));
  // Tile widths at the edges.
  assert.equal(tileWidth(256, 0, 0), 256);
  assert.equal(tileWidth(256, 1, 0), 1);
  assert.equal(tileWidth(255, 1, 0), 0);
  assert.equal(tileWidth(P63, 7, 0), 128);
  assert.deepEqual([...tilesForSize(0)], []);
  assert.deepEqual([...tilesForSize(256)].map((t) => t.path), ['tile/0/000', 'tile/1/000.p/1']);
  const first = tilesForSize(P63).next().value;
  assert.equal(first.path, 'tile/0/000');
  assert.throws(() => tilesForSize(P63 + 1n).next(), RangeError);
});

test('tiles: tampering with a tile, a tile\'s length or an entry is refused', async () => {
  const levels = await tree();
  const good = getTileFor(levels, V.big_size);
  for (const victim of ['tile/2/000.p/1', 'tile/1/001.p/17', 'tile/0/273.p/112']) {
    const bad = async (p) => {
      const b = new Uint8Array(await good(p));
      if (p === victim) b[b.length - 1] ^= 1;
      return b;
    };
    assert.notEqual(toHex(await treeHashFromTiles(V.big_size, bad)), V.big_root, `flip in ${victim}`);
  }
  // A tile one hash short, or one byte long.
  for (const cut of [-32, 1]) {
    const bad = async (p) => {
      const b = await good(p);
      return cut < 0 ? b.subarray(0, b.length + cut) : Buffer.concat([b, Buffer.alloc(cut)]);
    };
    await assert.rejects(treeHashFromTiles(V.big_size, bad), /bytes, not/);
  }
  // A flipped bit in a full tile the root never reads is caught by checkAllTiles.
  const flipFull = async (p) => {
    const b = new Uint8Array(await good(p));
    if (p === 'tile/0/017') b[5] ^= 0x80;
    return b;
  };
  assert.equal(toHex(await treeHashFromTiles(V.big_size, flipFull)), V.big_root);
  await assert.rejects(checkAllTiles(V.big_size, flipFull), /tile\/1\/000/);
  // A flipped bit in an entry.
  const flipEntry = async (p) => {
    const b = new Uint8Array(await good(p));
    if (p === 'tile/entries/005') b[10] ^= 1;
    return b;
  };
  await assert.rejects(checkAllTiles(V.big_size, flipEntry, { entries: true }), /entry \d+ of tile\/entries\/005/);
  // Entry bundles cut short, or with the wrong count.
  const bundle = bytesOf(levels, 'tile/entries/000');
  assert.throws(() => parseEntryBundle(bundle.subarray(0, bundle.length - 1)), /cut short/);
  assert.throws(() => parseEntryBundle(Uint8Array.of(0)), /cut short/);
  assert.throws(() => parseEntryBundle(bundle, { width: 255 }), /256 entries/);
  assert.deepEqual(parseEntryBundle(Uint8Array.of(0, 0, 0, 1, 7)), [new Uint8Array(0), Uint8Array.of(7)]);
  // A tree whose tiles the server does not have.
  await assert.rejects(treeHashFromTiles(V.big_size + 1, good), /404/);
});

// ---- section 4: paths

test('tile paths: the vectors, round trips, and every non-canonical form refused', () => {
  for (const p of V.paths) {
    assert.equal(tilePath({ level: p.level, index: BigInt(p.index), width: p.width }), p.path);
    const t = parseTilePath(p.path);
    assert.deepEqual([t.level, t.index, t.width, t.entries], [p.level, BigInt(p.index), p.width, p.level === -1]);
  }
  // Section 4's examples.
  assert.equal(tilePath({ level: 0, index: 1234067 }), 'tile/0/x001/x234/067');
  assert.equal(tilePath({ level: 0, index: 5 }), 'tile/0/005');
  assert.equal(tilePath({ level: 0, index: 1000 }), 'tile/0/x001/000');
  // The largest tiles of a tree of 2^63 leaves, and one past each.
  const last0 = (1n << 55n) - 1n;
  assert.equal(parseTilePath(tilePath({ level: 0, index: last0 })).index, last0);
  assert.equal(parseTilePath(tilePath({ level: -1, index: last0, width: 3 })).index, last0);
  assert.equal(parseTilePath('tile/7/000.p/128').width, 128);
  assert.equal(parseTilePath('tile/6/127').index, 127n);
  const refused = [
    // listed in section 4
    'tile/0/x000/005', 'tile/00/005', 'tile/0/005.p/256', 'tile/0/005.p/05', 'tile/8/000', 'tile/9/000.p/1', 'tile/63/000',
    // other forms that are not the one canonical form
    'tile/0/5', 'tile/0/05', 'tile/0/0005', 'tile/0/x005', 'tile/0/001/000', 'tile/0/X001/000', 'tile/0/x1/000',
    'tile/0/x001/x000', 'tile/entries/x000/001', 'tile/entries/000.p/0', 'tile/0/000.p/', 'tile/0/000.p/1/', 'tile/0/000.p/300',
    'tile/0/000.p/+1', 'tile/0/000/', '/tile/0/000', 'tile//000', 'tile/-1/000', 'tile/+1/000', 'tile/1e0/000', 'tile/0/000 ',
    'tile/0/00a', 'tile/entries/00', 'tiles/0/000', 'tile/Entries/000', 'tile/0/000.P/1', 'tile/0/000.p1', '', 'tile/0',
    // beyond a tree of 2^63 leaves
    'tile/7/000', 'tile/7/001.p/1', 'tile/7/000.p/129', 'tile/6/128', tilePath({ level: 0, index: last0 }).replace(/967$/, '968'),
    'tile/entries/x036/x028/x797/x018/x963/968', 'tile/0/x001/x000/x000/x000/x000/x000/000',
  ];
  for (const p of refused) assert.throws(() => parseTilePath(p), RangeError, `refuses ${JSON.stringify(p)}`);
  for (const bad of [{ level: 8, index: 0 }, { level: -2, index: 0 }, { level: 0, index: -1 }, { level: 0, index: 0, width: 0 },
    { level: 0, index: 0, width: 257 }, { level: 0, index: 1.5 }, { level: 7, index: 0 }, { level: 0, index: 1n << 55n }]) {
    assert.throws(() => tilePath(bad), RangeError, JSON.stringify(bad, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)));
  }
});

// ---- section 3

test('inclusion proofs: every vector verifies, is computed from tiles, and any tampering is refused', async () => {
  const levels = await tree();
  for (const v of V.inclusion) {
    const args = { index: v.i, size: v.n, leafHash: v.leaf, proof: v.proof, root: v.root };
    assert.equal(v.leaf, toHex(levels[0][v.i]));
    assert.equal(await verifyInclusion(args), true, `${v.i} in ${v.n}`);
    const mine = await new TileReader(v.n, getTileFor(levels, v.n)).inclusionProof(v.i);
    assert.deepEqual(mine.map(toHex), v.proof, `proof of ${v.i} in ${v.n} from tiles`);
    assert.equal(await verifyInclusion({ ...args, index: BigInt(v.i), size: BigInt(v.n), leafHash: fromHex(v.leaf), proof: mine, root: fromHex(v.root) }), true);
    for (let k = 0; k < v.proof.length; k++) {
      const proof = v.proof.slice();
      proof[k] = flipHex(proof[k], k * 7);
      assert.equal(await verifyInclusion({ ...args, proof }), false, `flip in hash ${k} of ${v.i} in ${v.n}`);
    }
    assert.equal(await verifyInclusion({ ...args, root: flipHex(v.root, 200) }), false);
    assert.equal(await verifyInclusion({ ...args, leafHash: flipHex(v.leaf, 3) }), false);
    assert.equal(await verifyInclusion({ ...args, proof: [...v.proof, v.root] }), false, 'a hash too many');
    if (v.proof.length) assert.equal(await verifyInclusion({ ...args, proof: v.proof.slice(0, -1) }), false, 'a hash too few');
    if (v.n > 1) assert.equal(await verifyInclusion({ ...args, index: (v.i + 1) % v.n }), false, 'another index');
    // (The algorithm binds the size only through the tree's shape: a size of another depth must fail.)
    assert.equal(await verifyInclusion({ ...args, size: v.n * 2 }), false, 'another size');
    assert.equal(await verifyInclusion({ ...args, index: v.n }), false, 'index = size');
  }
  // Bad input of every kind is false, never a throw.
  const v = V.inclusion[3];
  for (const bad of [{ index: -1 }, { index: 2 ** 53 }, { index: '2' }, { size: 0 }, { size: null }, { proof: null },
    { proof: ['zz'] }, { root: 'AB' }, { leafHash: new Uint8Array(31) }, { proof: Array(65).fill(v.root) }, { size: P63 + 1n }]) {
    assert.equal(await verifyInclusion({ index: v.i, size: v.n, leafHash: v.leaf, proof: v.proof, root: v.root, ...bad }), false, JSON.stringify(bad, (_, x) => (typeof x === 'bigint' ? `${x}n` : x)));
  }
  assert.equal(await verifyInclusion(), false);
  assert.equal(await verifyInclusion(null), false);
});

test('inclusion and consistency digests: every proof for n = 1..70, computed from tiles', async () => {
  const levels = await tree();
  for (let n = 1; n <= 70; n++) {
    const reader = new TileReader(n, getTileFor(levels, n));
    const rootN = V.roots[n];
    const inc = createHash('sha256');
    for (let i = 0; i < n; i++) {
      const p = await reader.inclusionProof(i);
      inc.update(Uint8Array.of(p.length));
      for (const h of p) inc.update(h);
      assert.equal(await verifyInclusion({ index: i, size: n, leafHash: levels[0][i], proof: p, root: rootN }), true);
    }
    assert.equal(inc.digest('hex'), V.inclusion_digests[n - 1], `inclusion digest ${n}`);
    const con = createHash('sha256');
    for (let m = 1; m <= n; m++) {
      const p = await reader.consistencyProof(m);
      con.update(Uint8Array.of(p.length));
      for (const h of p) con.update(h);
      assert.equal(await verifyConsistency({ oldSize: m, newSize: n, oldRoot: V.roots[m], newRoot: rootN, proof: p }), true, `${m} -> ${n}`);
    }
    assert.equal(con.digest('hex'), V.consistency_digests[n - 1], `consistency digest ${n}`);
  }
});

test('consistency proofs: every vector verifies, is computed from tiles, and any tampering is refused', async () => {
  const levels = await tree();
  for (const v of V.consistency) {
    const args = { oldSize: v.m, newSize: v.n, oldRoot: v.root_m, newRoot: v.root_n, proof: v.proof };
    assert.equal(await verifyConsistency(args), true, `${v.m} -> ${v.n}`);
    const mine = await new TileReader(v.n, getTileFor(levels, v.n)).consistencyProof(v.m);
    assert.deepEqual(mine.map(toHex), v.proof, `proof ${v.m} -> ${v.n} from tiles`);
    for (let k = 0; k < v.proof.length; k++) {
      const proof = v.proof.slice();
      proof[k] = flipHex(proof[k], 255 - k);
      assert.equal(await verifyConsistency({ ...args, proof }), false, `flip in hash ${k} of ${v.m} -> ${v.n}`);
    }
    assert.equal(await verifyConsistency({ ...args, oldRoot: flipHex(v.root_m, 9) }), false);
    assert.equal(await verifyConsistency({ ...args, newRoot: flipHex(v.root_n, 100) }), false);
    assert.equal(await verifyConsistency({ ...args, proof: [...v.proof, v.root_n] }), false, 'a hash too many');
    if (v.proof.length) assert.equal(await verifyConsistency({ ...args, proof: v.proof.slice(0, -1) }), false, 'a hash too few');
    if (v.m !== v.n) assert.equal(await verifyConsistency({ ...args, newSize: v.n * 2 }), false, 'another new size');
    if (v.m > 1 && v.m < v.n) assert.equal(await verifyConsistency({ ...args, oldSize: v.m - 1 }), false, 'another old size');
    assert.equal(await verifyConsistency({ ...args, oldSize: v.n + 1 }), false, 'old size over new size');
  }
  // From the empty tree: only with an empty proof and the empty tree's root.
  const empty = toHex(await emptyTreeHash());
  assert.equal(await verifyConsistency({ oldSize: 0, newSize: 5, oldRoot: empty, newRoot: V.roots[5], proof: [] }), true);
  assert.equal(await verifyConsistency({ oldSize: 0, newSize: 5, oldRoot: V.roots[1], newRoot: V.roots[5], proof: [] }), false);
  assert.equal(await verifyConsistency({ oldSize: 0, newSize: 5, oldRoot: empty, newRoot: V.roots[5], proof: [empty] }), false);
  assert.equal(await verifyConsistency({ oldSize: 3, newSize: 3, oldRoot: V.roots[3], newRoot: V.roots[3], proof: [] }), true);
  assert.equal(await verifyConsistency({ oldSize: 3, newSize: 3, oldRoot: V.roots[3], newRoot: V.roots[4], proof: [] }), false);
  assert.equal(await verifyConsistency({ oldSize: 3, newSize: 3, oldRoot: V.roots[3], newRoot: V.roots[3], proof: [V.roots[3]] }), false);
  assert.equal(await verifyConsistency({ oldSize: 3, newSize: 4, oldRoot: V.roots[3], newRoot: V.roots[4], proof: [] }), false);
  assert.equal(await verifyConsistency(), false);
  assert.equal(await verifyConsistency(null), false);
  assert.equal(await verifyConsistency({ oldSize: 1, newSize: 2, oldRoot: V.roots[1], newRoot: V.roots[2], proof: 'x' }), false);
});

test('sizes and indices at the edges: 0, 1, 2^63', async () => {
  const h = (i) => createHash('sha256').update(`h${i}`).digest();
  // The last leaf of a tree of 2^63 leaves: 63 hashes, each on the left.
  const proof = Array.from({ length: 63 }, (_, i) => h(i));
  let r = h('leaf');
  for (const p of proof) r = await nodeHash(p, r);
  const args = { index: P63 - 1n, size: P63, leafHash: h('leaf'), proof, root: r };
  assert.equal(await verifyInclusion(args), true);
  assert.equal(await verifyInclusion({ ...args, index: P63 - 2n }), false);
  assert.equal(await verifyInclusion({ ...args, index: P63 }), false);
  assert.equal(await verifyInclusion({ ...args, size: P63 + 1n, index: P63 }), false, 'over 2^63 leaves');
  assert.equal(await verifyInclusion({ ...args, proof: proof.slice(1) }), false);
  // The first leaf of a tree of 2^63: 63 hashes on the right.
  let r0 = h('leaf');
  for (const p of proof) r0 = await nodeHash(r0, p);
  assert.equal(await verifyInclusion({ ...args, index: 0n, root: r0 }), true);
  assert.equal(await verifyInclusion({ ...args, index: 0, root: r0 }), true, 'a Number index');
  // One leaf: an empty proof, root = leaf hash.
  assert.equal(await verifyInclusion({ index: 0, size: 1, leafHash: V.roots[1], proof: [], root: V.roots[1] }), true);
  assert.equal(await verifyInclusion({ index: 0, size: 0, leafHash: V.roots[1], proof: [], root: V.roots[1] }), false);
  // Consistency from 2^62 to 2^63: the right half's root.
  const first = h('left');
  const right = h('right');
  const second = await nodeHash(first, right);
  const c = { oldSize: 1n << 62n, newSize: P63, oldRoot: first, newRoot: second, proof: [right] };
  assert.equal(await verifyConsistency(c), true);
  assert.equal(await verifyConsistency({ ...c, newSize: P63 + 1n }), false);
  assert.equal(await verifyConsistency({ ...c, newRoot: await nodeHash(right, first) }), false);
  // Checkpoint sizes.
  const rootB64 = Buffer.from(fromHex(V.roots[1])).toString('base64');
  assert.equal(parseCheckpoint(`o\n9223372036854775808\n${rootB64}\n`).size, P63);
  assert.equal(parseCheckpoint(`o\n0\n${rootB64}\n`).size, 0n);
  for (const s of ['9223372036854775809', '18446744073709551616', '99999999999999999999', '01', '-1', '+1', '1.0', ' 1', '0x1', '']) {
    assert.throws(() => parseCheckpoint(`o\n${s}\n${rootB64}\n`), /size/, s);
  }
  // Root of the empty tree from (no) tiles.
  assert.equal(toHex(await treeHashFromTiles(0, async () => assert.fail('no tile is read'))), V.roots[0]);
});

// ---- sections 5 and 6

const GO_KEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

test('signed notes: Go\'s PeterNeumann example', async () => {
  assert.ok(LOG_MD.includes(GO_KEY) && LOG_MD.includes('x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM='));
  const k = await parseVerifierKey(GO_KEY);
  assert.equal(k.name, 'PeterNeumann');
  assert.equal(k.keyId, 'c74f20a3');
  assert.equal(k.publicKey.length, 32);
  const opened = await openNote(GO_NOTE, [GO_KEY]);
  assert.equal(opened.text, GO_TEXT);
  assert.deepEqual(opened.verifiedBy, ['PeterNeumann']);
  await openNote(enc(GO_NOTE), [k]);
  await assert.rejects(openNote(GO_NOTE.replace('cryptography', 'Cryptography'), [GO_KEY]), /does not verify/);
  await assert.rejects(openNote(GO_NOTE.replace('x08go/ZJ', 'x08go/ZK'), [GO_KEY]), /does not verify/);
});

test('verifier keys: the vectors\' key, and every malformed form refused', async () => {
  const n = V.note;
  const k = await parseVerifierKey(n.verifier_key);
  assert.deepEqual([k.name, k.keyId, toHex(k.publicKey)], [n.key_name, n.key_id, n.public_key]);
  assert.equal(await keyId(n.key_name, fromHex(n.public_key)), n.key_id);
  // The key LOG.md section 6 names is the vectors' key.
  assert.ok(LOG_MD.includes(n.verifier_key));
  const [name, id, b64] = n.verifier_key.split('+');
  const bad = [
    `${name}+${id}`, `${name}+${id}+${b64}+x`, `+${id}+${b64}`, `${name} x+${id}+${b64}`, `${name}+${id.toUpperCase()}+${b64}`,
    `${name}+${flipHex(id)}+${b64}`, `${name}+${id}+${b64.slice(0, -1)}`, `${name}x+${id}+${b64}`,
    `${name}+${id}+${Buffer.concat([Buffer.of(2), Buffer.from(n.public_key, 'hex')]).toString('base64')}`,
    `${name}+${id}+${Buffer.concat([Buffer.of(1), Buffer.from(n.public_key, 'hex'), Buffer.of(0)]).toString('base64')}`,
    `${name}+${id}+${b64.slice(0, -1)}F`, // non-zero padding bits: not the canonical form
    `${'a'.repeat(256)}+${id}+${b64}`, `${name}\u00a0+${id}+${b64}`,
  ];
  for (const t of bad) await assert.rejects(parseVerifierKey(t), Error, t);
  await assert.rejects(parseVerifierKey(42), TypeError);
});

test('checkpoints: the vectors\' notes and LOG.md section 6\'s worked example', async () => {
  const n = V.note;
  for (const c of n.checkpoints) {
    const opened = await openNote(c.note, [n.verifier_key]);
    const cp = parseCheckpoint(opened.text);
    assert.equal(cp.origin, n.key_name);
    assert.equal(cp.size, BigInt(c.size));
    assert.equal(toHex(cp.root), c.root);
    assert.equal(c.root, V.roots[c.size]);
    // Signing the same text with the seed gives the same note (Ed25519 is deterministic).
    assert.equal(await signNote(opened.text, n.key_name, n.seed, n.public_key), c.note);
  }
  const m = /<!-- log-example-checkpoint -->\n```\n([^`]*)```/.exec(LOG_MD);
  assert.ok(m, 'LOG.md shows the example checkpoint');
  assert.equal(m[1], n.checkpoints.find((c) => c.size === 1).note);
  const cp = parseCheckpoint((await openNote(m[1], [n.verifier_key])).text);
  assert.deepEqual([cp.origin, cp.size, toHex(cp.root)], ['log.replayd.example/test', 1n, V.roots[1]]);
});

test('signed notes: tampering and every refusal of section 5', async () => {
  const n = V.note;
  const note = n.checkpoints[2].note;
  const key = n.verifier_key;
  const [text, sigLine] = note.split('\n\n');
  const sign = (t) => signNote(t, n.key_name, n.seed, n.public_key);
  assert.equal((await openNote(note, [key])).text, `${text}\n`);
  // Every single-bit flip of the signed text is refused (the first 40 bytes, and the root's characters).
  const bytes = enc(note);
  for (let i = 0; i < text.length; i++) {
    const b = bytes.slice();
    b[i] ^= 0x01;
    await assert.rejects(openNote(b, [key]), Error, `flip in byte ${i}`);
  }
  // A flipped signature character, or key id.
  const sig = sigLine.trim().split(' ')[2];
  for (const i of [0, 3, 5, 20, sig.length - 3]) {
    const other = sig[i] === 'A' ? 'B' : 'A';
    await assert.rejects(openNote(note.replace(sig, sig.slice(0, i) + other + sig.slice(i + 1)), [key]), Error, `sig char ${i}`);
  }
  // Unknown keys only; a wrong name with the right id; no keys.
  await assert.rejects(openNote(note, [GO_KEY]), /no signature by a known key/);
  await assert.rejects(openNote(note.replace(`\u2014 ${n.key_name} `, '\u2014 other.example/log '), [key]), /no signature by a known key/);
  await assert.rejects(openNote(note, []), /no signature by a known key/);
  // Unknown signatures are skipped (a witness, a future key)...
  const witness = `\u2014 witness.example/w ${Buffer.alloc(68, 7).toString('base64')}\n`;
  const cosigned = note + witness;
  assert.deepEqual((await openNote(cosigned, [key])).signatures.map((s) => [s.name, s.known, s.verified]),
    [[n.key_name, true, true], ['witness.example/w', false, false]]);
  assert.deepEqual((await openNote(`${text}\n\n${witness}${sigLine}`, [key])).verifiedBy, [n.key_name]);
  // ...but two by one known key, or a known key with a bad signature among good ones, are refused.
  await assert.rejects(openNote(`${note}${sigLine}`, [key]), /two signatures/);
  await assert.rejects(openNote(note.replace('dexdS', 'dexdT'), [key, GO_KEY]), Error);
  // Malformed signature lines and notes.
  const malformed = {
    'no final newline': note.slice(0, -1),
    'no blank line': note.replace('\n\n', '\n'),
    'no signatures': `${text}\n\n`,
    'hyphen, not em dash': note.replace('\u2014', '-'),
    'two dashes': note.replace('\u2014 ', '\u2014\u2014 '),
    'no space after the dash': note.replace('\u2014 ', '\u2014'),
    'no signature': note.replace(/ [^ ]*\n$/, '\n'),
    'signature under 5 bytes': `${note}\u2014 x.example AAAAAA==\n`,
    'not canonical base64 (unpadded)': note.replace(/=\n$/, '\n'),
    'not canonical base64 (padding bits)': `${note}\u2014 x.example AAAAAB==\n`,
    'base64url': `${note}\u2014 x.example ${Buffer.alloc(68, 251).toString('base64url')}\n`,
    'an empty signature line': `${note}\n`.replace(/\n\n$/, '\n \n'),
    'a key name with a plus': `${note}\u2014 a+b ${Buffer.alloc(68).toString('base64')}\n`,
    'a key name with a no-break space': `${note}\u2014 a\u00a0b ${Buffer.alloc(68).toString('base64')}\n`,
    'a tab': note.replace('\n', '\t\n'),
    'a carriage return': note.replace(/\n/g, '\r\n'),
    'a NUL': note.replace('log.', 'log\u0000.'),
    'a lone surrogate': note.replace('log.', 'log\ud800.'),
    'over 16384 bytes': `${text}${'\nx'.repeat(9000)}\n\n${sigLine}`,
    'over 100 signatures': note + witness.repeat(100),
    'a known key, a short signature': note.replace(sig, Buffer.from(sig, 'base64').subarray(0, 67).toString('base64')),
  };
  const reasons = {
    'no final newline': /end in a newline/, 'no blank line': /no blank line/, 'no signatures': /end in a newline/,
    'no signature': /without its signature/, 'signature under 5 bytes': /under 5 bytes/, 'a lone surrogate': /UTF-8/,
    'over 16384 bytes': /16384/, 'over 100 signatures': /100 signatures/, 'a known key, a short signature': /does not verify/,
  };
  for (const [why, t] of Object.entries(malformed)) {
    const want = reasons[why] || (/base64/.test(why) ? /base64/ : /key name/.test(why) ? /key name/
      : /control|tab|carriage|NUL/.test(why) ? /control character/ : /signature line not starting/);
    await assert.rejects(openNote(t, [key]), want, why);
  }
  // Exactly 100 signature lines, and a text with a blank line inside, are fine (the last blank line splits).
  await openNote(note + witness.repeat(99), [key]);
  const inner = `${n.key_name}\n\nmore\n`;
  assert.equal((await openNote(await sign(inner), [key])).text, inner);
  // Invalid UTF-8 bytes.
  await assert.rejects(openNote(Uint8Array.of(...enc(text), 0xff, ...enc(`\n\n${sigLine}`)), [key]), /UTF-8/);
});

test('checkpoints: exactly three lines, each well formed', async () => {
  const n = V.note;
  const rootB64 = Buffer.from(fromHex(V.roots[1])).toString('base64');
  const ok = `${n.key_name}\n1\n${rootB64}\n`;
  assert.equal(parseCheckpoint(ok).size, 1n);
  const bad = {
    'an extension line': `${ok}ext\n`,
    'an empty extension line': `${ok}\n`,
    'two lines': `${n.key_name}\n1\n`,
    'no final newline': ok.slice(0, -1),
    'an empty origin': `\n1\n${rootB64}\n`,
    'a short root': `${n.key_name}\n1\n${Buffer.alloc(31).toString('base64')}\n`,
    'a long root': `${n.key_name}\n1\n${Buffer.alloc(33).toString('base64')}\n`,
    'an unpadded root': `${n.key_name}\n1\n${rootB64.replace(/=$/, '')}\n`,
    'a base64url root': `${n.key_name}\n1\n${Buffer.from(fromHex(V.roots[2])).toString('base64url')}=\n`,
    'a hex root': `${n.key_name}\n1\n${V.roots[1]}\n`,
    'a leading zero': `${n.key_name}\n01\n${rootB64}\n`,
    'a signed note': n.checkpoints[1].note,
  };
  assert.ok(Buffer.from(fromHex(V.roots[2])).toString('base64url') !== Buffer.from(fromHex(V.roots[2])).toString('base64').replace(/=$/, ''), 'the base64url case differs');
  for (const [why, t] of Object.entries(bad)) assert.throws(() => parseCheckpoint(t), Error, why);
  // A signed note with an extension line opens, but is no checkpoint of this log.
  const ext = await signNote(`${ok}ext\n`, n.key_name, n.seed, n.public_key);
  const opened = await openNote(ext, [n.verifier_key]);
  assert.throws(() => parseCheckpoint(opened.text), /lines/);
});

// ---- section 10

test('verifyLog: a checkpoint of the 70000-leaf tree, and every refusal', async () => {
  const levels = await tree();
  const n = V.note;
  const rootB64 = Buffer.from(fromHex(V.big_root)).toString('base64');
  const cpText = await signNote(`${n.key_name}\n${V.big_size}\n${rootB64}\n`, n.key_name, n.seed, n.public_key);
  const getTile = getTileFor(levels, V.big_size);
  const args = { checkpointText: cpText, verifierKey: n.verifier_key, origin: n.key_name, getTile };
  const r = await verifyLog(args);
  assert.deepEqual([r.origin, r.size, toHex(r.root)], [n.key_name, 70000n, V.big_root]);
  assert.equal((await verifyLog({ ...args, allTiles: true, entries: true })).size, 70000n);
  // The vectors' own checkpoints (0, 1 and 300 leaves).
  for (const c of n.checkpoints) {
    assert.equal((await verifyLog({ ...args, checkpointText: c.note, getTile: getTileFor(levels, c.size) })).size, BigInt(c.size));
  }
  await assert.rejects(verifyLog({ ...args, origin: 'other.example/log' }), /origin/);
  await assert.rejects(verifyLog({ ...args, origin: undefined }), TypeError);
  await assert.rejects(verifyLog({ ...args, verifierKey: GO_KEY }), /known key/);
  await assert.rejects(verifyLog({ ...args, checkpointText: cpText.replace('70000', '70001') }), /does not verify/);
  // A tile flipped, a checkpoint whose root is not the tiles'.
  const flipped = async (p) => {
    const b = new Uint8Array(await getTile(p));
    if (p === 'tile/1/001.p/17') b[40] ^= 4;
    return b;
  };
  await assert.rejects(verifyLog({ ...args, getTile: flipped }), /the tiles give root/);
  const wrongRoot = await signNote(`${n.key_name}\n${V.big_size}\n${Buffer.from(fromHex(flipHex(V.big_root, 77))).toString('base64')}\n`,
    n.key_name, n.seed, n.public_key);
  await assert.rejects(verifyLog({ ...args, checkpointText: wrongRoot }), /the tiles give root/);
  // An entry flipped: only the full check reads entry bundles.
  const flippedEntry = async (p) => {
    const b = new Uint8Array(await getTile(p));
    if (p === 'tile/entries/100') b[3] ^= 1;
    return b;
  };
  assert.equal((await verifyLog({ ...args, getTile: flippedEntry })).size, 70000n);
  await assert.rejects(verifyLog({ ...args, getTile: flippedEntry, allTiles: true, entries: true }), /entry/);
});

// ---- section 7

function scoreLeaf({ day = -1, game = 'pipes', completed = 1, status = 0 } = {}) {
  const g = enc(game);
  const b = new Uint8Array(92 + g.length);
  const v = new DataView(b.buffer);
  b[0] = 1;
  for (let i = 0; i < 16; i++) b[1 + i] = 0xa0 + i;
  v.setBigInt64(17, -5n);
  v.setUint32(25, 4000000000);
  v.setUint32(29, 0xdeadbeef);
  v.setUint32(33, 3);
  v.setInt32(37, day);
  v.setBigInt64(41, 9007199254740993n);
  b[49] = completed;
  b[50] = status;
  v.setBigInt64(51, 1765000000123n);
  for (let i = 0; i < 32; i++) b[59 + i] = i;
  b[91] = g.length;
  b.set(g, 92);
  return b;
}

function actionLeaf(kind, tail = []) {
  const b = new Uint8Array(25 + tail.length);
  const v = new DataView(b.buffer);
  b[0] = kind;
  v.setBigInt64(1, 77n);
  v.setBigInt64(9, -1n);
  v.setBigInt64(17, 1n << 62n);
  b.set(tail, 25);
  return b;
}

test('leaves: every kind decodes; wrong lengths, unknown kinds and bad fields are refused', () => {
  const s = decodeLeaf(scoreLeaf());
  assert.deepEqual(s, {
    kind: 'score', kindByte: 1, score_id: 'a0a1a2a3a4a5a6a7a8a9aaabacadaeaf', player_id: -5n, level: 4000000000, seed: 0xdeadbeef,
    version: 3, day: -1, score: 9007199254740993n, completed: true, status: 'ranked', submitted_at_ms: 1765000000123n,
    moves_hash: toHex(Uint8Array.from({ length: 32 }, (_, i) => i)), game: 'pipes', board: 'level:pipes:4000000000',
  });
  const d = decodeLeaf(scoreLeaf({ day: 20425, completed: 0, status: 1 }));
  assert.deepEqual([d.date, d.board, d.completed, d.status], ['2025-12-03', 'daily:2025-12-03', false, 'held']);
  assert.equal(decodeLeaf(scoreLeaf({ day: 0 })).board, 'daily:1970-01-01');
  assert.equal(decodeLeaf(scoreLeaf({ game: 'x'.repeat(64) })).game.length, 64);
  const id = Array.from({ length: 16 }, (_, i) => 0xf0 + i);
  for (const [k, name] of [[2, 'void'], [3, 'restore'], [7, 'approve']]) {
    assert.deepEqual(decodeLeaf(actionLeaf(k, id)), { kind: name, kindByte: k, action_id: 77n, at_ms: -1n, player_id: 1n << 62n,
      score_id: 'f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff' });
    assert.throws(() => decodeLeaf(actionLeaf(k, id.slice(1))), /41 bytes/);
    assert.throws(() => decodeLeaf(actionLeaf(k, [...id, 0])), /41 bytes/);
  }
  for (const [k, name] of [[4, 'ban'], [5, 'unban']]) {
    assert.deepEqual(decodeLeaf(actionLeaf(k)), { kind: name, kindByte: k, action_id: 77n, at_ms: -1n, player_id: 1n << 62n });
    assert.throws(() => decodeLeaf(actionLeaf(k, [0])), /25 bytes/);
  }
  const nm = enc('Zoë 🎲');
  assert.equal(decodeLeaf(actionLeaf(6, [nm.length, ...nm])).name, 'Zoë 🎲');
  const refused = {
    empty: new Uint8Array(0),
    'kind 0': Uint8Array.of(0, ...actionLeaf(4).subarray(1)),
    'kind 8': Uint8Array.of(8, ...actionLeaf(4).subarray(1)),
    'kind 0xff': Uint8Array.of(0xff),
    'a score one byte short': scoreLeaf().subarray(0, 96),
    'a score one byte long': Uint8Array.of(...scoreLeaf(), 0x61),
    'a score without its name': scoreLeaf().subarray(0, 92),
    'a score of 10 bytes': scoreLeaf().subarray(0, 10),
    'an empty game name': (() => { const b = scoreLeaf().slice(0, 92); b[91] = 0; return b; })(),
    'a game name of 65': scoreLeaf({ game: 'x'.repeat(65) }),
    'a game name with a space': scoreLeaf({ game: 'pi es' }),
    'a game name not ASCII': scoreLeaf({ game: 'pipé' }),
    'completed 2': scoreLeaf({ completed: 2 }),
    'status 2': scoreLeaf({ status: 2 }),
    'day -2': scoreLeaf({ day: -2 }),
    'day past 9999': scoreLeaf({ day: 2932897 }),
    'an action of 24 bytes': actionLeaf(4).subarray(0, 24),
    'a rename without its name': actionLeaf(6, [0]),
    'a rename of 65': actionLeaf(6, [65, ...enc('x'.repeat(65))]),
    'a rename cut short': actionLeaf(6, [5, ...enc('abcd')]),
    'a rename too long': actionLeaf(6, [3, ...enc('abcd')]),
    'a rename not UTF-8': actionLeaf(6, [2, 0xc3, 0x28]),
    'a rename of 25 bytes': actionLeaf(6),
  };
  assert.equal(decodeLeaf(scoreLeaf({ day: 2932896 })).date, '9999-12-31');
  for (const [why, b] of Object.entries(refused)) assert.throws(() => decodeLeaf(b), RangeError, why);
  assert.throws(() => decodeLeaf(Uint8Array.of(9)), /unknown kind 0x09/);
});

test('the package exports and declares the log verifier', () => {
  // index.mjs pulls in vendor/ (built by npm pack), so its re-export list is read as text here.
  const indexSrc = readFileSync(new URL('../src/index.mjs', import.meta.url), 'utf8');
  const reexport = /export \{([^}]*)\} from '\.\/log\.mjs'/.exec(indexSrc);
  assert.ok(reexport, 'index.mjs re-exports log.mjs');
  const names = reexport[1].split(',').map((x) => x.trim()).filter(Boolean);
  const dts = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8');
  for (const name of ['leafHash', 'nodeHash', 'verifyInclusion', 'verifyConsistency', 'tilePath', 'parseTilePath', 'tilesForSize',
    'parseEntryBundle', 'treeHashFromTiles', 'parseVerifierKey', 'openNote', 'parseCheckpoint', 'decodeLeaf', 'verifyLog', 'foldBoards']) {
    assert.ok(names.includes(name), `index.mjs exports ${name}`);
  }
  for (const name of names) {
    assert.equal(typeof log[name], 'function', `log.mjs has ${name}`);
    assert.match(dts, new RegExp(`export (?:declare )?(?:function|class) ${name}\\b`), `index.d.ts declares ${name}`);
  }
});
