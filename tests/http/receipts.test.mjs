// Receipts, checked offline the way a third party would, in JavaScript,
// never by asking the server: v2 (receipt_version 2) with nothing but GET
// /v1/keys, the public audit record and the bytes docs/API.md states
// (WebCrypto Ed25519); v3 (the default) from the submission's log_proof and
// later from the score log's tiles (clients/js/src/log.mjs, written from
// docs/LOG.md alone), the leaf rebuilt here from docs/LOG.md section 7.
// Also the key lifecycle end to end: sign with key A, rotate to B, retire
// A (`replayd keygen --retire`): A's receipts still verify from /v1/keys,
// A signs and MACs nothing any more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// Node 18 has no global crypto; its WebCrypto is node:crypto's webcrypto.
import { webcrypto as crypto } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, startServer, call, register, seed, solve, awaitRun } from './harness.mjs';
import { run, runOk } from './proc.mjs';
import { openNote, parseCheckpoint, parseVerifierKey, verifyInclusion, leafHash, TileReader, tilesForSize,
  parseEntryBundle, decodeLeaf } from '../../clients/js/src/log.mjs';

// The servers of the v2 tests sign a receipt per score.
const V2 = ['--set', 'receipt_version=2'];

const API_MD = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'API.md');

// The fenced block after an HTML comment marker in docs/API.md.
function docBlock(marker) {
  const text = readFileSync(API_MD, 'utf8');
  const at = text.indexOf(`<!-- ${marker} -->`);
  assert.ok(at >= 0, `docs/API.md has ${marker}`);
  const m = /```[a-z]*\n([\s\S]*?)\n```/.exec(text.slice(at));
  return m[1];
}

async function importKey(publicKey) {
  return crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: publicKey }, 'Ed25519', false, ['verify']);
}

// The signed text of a v2 receipt, from the documented field list alone.
function v2Text(s) {
  return ['replayd-receipt-v2', s.score_id, s.player_id, s.game, s.level, s.seed, s.version, s.score,
    s.completed ? 1 : 0, s.date ? `daily:${s.date}` : `level:${s.game}:${s.level}`, s.submitted_at_ms,
    s.moves_hash].join('\n');
}

// Verifies an audit record's receipt with a /v1/keys list: {ok, key}.
async function verifyOffline(audit, keys) {
  const m = /^v2\.(\d+)\.([A-Za-z0-9_-]{86})$/.exec(audit.receipt);
  assert.ok(m, `a v2 receipt: ${audit.receipt}`);
  const key = keys.find((k) => k.key_id === Number(m[1]));
  assert.ok(key, `key ${m[1]} is published`);
  const ok = await crypto.subtle.verify('Ed25519', await importKey(key.public_key),
    Buffer.from(m[2], 'base64url'), new TextEncoder().encode(v2Text(audit)));
  return { ok, key };
}

test('the worked example of docs/API.md verifies from its text alone', async () => {
  const key = Object.fromEntries(docBlock('receipt-example-key').split('\n').map((l) => l.split(/\s+/)));
  const text = docBlock('receipt-example-text');
  const receipt = docBlock('receipt-example-receipt').trim();
  assert.equal(text.split('\n').length, 12, 'twelve lines');
  assert.ok(!text.endsWith('\n'), 'no trailing newline');
  const [, id, sig] = receipt.split('.');
  assert.equal(id, key.key_id);
  const pub = await importKey(key.public_key);
  const bytes = new TextEncoder().encode(text);
  assert.equal(await crypto.subtle.verify('Ed25519', pub, Buffer.from(sig, 'base64url'), bytes), true);
  // and each field matters: the score one higher does not verify
  const lines = text.split('\n');
  lines[7] = String(Number(lines[7]) + 1);
  assert.equal(await crypto.subtle.verify('Ed25519', pub, Buffer.from(sig, 'base64url'),
    new TextEncoder().encode(lines.join('\n'))), false);
  // the same text with a trailing newline is other bytes
  assert.equal(await crypto.subtle.verify('Ed25519', pub, Buffer.from(sig, 'base64url'),
    new TextEncoder().encode(text + '\n')), false);
});

// A run on a fresh seed: the full solution, or only its first move (an
// incomplete run: completed is signed as 0, and it is quick to wait out).
async function play(srv, token, body, firstMoveOnly = false) {
  const s = await seed(srv, token, body);
  const all = await solve(s.game, s.level, s.seed, s.version);
  const moves = firstMoveOnly ? all.slice(0, 1) : all;
  await awaitRun(s, moves);
  const r = await call(srv, 'POST', '/v1/scores', { token, body: { seed_token: s.seed_token, moves } });
  assert.equal(r.status, 200, r.text);
  return { seedBody: s, submit: r.json };
}

test('a level score and a daily score: v2 receipts verify offline with /v1/keys', async () => {
  const srv = await startServer({ args: V2 });
  try {
    const p = await register(srv, 'offline');
    const level = await play(srv, p.token, { game: 'pipes', level: 1 });
    const daily = await play(srv, p.token, { daily: true }, true);
    const keys = (await call(srv, 'GET', '/v1/keys')).json.keys;
    for (const { submit } of [level, daily]) {
      assert.match(submit.receipt, /^v2\.1\./);
      const audit = (await call(srv, 'GET', `/v1/scores/${submit.score_id}`)).json;
      assert.equal(audit.receipt, submit.receipt);
      const { ok, key } = await verifyOffline(audit, keys);
      assert.equal(ok, true, `${audit.game} ${audit.date ? 'daily' : 'level'} receipt verifies`);
      assert.equal(key.current, true);
      assert.ok(Date.parse(key.valid_from) <= audit.submitted_at_ms, 'signed inside its key\'s window');
      assert.equal(key.valid_until, null);
      // every field the text covers changes the verdict
      for (const [field, value] of [['score', audit.score + 1], ['completed', !audit.completed],
        ['submitted_at_ms', audit.submitted_at_ms + 1], ['player_id', audit.player_id + 1],
        ['seed', (audit.seed + 1) % 2 ** 32], ['date', audit.date ? undefined : '2026-12-02']]) {
        assert.equal((await verifyOffline({ ...audit, [field]: value }, keys)).ok, false, `${field} is signed`);
      }
    }
    assert.ok(daily.seedBody.date, 'the daily score is on a daily board');
    assert.equal(daily.submit.completed, false, 'and an incomplete run signs completed as 0');
  } finally { await srv.stop(); srv.cleanup(); }
});

test('rotation then retirement: key A\'s receipts verify for ever, A signs and MACs nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-retire-'));
  let srv;
  try {
    srv = await startServer({ dataDir: dir, args: V2 });
    const p = await register(srv, 'rotor');
    const a = await play(srv, p.token, { game: 'pipes', level: 1 });
    assert.match(a.submit.receipt, /^v2\.1\./, 'signed with key A (id 1)');
    const pending = await seed(srv, p.token, { game: 'pipes', level: 2 }); // MACed by A
    await srv.stop();

    const refused = await run(BIN, ['keygen', '--data', dir, '--retire', '1'], { encoding: 'utf8' });
    assert.equal(refused.status, 1, 'the current key cannot be retired');
    assert.match(refused.stderr, /current key/);
    assert.equal(JSON.parse(await runOk(BIN, ['keygen', '--data', dir], { encoding: 'utf8' })).key_id, 2);
    srv = await startServer({ dataDir: dir, args: V2 });
    const b = await play(srv, p.token, { game: 'pipes', level: 1 }, true);
    assert.match(b.submit.receipt, /^v2\.2\./, 'signed with key B (id 2)');
    await srv.stop();

    const before = Date.now();
    const out = JSON.parse(await runOk(BIN, ['keygen', '--data', dir, '--retire', '1'], { encoding: 'utf8' }));
    assert.equal(out.retired, 1);
    assert.ok(!existsSync(join(dir, 'keys', 'sign-1.key')) && !existsSync(join(dir, 'keys', 'mac-1.key')),
      'the private keys of A are gone');
    srv = await startServer({ dataDir: dir, args: V2 });
    const keys = (await call(srv, 'GET', '/v1/keys')).json.keys;
    assert.deepEqual(keys.map((k) => [k.key_id, k.current, k.retired]), [[1, false, true], [2, true, false]]);
    const retired = keys[0];
    assert.equal(retired.valid_until, out.valid_until);
    assert.ok(Date.parse(retired.valid_until) >= before - 1000 && Date.parse(retired.valid_from) <= Date.parse(retired.valid_until));
    for (const s of [a, b]) {
      const audit = (await call(srv, 'GET', `/v1/scores/${s.submit.score_id}`)).json;
      const { ok, key } = await verifyOffline(audit, keys);
      assert.equal(ok, true, `key ${key.key_id}'s receipt verifies offline`);
      assert.ok(audit.submitted_at_ms >= Date.parse(key.valid_from), 'inside the window');
      if (key.retired) assert.ok(audit.submitted_at_ms <= Date.parse(key.valid_until), 'inside the window');
    }
    // A token MACed by A cannot be redeemed any more: nothing verifies with a retired key's MAC.
    const moves = (await solve(pending.game, pending.level, pending.seed, pending.version)).slice(0, 1);
    await awaitRun(pending, moves);
    const late = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: pending.seed_token, moves } });
    assert.equal(late.status, 400);
    assert.equal(late.json.error.code, 'unknown_key');
    const fresh = await play(srv, p.token, { game: 'pipes', level: 1 }, true);
    assert.match(fresh.submit.receipt, /^v2\.2\./);
    // retiring again is harmless and keeps the window
    await srv.stop();
    const again = JSON.parse(await runOk(BIN, ['keygen', '--data', dir, '--retire', '1'], { encoding: 'utf8' }));
    assert.equal(again.valid_until, out.valid_until);
    const bad = await run(BIN, ['keygen', '--data', dir, '--retire', 'x'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    srv = undefined;
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});

// docs/LOG.md section 7: the score leaf (kind 0x01), big-endian, from the
// answer and the seed token it redeemed.
function scoreLeaf(answer, token, playerId) {
  const game = Buffer.from(token.game, 'ascii');
  const b = Buffer.alloc(92 + game.length);
  b[0] = 0x01;
  Buffer.from(answer.score_id, 'hex').copy(b, 1);
  b.writeBigInt64BE(BigInt(playerId), 17);
  b.writeUInt32BE(token.level, 25);
  b.writeUInt32BE(token.seed, 29);
  b.writeUInt32BE(token.version, 33);
  b.writeInt32BE(token.date ? Date.parse(`${token.date}T00:00:00Z`) / 86400000 : -1, 37);
  b.writeBigInt64BE(BigInt(answer.score), 41);
  b[49] = answer.completed ? 1 : 0;
  b[50] = answer.status === 'held' ? 1 : 0;
  b.writeBigInt64BE(BigInt(answer.submitted_at_ms), 51);
  Buffer.from(answer.moves_hash, 'hex').copy(b, 59);
  b[91] = game.length;
  game.copy(b, 92);
  return new Uint8Array(b);
}

// A submission's v3 receipt checked offline from its answer alone (and the
// token): its log_proof names the receipt's index, its checkpoint opens
// with the log's key under log_origin, and the leaf is included.
async function checkAnswer(answer, token, playerId, logKeys) {
  const m = /^v3\.(0|[1-9][0-9]*)$/.exec(answer.receipt);
  assert.ok(m, `a v3 receipt: ${answer.receipt}`);
  const [head, ...rest] = answer.log_proof.split('\n\n');
  const lines = head.split('\n');
  assert.equal(lines[0], 'c2sp.org/tlog-proof@v1');
  assert.equal(lines[1], `index ${m[1]}`, 'the proof is of the receipt\'s leaf');
  const proof = lines.slice(2).map((x) => new Uint8Array(Buffer.from(x, 'base64')));
  const opened = await openNote(rest.join('\n\n'), logKeys);
  const cp = parseCheckpoint(opened.text);
  const leaf = await leafHash(scoreLeaf(answer, token, playerId));
  return { ok: await verifyInclusion({ index: BigInt(m[1]), size: cp.size, leafHash: leaf, proof, root: cp.root }), cp,
    index: BigInt(m[1]) };
}

test('v3 receipts: the leaf in the score log, from the answer at once and from the tiles later; both keys sign during a rotation', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-v3-'));
  let srv;
  try {
    srv = await startServer({ dataDir: dir });
    const keysOf = async () => {
      const k = (await call(srv, 'GET', '/v1/keys')).json;
      return { origin: k.log_origin, keys: await Promise.all(k.keys.map((x) => parseVerifierKey(x.log_verifier_key))) };
    };
    const p = await register(srv, 'logged');
    const level = await play(srv, p.token, { game: 'pipes', level: 1 });
    const daily = await play(srv, p.token, { daily: true }, true);
    const { origin, keys } = await keysOf();
    for (const { seedBody, submit } of [level, daily]) {
      const { ok, cp, index } = await checkAnswer(submit, seedBody, p.player_id, keys);
      assert.equal(ok, true, `${seedBody.game}: the answer's proof verifies offline`);
      assert.equal(cp.origin, origin);
      // any field changed: another leaf, not included
      for (const [field, value] of [['score', submit.score + 1], ['submitted_at_ms', submit.submitted_at_ms + 1],
        ['status', submit.status === 'held' ? 'ranked' : 'held'], ['completed', !submit.completed]]) {
        assert.equal((await checkAnswer({ ...submit, [field]: value }, seedBody, p.player_id, keys)).ok, false, `${field} is in the leaf`);
      }
      assert.equal((await checkAnswer(submit, { ...seedBody, seed: (seedBody.seed + 1) % 2 ** 32 }, p.player_id, keys)).ok, false);
      assert.equal((await checkAnswer(submit, seedBody, p.player_id + 1, keys)).ok, false);
      // the audit names the same leaf; a retry answers the same receipt, no proof
      const audit = (await call(srv, 'GET', `/v1/scores/${submit.score_id}`)).json;
      assert.equal(audit.receipt, submit.receipt);
      // later, from the tiles: the leaf at the index decodes to the audit's fields
      const now = parseCheckpoint((await openNote(await (await fetch(`${srv.base}/v1/log/checkpoint`)).text(), keys)).text);
      const getTile = async (path) => new Uint8Array(await (await fetch(`${srv.base}/v1/log/${path}`)).arrayBuffer());
      const bundle = [...tilesForSize(now.size, { entries: true })].filter((t) => t.entries)
        .find((t) => BigInt(t.index) * 256n <= index && index < BigInt(t.index) * 256n + BigInt(t.width));
      const leaves = parseEntryBundle(await getTile(bundle.path), { width: bundle.width });
      const bytes = leaves[Number(index - BigInt(bundle.index) * 256n)];
      const leaf = decodeLeaf(bytes);
      for (const k of ['score_id', 'game', 'level', 'seed', 'version', 'moves_hash']) assert.deepEqual(leaf[k], audit[k], k);
      assert.equal(leaf.player_id, BigInt(audit.player_id));
      assert.equal(leaf.score, BigInt(audit.score));
      assert.equal(leaf.submitted_at_ms, BigInt(audit.submitted_at_ms));
      const proof = await new TileReader(now.size, getTile).inclusionProof(index);
      assert.equal(await verifyInclusion({ index, size: now.size, leafHash: await leafHash(bytes), proof, root: now.root }), true);
    }
    const again = await call(srv, 'POST', '/v1/scores', { token: p.token,
      body: { seed_token: level.seedBody.seed_token, moves: await solve('pipes', 1, level.seedBody.seed, level.seedBody.version) } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.receipt, level.submit.receipt);
    assert.equal(again.json.log_proof, null, 'a retry names the leaf; its proof is in the tiles');
    await srv.stop();

    // a rotation: from the restart that makes key 2 current, both keys sign
    assert.equal(JSON.parse(await runOk(BIN, ['keygen', '--data', dir], { encoding: 'utf8' })).key_id, 2);
    srv = await startServer({ dataDir: dir });
    const after = await play(srv, p.token, { game: 'pipes', level: 2 }, true);
    const both = await keysOf();
    assert.equal(both.keys.length, 2);
    const note = await (await fetch(`${srv.base}/v1/log/checkpoint`)).text();
    assert.equal(note.split('\n\n')[1].trim().split('\n').length, 2, 'two signature lines');
    for (const k of both.keys) {
      assert.equal(k.name, both.origin);
      assert.equal((await checkAnswer(after.submit, after.seedBody, p.player_id, [k])).ok, true, `key ${k.keyId} alone opens it`);
    }
    assert.notEqual(both.keys[0].keyId, both.keys[1].keyId);
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});
