// log_check: the score log as a client sees it after crashes (docs/LOG.md
// sections 8-10), checked with the independent verifier
// (clients/js/src/log.mjs): the checkpoint and tiles a server serves, and
// an audit of the whole log against the answers a load acknowledged and
// the checkpoints kept along the way. tests/http/log_crash.test.mjs and
// tests/pg/multinode.test.mjs use it.
import assert from 'node:assert/strict';
import { call } from './harness.mjs';
import {
  verifyLog, openCheckpoint, parseVerifierKey, decodeLeaf, TileReader, tilesForSize, parseEntryBundle, verifyConsistency,
  verifySubmission, parseReceiptV3, parseLogProof, toHex,
} from '../../clients/js/src/log.mjs';

// { origin, verifierKey } of the server's log (GET /v1/keys: the current key's).
export async function logKey(srv) {
  const k = await call(srv, 'GET', '/v1/keys');
  assert.equal(k.status, 200, k.text);
  const current = k.json.keys.filter((x) => x.current);
  assert.equal(current.length, 1, 'one current key');
  assert.equal((await parseVerifierKey(current[0].log_verifier_key)).name, k.json.log_origin, 'the log key signs under the origin');
  return { origin: k.json.log_origin, verifierKey: current[0].log_verifier_key };
}

// getTile for the verifier: the bytes of GET /v1/log/<path> on srv (200 only).
export const tileGetter = (srv) => async (path) => {
  const r = await fetch(`${srv.base}/v1/log/${path}`);
  const body = new Uint8Array(await r.arrayBuffer());
  assert.equal(r.status, 200, `${srv.base}/v1/log/${path}: ${r.status} ${Buffer.from(body).toString()}`);
  return body;
};

// The note of GET /v1/log/checkpoint on srv.
export async function checkpointText(srv) {
  const r = await fetch(`${srv.base}/v1/log/checkpoint`);
  const text = await r.text();
  assert.equal(r.status, 200, `${srv.base}/v1/log/checkpoint: ${r.status} ${text}`);
  return text;
}

// srv's latest checkpoint, opened with the log's key: { text, size, root }.
export async function openedCheckpoint(srv, { origin, verifierKey }) {
  const text = await checkpointText(srv);
  const cp = await openCheckpoint(text, verifierKey, origin);
  return { text, size: cp.size, root: cp.root };
}

// Every leaf of the tree of `size` leaves, from its entry bundles.
export async function leavesOf(getTile, size) {
  const out = [];
  for (const t of tilesForSize(size, { entries: true })) {
    if (t.entries) out.push(...parseEntryBundle(await getTile(t.path), { width: t.width }));
  }
  assert.equal(BigInt(out.length), size, 'the entry bundles hold as many leaves as the checkpoint says');
  return out;
}

// The whole log served by srv, after whatever happened to it, against:
// acked, the answers the load acknowledged ({ answer: POST /v1/scores's
// 200 body, token: the POST /v1/seeds answer it redeemed }), and kept, the
// checkpoints ({ size, root }) fetched along the way. Checks: the latest
// checkpoint opens and verifyLog passes with every tile and entry bundle;
// every leaf decodes; a score is one leaf, never two; every acknowledged
// receipt v3.<i> is a distinct index whose leaf is that score; every kept
// checkpoint and every log_proof's checkpoint is a prefix of the latest
// (consistency proofs from the tiles); every log_proof verifies
// (verifySubmission). Resolves to { text, size, root, leaves, decoded,
// proofs } (proofs: how many log_proofs were checked).
export async function auditLog(srv, key, { acked = [], kept = [] } = {}) {
  const getTile = tileGetter(srv);
  const text = await checkpointText(srv);
  const v = await verifyLog({ checkpointText: text, verifierKey: key.verifierKey, origin: key.origin, getTile, allTiles: true, entries: true });
  const leaves = await leavesOf(getTile, v.size);
  const decoded = leaves.map((l, i) => {
    try { return decodeLeaf(l); } catch (e) { throw new Error(`leaf ${i} does not decode: ${e.message}`); }
  });
  const at = new Map(); // score_id -> its leaf indexes
  decoded.forEach((d, i) => { if (d.kind === 'score') at.set(d.score_id, [...(at.get(d.score_id) ?? []), i]); });
  for (const [id, idx] of at) assert.equal(idx.length, 1, `score ${id} is one leaf, not ${idx.length} (at ${idx.join(', ')})`);
  const receipts = new Map();
  for (const { answer } of acked) {
    const i = parseReceiptV3(answer.receipt);
    assert.notEqual(i, null, `score ${answer.score_id}: the receipt ${answer.receipt} is v3`);
    assert.ok(i < v.size, `score ${answer.score_id}: its index ${i} is in the log of ${v.size}`);
    const other = receipts.get(i);
    assert.ok(other === undefined || other === answer.score_id, `index ${i} acknowledged for two scores: ${other} and ${answer.score_id}`);
    receipts.set(i, answer.score_id);
    const leaf = decoded[Number(i)];
    assert.equal(leaf.kind, 'score', `leaf ${i} (score ${answer.score_id}'s receipt) is a score`);
    assert.equal(leaf.score_id, answer.score_id, `leaf ${i} is score ${answer.score_id}, the one acknowledged with it`);
    assert.equal(leaf.score, BigInt(answer.score), `leaf ${i}: the acknowledged score`);
    assert.equal(leaf.submitted_at_ms, BigInt(answer.submitted_at_ms), `leaf ${i}: submitted_at_ms`);
    assert.equal(leaf.moves_hash, answer.moves_hash, `leaf ${i}: moves_hash`);
  }
  const reader = new TileReader(v.size, getTile);
  const consistent = async (old, what) => {
    assert.ok(old.size <= v.size, `${what} (size ${old.size}) is not past the latest (${v.size}): nothing it held was lost`);
    const proof = old.size === 0n ? [] : await reader.consistencyProof(old.size);
    assert.ok(await verifyConsistency({ oldSize: old.size, newSize: v.size, oldRoot: old.root, newRoot: v.root, proof }),
      `${what} (size ${old.size}, root ${toHex(old.root)}) is a prefix of the latest (size ${v.size})`);
  };
  for (const [k, cp] of kept.entries()) await consistent(cp, `kept checkpoint ${k}`);
  let proofs = 0;
  const seen = new Set();
  for (const { answer, token } of acked) {
    if (answer.log_proof === null) continue; // a retry's answer (docs/LOG.md section 8): proved from the tiles above
    await verifySubmission({ answer, token, verifierKey: key.verifierKey, origin: key.origin })
      .catch((e) => assert.fail(`score ${answer.score_id}'s log_proof: ${e.message}`));
    proofs++;
    const cpText = parseLogProof(answer.log_proof).checkpoint;
    if (seen.has(cpText)) continue;
    seen.add(cpText);
    const cp = await openCheckpoint(cpText, key.verifierKey, key.origin);
    await consistent(cp, `score ${answer.score_id}'s log_proof checkpoint`);
  }
  return { text, size: v.size, root: v.root, leaves, decoded, proofs };
}
