// The score log as served (docs/LOG.md sections 8 and 9), checked from the
// outside with the independent verifier (clients/js/src/log.mjs): the
// empty log's checkpoint; every score and operator action a leaf, in order,
// with its fields; every tile the size implies, inclusion and consistency
// proofs computed from tiles; tampered tiles, entries, notes and database
// rows refused; the tile paths and their errors and caching; kill -9.
// Written from docs/LOG.md, docs/API.md and the C2SP specs alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { startServer, call, register, seed, solve, dbExec, sqliteOnly, ADMIN_TOKEN } from './harness.mjs';
import { bot } from './schulte_runs.mjs';
import {
  verifyLog, openNote, parseCheckpoint, parseVerifierKey, decodeLeaf, TileReader, tilesForSize, parseEntryBundle, checkAllTiles,
  leafHash, emptyTreeHash, verifyInclusion, verifyConsistency, toHex,
} from '../../clients/js/src/log.mjs';

const dir = mkdtempSync(join(tmpdir(), 'replayd-logserved-'));
// the runs are sent the moment they are solved (the slack covers the wait)
const ARGS = ['--set', 'plausibility_slack_ms=600000', '--set', 'rate_seeds_per_player=0', '--set', 'rate_scores_per_player=0',
  '--set', 'max_outstanding_tokens=1000', '--set', 'max_forfeits_per_level_day=0'];
let srv;
const start = (extra = []) => startServer({ dataDir: dir, admin: ADMIN_TOKEN, args: [...ARGS, ...extra] });
before(async () => { srv = await start(); });
after(async () => { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); });

// Every leaf the test caused, in the order it caused them (one call at a time).
const expected = [];
// Each score's log_proof, as its answer gave it (docs/LOG.md section 8).
const proofs = new Map();

// A c2sp.org/tlog-proof@v1 of leaf `index` (its bytes `leaf`): the index
// line, the hashes, a blank line, the checkpoint its commit signed, which
// opens with the log's key and includes the leaf; the checkpoint's size.
async function checkTlogProof(text, index, leaf) {
  assert.equal(typeof text, 'string', `leaf ${index}: its answer has a log_proof`);
  const [head, ...rest] = text.split('\n\n');
  const lines = head.split('\n');
  assert.equal(lines[0], 'c2sp.org/tlog-proof@v1');
  assert.equal(lines[1], `index ${index}`);
  const proof = lines.slice(2).map((b) => new Uint8Array(Buffer.from(b, 'base64')));
  for (const h of proof) assert.equal(h.length, 32);
  const { origin, verifierKey } = await logKey();
  const cp = parseCheckpoint((await openNote(rest.join('\n\n'), [await parseVerifierKey(verifierKey)])).text);
  assert.equal(cp.origin, origin);
  assert.ok(cp.size > BigInt(index), 'the checkpoint of its commit holds the leaf');
  const hash = await leafHash(leaf);
  assert.ok(await verifyInclusion({ index, size: cp.size, leafHash: hash, proof, root: cp.root }), `leaf ${index}: its log_proof verifies`);
  if (proof.length > 0) {
    proof[0] = proof[0].map((b, i) => (i === 0 ? b ^ 1 : b));
    assert.equal(await verifyInclusion({ index, size: cp.size, leafHash: hash, proof, root: cp.root }), false, 'a changed proof does not');
  }
  return cp.size;
}
const T0 = BigInt(Date.now());

async function getLog(path) {
  const r = await fetch(`${srv.base}/v1/log/${path}`);
  return { status: r.status, headers: r.headers, body: new Uint8Array(await r.arrayBuffer()) };
}
// HEAD over a raw socket (fetch drops a HEAD answer's body whatever the server
// sent): { status, length (Content-Length), after (the bytes after the headers) }.
function rawHead(path) {
  return new Promise((resolve, reject) => {
    const sock = connect(srv.port, '127.0.0.1');
    const chunks = [];
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`HEAD ${path}: no end in 10 s`)); }, 10000);
    sock.on('connect', () => sock.write(`HEAD /v1/log/${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', (e) => { clearTimeout(timer); reject(e); });
    sock.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), length: Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1]),
        cache: /\r\ncache-control: *([^\r]*)/i.exec(text)?.[1], after: end < 0 ? null : text.slice(end + 4) });
    });
  });
}
// getTile for the verifier; tamper(path, bytes) may change what it hands over.
const tiles = (tamper) => async (path) => {
  const r = await getLog(path);
  assert.equal(r.status, 200, `${path}: ${r.status} ${Buffer.from(r.body).toString()}`);
  return tamper ? tamper(path, r.body.slice()) : r.body;
};
async function checkpointText() {
  const r = await getLog('checkpoint');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(r.headers.get('cache-control'), 'public, max-age=1');
  return new TextDecoder().decode(r.body);
}
async function logKey() {
  const k = await call(srv, 'GET', '/v1/keys');
  assert.equal(k.status, 200, k.text);
  const current = k.json.keys.filter((x) => x.current);
  assert.equal(current.length, 1);
  // the key signs under the origin (sections 6 and 9; verifyLog checks the origin line only)
  assert.equal((await parseVerifierKey(current[0].log_verifier_key)).name, k.json.log_origin);
  return { origin: k.json.log_origin, verifierKey: current[0].log_verifier_key, publicKey: current[0].public_key };
}
// The served log, checked whole (section 10 steps 1-3): { text, size, root }.
async function verified() {
  const { origin, verifierKey } = await logKey();
  const text = await checkpointText();
  const v = await verifyLog({ checkpointText: text, verifierKey, origin, getTile: tiles(), allTiles: true, entries: true });
  return { text, size: v.size, root: v.root };
}
// Every leaf of the tree of `size` leaves, from its entry bundles.
async function leavesOf(size) {
  const out = [];
  for (const t of tilesForSize(size, { entries: true })) {
    if (t.entries) out.push(...parseEntryBundle(await tiles()(t.path), { width: t.width }));
  }
  assert.equal(BigInt(out.length), size);
  return out;
}

async function play(p, body) {
  const s = await seed(srv, p.token, body);
  const moves = body.moves ? await body.moves(s) : await solve(s.game, s.level, s.seed);
  const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  proofs.set(r.json.score_id, r.json.log_proof);
  expected.push({
    kind: 'score', score_id: r.json.score_id, player_id: BigInt(p.player_id), game: s.game, level: s.level, seed: s.seed,
    version: s.version, day: s.date ? Date.parse(`${s.date}T00:00:00Z`) / 86400000 : -1, score: BigInt(r.json.score),
    completed: r.json.completed, status: r.json.status, submitted_at_ms: BigInt(r.json.submitted_at_ms), moves_hash: r.json.moves_hash,
  });
  return r.json;
}
// An operator action on a score (fields.score_id) or a player (fields.player_id).
async function act(kind, fields, body = { reason: 'log test' }) {
  const score = fields.score_id && expected.find((e) => e.kind === 'score' && e.score_id === fields.score_id);
  const playerId = score ? score.player_id : BigInt(fields.player_id);
  const path = score ? `scores/${score.score_id}` : `players/${playerId}`;
  const r = await call(srv, 'POST', `/v1/admin/${path}/${kind}`, { token: ADMIN_TOKEN, body });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.action, kind);
  assert.equal(BigInt(r.json.player_id), playerId);
  expected.push({ kind, action_id: BigInt(r.json.log_id), ...fields, player_id: playerId });
  return r.json;
}
const ranked = () => expected.filter((e) => e.kind === 'score' && e.status === 'ranked');

// Each leaf of the served tree is the one expected at its index, field by
// field; each score's leaf has an inclusion proof from tiles that verifies.
async function checkLeaves(cp) {
  assert.equal(cp.size, BigInt(expected.length), 'one leaf per score and per action, nothing else');
  const leaves = await leavesOf(cp.size);
  const reader = new TileReader(cp.size, tiles());
  const now = BigInt(Date.now());
  const decoded = leaves.map((l) => decodeLeaf(l));
  for (const e of expected.filter((x) => x.kind === 'score')) {
    assert.equal(decoded.filter((d) => d.kind === 'score' && d.score_id === e.score_id).length, 1, `score ${e.score_id} is one leaf`);
  }
  for (let i = 0; i < leaves.length; i++) {
    const got = decoded[i];
    for (const [k, v] of Object.entries(expected[i])) assert.deepEqual(got[k], v, `leaf ${i} (${expected[i].kind}): ${k}`);
    if (got.kind !== 'score') {
      assert.ok(got.at_ms >= T0 && got.at_ms <= now, `leaf ${i}: at_ms ${got.at_ms} is when the test ran`);
      continue;
    }
    if (proofs.has(got.score_id)) await checkTlogProof(proofs.get(got.score_id), i, leaves[i]);
    const proof = await reader.inclusionProof(i);
    const hash = await leafHash(leaves[i]);
    assert.ok(await verifyInclusion({ index: i, size: cp.size, leafHash: hash, proof, root: cp.root }), `leaf ${i} is included`);
    if (i + 1 < leaves.length) assert.equal(await verifyInclusion({ index: i + 1, size: cp.size, leafHash: hash, proof, root: cp.root }), false);
  }
  return leaves;
}
async function consistent(older, newer) {
  const proof = await new TileReader(newer.size, tiles()).consistencyProof(older.size);
  const args = { oldSize: older.size, newSize: newer.size, oldRoot: older.root, newRoot: newer.root, proof };
  assert.ok(await verifyConsistency(args), `${older.size} -> ${newer.size} is consistent`);
  return args;
}

let first; // the first non-empty checkpoint (one leaf)
let mid; // the checkpoint after the scores and actions of the second test
let players;

test('a fresh log: a signed checkpoint of size 0, the empty tree, under log_origin and the receipt key', async () => {
  const { origin, verifierKey, publicKey } = await logKey();
  assert.equal(origin, 'localhost/v1/log', 'the default log_origin (section 9)');
  const key = await parseVerifierKey(verifierKey);
  assert.equal(key.name, origin, 'the key signs under the origin (section 9)');
  assert.equal(Buffer.from(key.publicKey).toString('base64url'), publicKey, 'the log key is the receipt key');
  const text = await checkpointText();
  const opened = await openNote(text, [verifierKey]);
  assert.deepEqual(opened.verifiedBy, [origin]);
  const cp = parseCheckpoint(opened.text);
  assert.equal(cp.origin, origin);
  assert.equal(cp.size, 0n);
  assert.equal(toHex(cp.root), toHex(await emptyTreeHash()));
  const v = await verifyLog({ checkpointText: text, verifierKey, origin, getTile: () => assert.fail('no tile'), allTiles: true, entries: true });
  assert.equal(v.size, 0n);
  for (const p of ['tile/0/000.p/1', 'tile/entries/000.p/1']) assert.equal((await getLog(p)).status, 404, p);
});

test('scores, a daily and operator actions: each a leaf in order, every tile checked, each score included', async () => {
  players = await Promise.all(['ann', 'bob', 'cyd'].map((n) => register(srv, `log-${n}`)));
  const [a, b, c] = players;
  const kinds = [[a, 1], [b, 1], [c, 1], [a, 2], [b, 2], [a, 1], [c, 2], [b, 1]].map(([p, level]) => [p, { game: 'schulte', level }]);
  kinds.push([a, { game: 'pipes', level: 1 }], [c, { game: 'pipes', level: 1 }], [b, { game: 'pipes', level: 2 }], [c, { daily: true }]);
  for (const [p, body] of kinds) {
    await play(p, body);
    if (!first) first = await verified();
  }
  assert.equal(first.size, 1n);
  assert.equal(expected.length, 12);
  const [s0, s1] = ranked();
  await act('void', { score_id: s0.score_id });
  await act('restore', { score_id: s0.score_id });
  await act('void', { score_id: s1.score_id });
  await act('ban', { player_id: b.player_id });
  await act('unban', { player_id: b.player_id });
  await act('rename', { player_id: c.player_id, name: 'Zoë the Second' }, { name: 'Zoë the Second', reason: 'log test' });
  const cp = await verified();
  const leaves = await checkLeaves(cp);
  assert.deepEqual(leaves.map((l) => l[0]), [...Array(12).fill(1), 2, 3, 2, 4, 5, 6], 'the kinds in the order made');
  mid = cp;
});

test('consistency: the first checkpoint is a prefix of a newer one (past a full tile); a forged newer root is refused', async () => {
  const [a, b] = players;
  await play(a, { game: 'schulte', level: 1 });
  await play(b, { game: 'pipes', level: 1 });
  // a full tile of 256 leaves, cheaply: renames are one leaf each
  for (let i = 0; expected.length < 300 && i < 300; i++) await act('rename', { player_id: a.player_id, name: `ann-${i}` }, { name: `ann-${i}`, reason: 'fill' });
  const cp = await verified();
  assert.equal(cp.size, 300n);
  await checkLeaves(cp);
  await consistent(first, cp);
  const args = await consistent(mid, cp);
  const forged = new Uint8Array(cp.root);
  forged[7] ^= 1;
  assert.equal(await verifyConsistency({ ...args, newRoot: forged }), false, 'a forged newer root');
  assert.equal(await verifyConsistency({ ...args, oldRoot: forged }), false, 'a forged older root');
  assert.equal(await verifyConsistency({ ...args, oldSize: args.oldSize + 1n }), false, 'another older size');
  // the older trees' narrower partial tiles are still served and give their roots
  for (const old of [first, mid]) assert.equal(toHex(await new TileReader(old.size, tiles()).treeHash()), toHex(old.root));
});

test('paths: one canonical form (400 bad_tile_path), tiles no tree or not this tree has (404 not_in_log), caching, HEAD', async () => {
  const size = BigInt(expected.length);
  assert.ok(size >= 256n && size < 512n, `the tree of ${size} has one full level-0 tile`);
  const w = Number(size - 256n);
  const bad = ['tile/00/000', 'tile/0/5', 'tile/0/05', 'tile/0/0000', 'tile/0/000.p/0', 'tile/0/000.p/256', 'tile/0/000.p/05',
    'tile/0/000.p/1000', 'tile/0/x000/001', 'tile/0/001/000', 'tile/0/x1/000', 'tile/0/x0001/000', 'tile/0/x001', 'tile/64/000',
    'tile/99/000', 'tile/-1/000', 'tile/0/000x', 'tile/0/000/', 'tile/0/000.p/', 'tile/0/000.p/1/', 'tile/0/000.p/1x', 'tile/0/000.q/1',
    'tile/0/000.p1', 'tile/0/001.p/1.p/1', 'tile/0', 'tile/0/', 'tile/x/000', 'tile/entries', 'tile/entries/', 'tile/entries/0',
    'tile/entries/x000/000', 'tile/entries/000.p/256', 'tile/entries/000.p/0', 'tile/entries/000.p/01', 'tile/entries/0/000',
    'tile/entries/entries/000', 'tile/entry/000', 'tile/Entries/000', 'tile/0/abc'];
  for (const p of bad) {
    const r = await call(srv, 'GET', `/v1/log/${p}`);
    assert.equal(r.status, 400, `${p}: ${r.status} ${r.text}`);
    assert.equal(r.json?.error?.code, 'bad_tile_path', p);
  }
  const absent = ['tile/8/000', 'tile/8/000.p/1', 'tile/63/000', 'tile/7/000', 'tile/7/000.p/128', 'tile/1/000', 'tile/2/000.p/1',
    `tile/0/001.p/${w + 1}`, 'tile/0/001', 'tile/0/002.p/1', 'tile/entries/001', `tile/entries/001.p/${w + 1}`, 'tile/1/000.p/2',
    'tile/0/x036/x028/x797/x018/x963/968', 'tile/0/x036/x028/x797/x018/x963/967', 'tile/entries/x036/x028/x797/x018/x963/968.p/1'];
  for (const p of absent) {
    const r = await call(srv, 'GET', `/v1/log/${p}`);
    assert.equal(r.status, 404, `${p}: ${r.status} ${r.text}`);
    assert.equal(r.json?.error?.code, 'not_in_log', p);
  }
  const full = 'public, max-age=31536000, immutable';
  const partial = 'public, max-age=5';
  for (const [p, cache, bytes] of [['tile/0/000', full, 8192], ['tile/entries/000', full, null], [`tile/0/001.p/${w}`, partial, 32 * w],
    ['tile/0/001.p/1', partial, 32], [`tile/entries/001.p/${w}`, partial, null], ['tile/1/000.p/1', partial, 32]]) {
    const r = await getLog(p);
    assert.equal(r.status, 200, p);
    assert.equal(r.headers.get('content-type'), 'application/octet-stream', p);
    assert.equal(r.headers.get('cache-control'), cache, p);
    if (bytes) assert.equal(r.body.length, bytes, p);
    const head = await rawHead(p);
    assert.equal(head.status, 200, `HEAD ${p}`);
    assert.equal(head.after, '', `HEAD ${p}: no body after the headers`);
    assert.equal(head.length, r.body.length, `HEAD ${p}: the GET's Content-Length`);
    assert.equal(head.cache, cache, `HEAD ${p}`);
  }
  // a narrower partial tile is a prefix of the wider one
  assert.deepEqual((await getLog('tile/0/001.p/1')).body, (await getLog(`tile/0/001.p/${w}`)).body.slice(0, 32));
  await checkpointText(); // text/plain; charset=utf-8, public, max-age=1
});

test('tampering: a hash tile, an entry bundle, the checkpoint root or signature: each refused', async () => {
  const { origin, verifierKey } = await logKey();
  const text = await checkpointText();
  const w = expected.length - 256;
  const flip = (target, at) => (path, b) => { if (path === target) b[at] ^= 0x10; return b; };
  const check = (over) => verifyLog({ checkpointText: text, verifierKey, origin, getTile: tiles(), allTiles: true, entries: true, ...over });
  await check({}); // untampered: passes
  await assert.rejects(check({ getTile: tiles(flip(`tile/0/001.p/${w}`, 5)) }), /root/, 'the right edge\'s level-0 tile');
  await assert.rejects(check({ getTile: tiles(flip('tile/1/000.p/1', 31)) }), /root/, 'the level-1 tile');
  await assert.rejects(check({ getTile: tiles(flip('tile/0/000', 4000)), entries: false }), /not the tree hash/, 'a full tile left of the edge');
  await assert.rejects(check({ getTile: tiles(flip('tile/entries/000', 40)) }), /does not hash/, 'a full entry bundle');
  await assert.rejects(check({ getTile: tiles(flip(`tile/entries/001.p/${w}`, 9)) }), /does not hash/, 'a partial entry bundle');
  const lines = text.split('\n');
  const swap = (s, i) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  const withRoot = [lines[0], lines[1], swap(lines[2], 0), ...lines.slice(3)].join('\n');
  const sigAt = lines[4].lastIndexOf(' ') + 20;
  const withSig = [...lines.slice(0, 4), swap(lines[4], sigAt), ...lines.slice(5)].join('\n');
  const withSize = [lines[0], String(expected.length + 1), ...lines.slice(2)].join('\n');
  for (const [name, t] of [['root', withRoot], ['signature', withSig], ['size', withSize]]) {
    assert.notEqual(t, text);
    await assert.rejects(check({ checkpointText: t }), /does not verify/, `a checkpoint with another ${name}`);
  }
  await assert.rejects(check({ origin: 'elsewhere.example/v1/log' }), /origin/);
});

test('kill -9 right after acknowledged scores, then a restart: every one is in a checkpoint consistent with the one before', async () => {
  const before = await verified();
  const [a, b, c] = players;
  for (const [p, level] of [[a, 1], [b, 1], [c, 2]]) await play(p, { game: 'schulte', level });
  srv.child.kill('SIGKILL');
  assert.equal((await srv.exited).signal, 'SIGKILL');
  // back with the review hold on: a scripted run is held, and approving it is a leaf
  srv = await start(['--set', 'review_hold_threshold=600']);
  const after = await verified();
  assert.equal(after.size, before.size + 3n, 'the three acknowledged scores, nothing else, nothing lost');
  await consistent(before, after);
  await consistent(mid, after);
  const held = await play(await register(srv, 'log-bot'), { game: 'schulte', level: 1, moves: (s) => bot(s.level, s.seed) });
  assert.equal(held.status, 'held', 'a floor-paced script is held at review_hold_threshold=600 (review.test.mjs)');
  await act('approve', { score_id: held.score_id });
  const last = await verified();
  await consistent(after, last);
  await checkLeaves(last);
});

test('rows changed in the database behind the server: the verifier refuses the served log', { skip: sqliteOnly }, async () => {
  const cp = await verified();
  const leaves = await leavesOf(cp.size);
  // a score in the full level-0 tile and the last score, on the right edge (the partial tile)
  const scores = expected.map((e, k) => (e.kind === 'score' ? k : -1)).filter((k) => k >= 0);
  const rows = [scores[0], scores.at(-1)];
  assert.ok(rows[0] < 256 && rows[1] >= 256, `rows ${rows}`);
  const forged = rows.map((i) => {
    const f = leaves[i].slice();
    f[48] ^= 1; // the score's low byte: still a well-formed leaf
    assert.equal(decodeLeaf(f).score, expected[i].score ^ 1n);
    return f;
  });
  await srv.stop();
  const update = rows.map((i, k) => `UPDATE log_entries SET entry = X'${toHex(forged[k])}' WHERE idx = ${i};`).join(' ');
  const triggers = await dbExec(srv.dir, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'log_entries'");
  assert.equal(triggers.status, 0, triggers.stderr);
  const names = triggers.stdout.split('\n').filter(Boolean);
  assert.ok(names.length > 0, 'log_entries is append-only by triggers (docs/STORAGE.md)');
  assert.notEqual((await dbExec(srv.dir, update)).status, 0, 'the trigger refuses the update');
  const drop = names.map((n) => `DROP TRIGGER "${n}";`).join(' ');
  const done = await dbExec(srv.dir, `${drop} ${update} SELECT total_changes();`);
  assert.equal(done.status, 0, done.stderr);
  assert.equal(done.stdout.trim(), '2');
  srv = await start();
  const text = await checkpointText();
  const { origin, verifierKey } = await logKey();
  const now = parseCheckpoint((await openNote(text, [verifierKey])).text);
  assert.equal(now.size, cp.size);
  assert.equal(toHex(now.root), toHex(cp.root), 'the signed root still commits to the original leaves');
  const served = await leavesOf(now.size);
  rows.forEach((i, k) => assert.deepEqual(served[i], forged[k], `the server serves the changed row ${i}`));
  // the right edge's changed leaf: the root from the tiles is not the signed one
  await assert.rejects(verifyLog({ checkpointText: text, verifierKey, origin, getTile: tiles(), allTiles: true, entries: true }), /the tiles give root/);
  // the full tile's changed leaf: its tile no longer hashes to what the level-1 tile keeps
  await assert.rejects(checkAllTiles(now.size, tiles(), { entries: true }), /not the tree hash of tile tile\/0\/000/);
  // no changed leaf has a path to the signed root; the right edge's path (its siblings: the
  // stored level-8 hash and the partial tile's other leaves) still proves the original leaf
  const reader = new TileReader(now.size, tiles());
  for (const [k, i] of rows.entries()) {
    const proof = await reader.inclusionProof(i);
    assert.equal(await verifyInclusion({ index: i, size: now.size, leafHash: await leafHash(forged[k]), proof, root: now.root }), false);
  }
  const edge = { index: rows[1], size: now.size, proof: await reader.inclusionProof(rows[1]), root: now.root };
  assert.equal(await verifyInclusion({ ...edge, leafHash: await leafHash(leaves[rows[1]]) }), true);
});
