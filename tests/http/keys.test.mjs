// Key rotation: `replayd keygen` adds the next key id; after a restart new
// tokens and receipts use it, while tokens issued under the old id still
// verify (by their key id) and old receipts still check against /v1/keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startServer, call, register, seed, solve, awaitRun, selfSignedCert } from './harness.mjs';
import { runOk } from './proc.mjs';

const keyId = (token) => Buffer.from(token.slice(4), 'base64url').readUInt32BE(1);

test('rotation keeps old tokens redeemable and old receipts verifiable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-keys-'));
  let srv;
  try {
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    for (const f of readdirSync(join(dir, 'keys'))) {
      assert.equal(statSync(join(dir, 'keys', f)).mode & 0o777, 0o600, `${f} is private`);
    }
    assert.equal(statSync(join(dir, 'keys')).mode & 0o777, 0o700);
    const p = await register(srv, 'keeper');
    const old = await seed(srv, p.token, { game: 'schulte', level: 1 });
    assert.equal(keyId(old.seed_token), 1);
    const first = await seed(srv, p.token, { game: 'schulte', level: 1 });
    const m1 = await solve('schulte', 1, first.seed);
    await awaitRun(first, m1);
    const r1 = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: first.seed_token, moves: m1 } });
    assert.equal(r1.status, 200);
    assert.match(r1.json.receipt, /^v2\.1\./);
    await srv.stop();

    const out = JSON.parse(await runOk(BIN, ['keygen', '--data', dir], { encoding: 'utf8' }));
    assert.equal(out.key_id, 2);
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    const keys = (await call(srv, 'GET', '/v1/keys')).json.keys;
    assert.deepEqual(keys.map((k) => [k.key_id, k.current]), [[1, false], [2, true]]);
    const fresh = await seed(srv, p.token, { game: 'schulte', level: 1 });
    assert.equal(keyId(fresh.seed_token), 2);
    const m2 = await solve('schulte', 1, old.seed);
    await awaitRun(old, m2);
    const r2 = await call(srv, 'POST', '/v1/scores', { token: p.token, body: { seed_token: old.seed_token, moves: m2 } });
    assert.equal(r2.status, 200, 'a token MAC\'d under the retired key still verifies');
    assert.match(r2.json.receipt, /^v2\.2\./, 'new receipts are signed with the current key');
    const audit = await call(srv, 'GET', `/v1/scores/${r1.json.score_id}`);
    assert.match(audit.json.receipt, /^v2\.1\./, 'old receipts keep the id that signed them');
    assert.equal((await call(srv, 'POST', '/v1/players', { token: 'x', body: { name: 'still fine' } })).status, 201);
    assert.equal((await call(srv, 'POST', '/v1/seeds', { token: p.token, body: { game: 'schulte', level: 1 } })).status, 201,
      'player tokens survive the rotation');
  } finally { await srv?.stop(); rmSync(dir, { recursive: true, force: true }); }
});

test('a first keygen writes every key a node needs; a node started on a copy signs and checks alike', async () => {
  const src = mkdtempSync(join(tmpdir(), 'replayd-keygen-'));
  const dirs = [mkdtempSync(join(tmpdir(), 'replayd-copy-')), mkdtempSync(join(tmpdir(), 'replayd-copy-'))];
  const srvs = [];
  try {
    await runOk(BIN, ['keygen', '--data', src], { encoding: 'utf8' });
    const files = readdirSync(join(src, 'keys')).sort();
    // (daily.key seals the dailies, daily.json says from when: sealed dailies)
    assert.deepEqual(files, ['daily.json', 'daily.key', 'mac-1.key', 'pub-1.json', 'sign-1.key', 'token-hash.key']);
    const hashKey = readFileSync(join(src, 'keys', 'token-hash.key'));
    const dailyKey = readFileSync(join(src, 'keys', 'daily.key'));
    await runOk(BIN, ['keygen', '--data', src], { encoding: 'utf8' });
    assert.deepEqual(readFileSync(join(src, 'keys', 'token-hash.key')), hashKey, 'a rotation keeps the token-hash key');
    assert.deepEqual(readFileSync(join(src, 'keys', 'daily.key')), dailyKey, 'a rotation keeps the daily key (its commitments are published)');
    // two nodes from copies of the keys (their own SQLite files: only the
    // bearer hash is compared here, through the same name taken twice)
    for (const d of dirs) {
      cpSync(join(src, 'keys'), join(d, 'keys'), { recursive: true });
      srvs.push(await startServer({ dataDir: d }));
    }
    assert.deepEqual(readFileSync(join(dirs[0], 'keys', 'token-hash.key')), hashKey, 'the node made no key of its own');
    const k0 = (await call(srvs[0], 'GET', '/v1/keys')).json.keys;
    const k1 = (await call(srvs[1], 'GET', '/v1/keys')).json.keys;
    assert.deepEqual(k0, k1, 'both nodes publish the same keys');
    // and seal the same dailies: a date ahead has one commitment on both
    const ahead = new Date(Date.now() + 3 * 86400000).toISOString().slice(0, 10);
    const d0 = (await call(srvs[0], 'GET', `/v1/daily?date=${ahead}`)).json;
    const d1 = (await call(srvs[1], 'GET', `/v1/daily?date=${ahead}`)).json;
    assert.equal(d0.sealed, true, JSON.stringify(d0));
    assert.equal(d0.commitment, d1.commitment, 'both nodes seal the same dailies');
  } finally {
    for (const s of srvs) await s.stop();
    for (const d of [src, ...dirs]) rmSync(d, { recursive: true, force: true });
  }
});

test('a node whose keys are not the ones its database was first used with refuses to start, saying so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-keyfp-'));
  const other = mkdtempSync(join(tmpdir(), 'replayd-keyfp-other-'));
  try {
    let srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    await srv.stop();
    // another key set (a node that made its own) in place of this one
    await runOk(BIN, ['keygen', '--data', other], { encoding: 'utf8' });
    const mine = join(dir, 'keys', 'token-hash.key');
    cpSync(join(dir, 'keys'), join(dir, 'keys.orig'), { recursive: true });
    cpSync(join(other, 'keys', 'token-hash.key'), mine);
    await assert.rejects(startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }), /token-hash\.key in .* is not the one this database was first used with/);
    cpSync(join(other, 'keys'), join(dir, 'keys'), { recursive: true });
    await assert.rejects(startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }), /is not the one this database was first used with/);
    // the database's own keys back: it starts
    rmSync(join(dir, 'keys'), { recursive: true });
    cpSync(join(dir, 'keys.orig'), join(dir, 'keys'), { recursive: true });
    // another daily.key alone (sealed dailies, the default): it would publish other seeds
    cpSync(join(other, 'keys', 'daily.key'), join(dir, 'keys', 'daily.key'));
    await assert.rejects(startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }), /daily\.key .* is not the one this database was first used with/);
    cpSync(join(dir, 'keys.orig', 'daily.key'), join(dir, 'keys', 'daily.key'));
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    assert.equal((await call(srv, 'GET', '/healthz')).status, 200);
    await srv.stop();
  } finally { rmSync(dir, { recursive: true, force: true }); rmSync(other, { recursive: true, force: true }); }
});

// Key files as ssh treats a private key (base/private_file.h, the admin
// token file's rule): the keys directory and each *.key file in it must be
// the service user's and private, a link's target checked; otherwise the
// node does not start, naming the file and its mode. keygen makes them so
// whatever the umask.
test('a key file or the keys directory group or others may read stops the node at start, naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-keymode-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'replayd-keymode-link-'));
  let srv;
  try {
    await runOk('sh', ['-c', 'umask 0 && exec "$0" keygen --data "$1"', BIN, dir], { encoding: 'utf8' });
    const keys = join(dir, 'keys');
    assert.equal(statSync(keys).mode & 0o777, 0o700, 'keygen under umask 0: the directory 0700');
    for (const f of readdirSync(keys)) assert.equal(statSync(join(keys, f)).mode & 0o777, 0o600, `keygen under umask 0: ${f}`);
    const cases = [['daily.key', 0o644], ['daily.key', 0o666], ['sign-1.key', 0o644], ['token-hash.key', 0o644],
      ['mac-1.key', 0o640], ['', 0o777], ['', 0o755]];
    for (const [name, mode] of cases) {
      const path = name ? join(keys, name) : keys;
      chmodSync(path, mode);
      const shown = mode.toString(8).padStart(4, '0');
      const fix = name ? '600' : '700';
      const esc = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await assert.rejects(startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }),
        new RegExp(`${esc}: mode ${shown}, must not be readable or writable by group or others \\(chmod ${fix} `),
        `${name || 'keys/'} at ${shown}`);
      chmodSync(path, name ? 0o600 : 0o700);
    }
    // daily.key a link to a file others may read: the target is what counts
    const target = join(elsewhere, 'daily.key');
    renameSync(join(keys, 'daily.key'), target);
    chmodSync(target, 0o644);
    symlinkSync(target, join(keys, 'daily.key'));
    await assert.rejects(startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }), /daily\.key \(a link to .*daily\.key\): mode 0644, must not be readable/);
    chmodSync(target, 0o600);
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    assert.equal((await call(srv, 'GET', '/healthz')).status, 200, 'every file 0600, the directory 0700: it starts');
  } finally {
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

// A key the database records (a node started with it) and this node lacks
// stops it at start: it would refuse every token MACed with it (400
// unknown_key). One node's form: a key made and started with, then its
// files taken away. A retired key (keygen --retire: pub-N.json kept) is held.
test('a key the database records that this node lacks stops it at start, naming the key and the fix', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-keymissing-'));
  const aside = mkdtempSync(join(tmpdir(), 'replayd-keymissing-aside-'));
  let srv;
  try {
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    await srv.stop();
    await runOk(BIN, ['keygen', '--data', dir], { encoding: 'utf8' });
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }); // records key 2
    await srv.stop();
    for (const f of ['mac-2.key', 'sign-2.key']) renameSync(join(dir, 'keys', f), join(aside, f));
    await assert.rejects(startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }),
      /key 2 \(mac-2\.key, sign-2\.key\) is recorded in the database \(a node started with it\) but missing here: copy the keys directory of the node that made it to .*\/keys\//);
    for (const f of ['mac-2.key', 'sign-2.key']) renameSync(join(aside, f), join(dir, 'keys', f));
    await runOk(BIN, ['keygen', '--data', dir], { encoding: 'utf8' });
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] }); // records key 3
    await srv.stop();
    await runOk(BIN, ['keygen', '--retire', '2', '--data', dir], { encoding: 'utf8' });
    srv = await startServer({ dataDir: dir, args: ['--set', 'receipt_version=2'] });
    const keys = (await call(srv, 'GET', '/v1/keys')).json.keys;
    assert.deepEqual(keys.map((k) => [k.key_id, k.retired]), [[1, false], [2, true], [3, false]], 'a retired key is held by its record');
  } finally {
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(aside, { recursive: true, force: true });
  }
});

// The TLS private key (tls_key) follows PostgreSQL's rule for its own
// server key: the service user's with no group or other bits, or root's
// readable by its group at most (Debian's ssl-cert group, 0640). A key any
// local user may read started without a word before.
test('a TLS key others may read stops the node at start, naming it; 0600 and root\'s 0640 start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-tlsmode-'));
  let srv;
  try {
    const { cert, key } = await selfSignedCert(dir, 'localhost');
    const tls = ['--set', `tls_cert=${cert}`, '--set', `tls_key=${key}`];
    const esc = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const mode of [0o644, 0o604, 0o660]) {
      chmodSync(key, mode);
      await assert.rejects(startServer({ dataDir: dir, scheme: 'https', args: tls }),
        new RegExp(`tls_key ${esc}: mode ${mode.toString(8).padStart(4, '0')}`), `tls_key at ${mode.toString(8)}`);
    }
    const root = process.getuid() === 0;
    chmodSync(key, 0o640);
    if (root) {
      srv = await startServer({ dataDir: dir, scheme: 'https', args: tls });
      await srv.stop();
      srv = null;
    } else {
      await assert.rejects(startServer({ dataDir: dir, scheme: 'https', args: tls }), /tls_key .*: mode 0640/, 'not root\'s: 0640 is too open');
    }
    chmodSync(key, 0o600);
    srv = await startServer({ dataDir: dir, scheme: 'https', args: tls });
    assert.match(srv.base, /^https:/);
  } finally {
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
