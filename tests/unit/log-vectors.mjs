// The score log's test vectors, from an implementation that shares nothing
// with server/log/: RFC 9162's recursive definitions (MTH, PATH, SUBPROOF)
// written out as they read, over arrays of leaves, with node:crypto's
// SHA-256 and Ed25519; C2SP tile paths and signed notes from their specs.
// tests/unit/test_log_vectors.c checks the C code against what this writes.
//
//   node tests/unit/log-vectors.mjs          writes tests/unit/data/log-vectors.json
//   node tests/unit/log-vectors.mjs --check  exits 1 if that file is not what it would write
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), 'data', 'log-vectors.json');

const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const hex = (b) => Buffer.from(b).toString('hex');

// The leaves every case uses: leaf i is the UTF-8 text "replayd leaf <i>".
const leafData = (i) => Buffer.from(`replayd leaf ${i}`, 'utf8');
const LEAF_HASH = [];
const leafHash = (i) => (LEAF_HASH[i] ??= sha256(Buffer.from([0]), leafData(i)));
const nodeHash = (l, r) => sha256(Buffer.from([1]), l, r);

// RFC 9162 2.1.1: k is the largest power of two smaller than n.
const split = (n) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

// MTH(D[lo:hi]), memoised on the range (the big tree asks for the same
// subtrees many times).
const MTH_MEMO = new Map();
function mth(lo, hi) {
  const n = hi - lo;
  if (n === 0) return sha256(Buffer.alloc(0));
  if (n === 1) return leafHash(lo);
  const key = `${lo}:${hi}`;
  let h = MTH_MEMO.get(key);
  if (!h) {
    const k = split(n);
    h = nodeHash(mth(lo, lo + k), mth(lo + k, hi));
    MTH_MEMO.set(key, h);
  }
  return h;
}

// RFC 9162 2.1.3.1: PATH(m, D[lo:hi]).
function path(m, lo, hi) {
  const n = hi - lo;
  if (n === 1) return [];
  const k = split(n);
  if (m < k) return [...path(m, lo, lo + k), mth(lo + k, hi)];
  return [...path(m - k, lo + k, hi), mth(lo, lo + k)];
}

// RFC 9162 2.1.4.1: PROOF(m, D[0:n]) = SUBPROOF(m, D[0:n], true).
function subproof(m, lo, hi, b) {
  const n = hi - lo;
  if (m === n) return b ? [] : [mth(lo, hi)];
  const k = split(n);
  if (m <= k) return [...subproof(m, lo, lo + k, b), mth(lo + k, hi)];
  return [...subproof(m - k, lo + k, hi, false), mth(lo, lo + k)];
}
const proof = (m, n) => subproof(m, 0, n, true);

// The digest of many proofs in one hash: each proof as one length byte
// and its hashes, in the order the loops give them.
const proofsDigest = (proofs) => hex(sha256(...proofs.flatMap((p) => [Buffer.from([p.length]), ...p])));

// The verifiers as docs/LOG.md section 3 writes them (RFC 9162 2.1.3.2 and
// 2.1.4.2), over Numbers (the sizes here are far below 2^53): the script
// checks its own proofs with them before it writes anything.
function verifyInclusion(m, n, hash, proofHashes, root) {
  if (m >= n) return false;
  let fn = m, sn = n - 1, r = hash;
  for (const p of proofHashes) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}
function verifyConsistency(m, n, first, second, proofHashes) {
  if (m === n) return proofHashes.length === 0 && first.equals(second);
  if (proofHashes.length === 0 || m < 1 || m > n) return false;
  const path = (m & (m - 1)) === 0 ? [first, ...proofHashes] : proofHashes;
  let fn = m - 1, sn = n - 1;
  while (fn % 2 === 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
  let fr = path[0], sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr); sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return fr.equals(first) && sr.equals(second) && sn === 0;
}
const selfCheck = (ok, what) => {
  if (!ok) throw new Error(`log-vectors.mjs disagrees with itself: ${what}`);
};

const PROOF_MAX_N = 70;
const ROOTS_MAX_N = 300;
const BIG = 70000;

const roots = [];
for (let n = 0; n <= ROOTS_MAX_N; n++) roots.push(hex(mth(0, n)));

const inclusionDigests = [];
const consistencyDigests = [];
for (let n = 1; n <= PROOF_MAX_N; n++) {
  const inc = [];
  for (let i = 0; i < n; i++) {
    inc.push(path(i, 0, n));
    selfCheck(verifyInclusion(i, n, leafHash(i), inc[i], mth(0, n)), `inclusion ${i} ${n}`);
    selfCheck(!verifyInclusion(i, n, leafHash(i), inc[i], leafHash(i)) || n === 1, `bad root ${i} ${n}`);
  }
  inclusionDigests.push(proofsDigest(inc));
  const con = [];
  for (let m = 1; m <= n; m++) {
    con.push(proof(m, n));
    selfCheck(verifyConsistency(m, n, mth(0, m), mth(0, n), con[m - 1]), `consistency ${m} ${n}`);
    selfCheck(!verifyConsistency(m, n, mth(0, n), mth(0, m), con[m - 1]) || m === n, `swapped ${m} ${n}`);
  }
  consistencyDigests.push(proofsDigest(con));
}

// A few proofs written out whole, some in the big tree (past one tile).
const inclusionCases = [
  [0, 1], [0, 2], [1, 2], [2, 3], [4, 5], [5, 8], [6, 7], [12, 37],
  [0, BIG], [BIG - 1, BIG], [255, 256], [256, 257], [12345, 65536], [65535, 65537], [65536, 65537],
].map(([i, n]) => ({ i, n, root: hex(mth(0, n)), leaf: hex(leafHash(i)), proof: path(i, 0, n).map(hex) }));
const consistencyCases = [
  [1, 1], [1, 2], [2, 3], [3, 7], [4, 8], [6, 8], [7, 70],
  [1, BIG], [256, BIG], [257, BIG], [65535, 65536], [65536, BIG], [69000, BIG - 1],
].map(([m, n]) => ({ m, n, root_m: hex(mth(0, m)), root_n: hex(mth(0, n)), proof: proof(m, n).map(hex) }));

// C2SP tlog-tiles, from the spec: <N> in 3-digit elements, all but the
// last prefixed with "x"; ".p/<W>" only for a partial tile.
function encodeIndex(n) {
  const groups = [];
  do {
    groups.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return groups.map((g, k) => (k < groups.length - 1 ? `x${g}` : g)).join('/');
}
const tilePath = (level, index, width) =>
  `tile/${level === -1 ? 'entries' : level}/${encodeIndex(index)}${width === 256 ? '' : `.p/${width}`}`;

// Every tile and entry bundle of the big tree: the n-th tile at level l is
// MTH(D[(n*256 + i) * 256^l : (n*256 + i + 1) * 256^l]) for i < its width.
const tiles = [];
for (let level = 0; 256 ** level <= BIG; level++) {
  const count = Math.floor(BIG / 256 ** level); // hashes at this level
  for (let n = 0; n * 256 < count; n++) {
    const width = Math.min(256, count - n * 256);
    const hashes = [];
    for (let i = 0; i < width; i++) {
      const span = 256 ** level;
      hashes.push(mth((n * 256 + i) * span, (n * 256 + i + 1) * span));
    }
    tiles.push({ level, index: n, width, path: tilePath(level, n, width), sha256: hex(sha256(...hashes)) });
    if (level === 0) {
      const bundle = [];
      for (let i = 0; i < width; i++) {
        const d = leafData(n * 256 + i);
        bundle.push(Buffer.from([d.length >> 8, d.length & 255]), d);
      }
      tiles.push({ level: -1, index: n, width, path: tilePath(-1, n, width), sha256: hex(sha256(...bundle)) });
    }
  }
}
const pathCases = [
  [0, 0, 256], [0, 1, 256], [0, 999, 256], [0, 1000, 256], [1, 1234067, 256], [2, 1234067, 8],
  [-1, 1234067, 255], [7, 0, 1], [-1, 0, 1], [3, 1000000, 17], [0, 2 ** 53 - 1, 256],
].map(([level, index, width]) => ({ level, index, width, path: tilePath(level, index, width) }));

// C2SP signed-note and tlog-checkpoint: an Ed25519 key from a fixed seed.
const seed = Buffer.from(Array.from({ length: 32 }, (_, k) => 0xa0 + k));
const privateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
  format: 'der',
  type: 'pkcs8',
});
const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
const keyName = 'log.replayd.example/test';
const keyId = sha256(Buffer.from(keyName, 'utf8'), Buffer.from([0x0a, 0x01]), publicKey).subarray(0, 4);
const verifierKey = `${keyName}+${hex(keyId)}+${Buffer.concat([Buffer.from([1]), publicKey]).toString('base64')}`;
const checkpoints = [0, 1, 300].map((size) => {
  const body = `${keyName}\n${size}\n${mth(0, size).toString('base64')}\n`;
  const sig = Buffer.concat([keyId, sign(null, Buffer.from(body, 'utf8'), privateKey)]);
  return { size, root: hex(mth(0, size)), note: `${body}\n\u2014 ${keyName} ${sig.toString('base64')}\n` };
});

const vectors = {
  about:
    'Written by tests/unit/log-vectors.mjs (node:crypto, RFC 9162 recursive definitions), never by the C code. ' +
    'Leaf i is the UTF-8 text "replayd leaf <i>". A proofs digest is SHA-256 over every proof in loop order, ' +
    'each as one length byte and its hashes: inclusion_digests[n-1] over i = 0..n-1, consistency_digests[n-1] over m = 1..n.',
  roots,
  inclusion_digests: inclusionDigests,
  consistency_digests: consistencyDigests,
  inclusion: inclusionCases,
  consistency: consistencyCases,
  big_size: BIG,
  big_root: hex(mth(0, BIG)),
  tiles,
  paths: pathCases,
  note: { key_name: keyName, seed: hex(seed), public_key: hex(publicKey), key_id: hex(keyId), verifier_key: verifierKey, checkpoints },
};
const text = `${JSON.stringify(vectors, null, 1)}\n`;

if (process.argv.includes('--check')) {
  let now = '';
  try {
    now = readFileSync(out, 'utf8');
  } catch {}
  if (now !== text) {
    console.error(`${out} is not what tests/unit/log-vectors.mjs writes: run it`);
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
}
