// v3 receipts (docs/API.md, "Receipts") against a real bin/replayd: a
// submission's answer checked offline from its log_proof and seed token, the
// audit later from the log's checkpoint and tiles (clients/js/src/log.mjs,
// written from docs/LOG.md alone), and the replay page in real headless
// Chromium finding the score in the score log (/assets/client/log.mjs), then
// refusing it when the audit, a tile or the checkpoint is changed on the way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, call, register, seed, solveSchulte } from '../http/harness.mjs';
import { ARTIFACTS, WAIT, launch, watchedPage } from './browser.mjs';
import { verifySubmission, verifyLoggedScore, parseLogProof, parseReceiptV3 } from '../../clients/js/src/log.mjs';

let srv;
let browser;
const runs = []; // { answer, seed }

before(async () => {
  srv = await startServer({ args: ['--set', 'plausibility_slack_ms=600000', '--set', 'new_account_runs=0'] });
  for (const [i, name] of ['ann', 'bea'].entries()) {
    const p = await register(srv, name);
    const s = await seed(srv, p.token, { game: 'schulte', level: 3 });
    const r = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: s.seed_token, moves: await solveSchulte(3, s.seed, 300 + 40 * i, s.version) } });
    if (r.status !== 200) throw new Error(`submit: ${r.status} ${r.text}`);
    runs.push({ answer: r.json, seed: s, player: p });
  }
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (srv) {
    await srv.stop();
    srv.cleanup();
  }
});

async function logKeys() {
  const keys = (await call(srv, 'GET', '/v1/keys')).json;
  const current = keys.keys.find((k) => k.current);
  return { origin: keys.log_origin, verifierKey: current && current.log_verifier_key, keys };
}

test('the answer\'s v3 receipt verifies offline from its log_proof and seed token, the audit later from the tiles', { timeout: 60000 }, async () => {
  const { origin, verifierKey } = await logKeys();
  assert.equal(typeof origin, 'string', 'GET /v1/keys has log_origin');
  assert.equal(typeof verifierKey, 'string', 'the current key has log_verifier_key');
  for (const { answer, seed: s } of runs) {
    const index = parseReceiptV3(answer.receipt);
    assert.notEqual(index, null, `a v3 receipt: ${answer.receipt}`);
    assert.equal(typeof answer.log_proof, 'string');
    assert.equal(parseLogProof(answer.log_proof).index, index);
    const at = await verifySubmission({ answer, token: s, verifierKey, origin });
    assert.equal(at.index, index);
    assert.ok(at.size > index);
    for (const change of [{ score: answer.score + 1 }, { completed: !answer.completed }, { submitted_at_ms: answer.submitted_at_ms + 1 },
      { status: answer.status === 'held' ? 'ranked' : 'held' }, { moves_hash: '00'.repeat(32) }, { receipt: `v3.${index + 1n}` }]) {
      await assert.rejects(verifySubmission({ answer: { ...answer, ...change }, token: s, verifierKey, origin }), Error, JSON.stringify(change));
    }
    await assert.rejects(verifySubmission({ answer, token: s, verifierKey, origin: `${origin}x` }), /origin/);
    const audit = (await call(srv, 'GET', `/v1/scores/${answer.score_id}`)).json;
    assert.equal(audit.receipt, answer.receipt);
    const later = await verifyLoggedScore({ score: audit, baseUrl: srv.base, verifierKey, origin });
    assert.equal(later.index, index);
    assert.equal(later.leaf.score_id, answer.score_id);
    await assert.rejects(verifyLoggedScore({ score: { ...audit, score: audit.score + 1 }, baseUrl: srv.base, verifierKey, origin }), /has score/);
    await assert.rejects(verifyLoggedScore({ score: { ...audit, player_id: audit.player_id + 1 }, baseUrl: srv.base, verifierKey, origin }), /has player_id/);
  }
});

function assertClean(seen) {
  const origin = new URL(srv.base).origin;
  for (const r of seen.requests) {
    const url = r.url();
    assert.ok(url.startsWith('data:') || new URL(url).origin === origin, `a request left the origin: ${url}`);
  }
  assert.deepEqual(seen.errors, [], 'the page logged no errors (CSP reports included)');
}

async function verifyAndRead(page) {
  await page.waitForSelector('#viewer:not([hidden])', { timeout: WAIT });
  await page.click('#btn-verify');
  await page.waitForFunction(() => ['pass', 'fail', 'partial'].includes(document.querySelector('#verdict').dataset.verdict), null, { timeout: WAIT });
  return page.evaluate(() => ({
    verdict: document.querySelector('#verdict').dataset.verdict,
    text: document.querySelector('#verdict').textContent,
    score: document.querySelector('#chk-score').textContent,
    hash: document.querySelector('#chk-hash').textContent,
    label: document.querySelector('#chk-sig-label').textContent,
    sig: document.querySelector('#chk-sig').textContent,
  }));
}

test('the replay page finds a v3 score in the score log, in Chromium', { timeout: 90000 }, async () => {
  for (const { answer } of runs) {
    const index = parseReceiptV3(answer.receipt);
    const { page, seen, close } = await watchedPage(browser);
    await page.goto(`${srv.base}/replay/${answer.score_id}`);
    const v = await verifyAndRead(page);
    assert.equal(v.verdict, 'pass', JSON.stringify(v));
    assert.equal(v.label, 'Score log');
    const m = /^✓ In the score log at index (\d+), checkpoint of size (\d+) \(receipt v3\)$/.exec(v.sig);
    assert.ok(m, v.sig);
    assert.equal(BigInt(m[1]), index);
    assert.ok(BigInt(m[2]) > index);
    assert.match(v.text, /signed score log holds it as recorded/);
    const paths = seen.requests.map((r) => new URL(r.url()).pathname);
    for (const p of ['/assets/client/log.mjs', '/v1/keys', '/v1/log/checkpoint']) assert.ok(paths.includes(p), `${p} fetched: ${paths.join(' ')}`);
    assert.ok(paths.some((p) => p.startsWith('/v1/log/tile/entries/')), 'the entry bundle was fetched');
    assert.ok(paths.some((p) => /^\/v1\/log\/tile\/0\//.test(p)), 'a hash tile was fetched');
    await page.screenshot({ path: join(ARTIFACTS, 'replay-v3-receipt.png'), fullPage: true });
    assertClean(seen);
    await close();
  }
});

test('the replay page refuses a v3 score changed on the way: the audit, a tile, the checkpoint', { timeout: 90000 }, async () => {
  const { answer } = runs[0];
  const tampers = {
    async audit(page) {
      await page.route(`**/v1/scores/${answer.score_id}`, async (route) => {
        const res = await route.fetch();
        const a = await res.json();
        a.submitted_at_ms += 1;
        await route.fulfill({ response: res, json: a });
      });
      return /^✗ the log's entry \d+ has submitted_at_ms /;
    },
    async otherIndex(page) {
      await page.route(`**/v1/scores/${answer.score_id}`, async (route) => {
        const res = await route.fetch();
        const a = await res.json();
        a.receipt = runs[1].answer.receipt; // bea's leaf for ann's score
        await route.fulfill({ response: res, json: a });
      });
      return /^✗ the log's entry \d+ has score_id /;
    },
    async entries(page) {
      await page.route('**/v1/log/tile/entries/**', async (route) => {
        const res = await route.fetch();
        const b = Buffer.from(await res.body());
        // the score's own entry (2-byte length, bytes; docs/LOG.md section 4): its score field (offset 41) changed
        let at = 0;
        for (let j = 0n; j < parseReceiptV3(answer.receipt) % 256n; j++) at += 2 + b.readUInt16BE(at);
        b[at + 2 + 48] ^= 1;
        await route.fulfill({ response: res, body: b });
      });
      return /^✗ the log's entry \d+ is not included/;
    },
    async hashTile(page) {
      await page.route('**/v1/log/tile/0/**', async (route) => {
        const res = await route.fetch();
        const b = Buffer.from(await res.body());
        for (let i = 0; i < b.length; i += 32) b[i] ^= 1; // every hash: the proof's siblings among them
        await route.fulfill({ response: res, body: b });
      });
      return /^✗ the log's entry \d+ is not included/;
    },
    async checkpoint(page) {
      await page.route('**/v1/log/checkpoint', async (route) => {
        const res = await route.fetch();
        const text = await res.text();
        const lines = text.split('\n');
        lines[1] = String(BigInt(lines[1]) + 1n);
        await route.fulfill({ response: res, body: lines.join('\n') });
      });
      return /^✗ note: the signature of .* does not verify/;
    },
  };
  for (const [name, tamper] of Object.entries(tampers)) {
    const { page, seen, close } = await watchedPage(browser);
    const want = await tamper(page);
    await page.goto(`${srv.base}/replay/${answer.score_id}`);
    const v = await verifyAndRead(page);
    assert.equal(v.verdict, 'fail', `${name}: ${JSON.stringify(v)}`);
    assert.match(v.text, /Verification failed: .*the score log does not hold this score as recorded/, name);
    assert.match(v.sig, want, name);
    if (name === 'audit') await page.screenshot({ path: join(ARTIFACTS, 'replay-v3-tampered.png'), fullPage: true });
    assertClean(seen);
    await close();
  }
});
