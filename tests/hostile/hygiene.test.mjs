// Issue 27, row 7: input hygiene. A query value with a NUL or another
// control byte is refused (it was read as a C string: ?limit=5%00 was 5);
// an admin secret's file that group or others may read stops the server
// at start, as ssh refuses such a key; a reason must hold visible text and
// the operator field only visible characters (no control, bidi or ANSI
// escape reaches admin_log).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, call, register, BIN, ADMIN_TOKEN } from './lib.mjs';
import { run } from '../http/proc.mjs';

let srv;
before(async () => { srv = await startServer({ admin: ADMIN_TOKEN }); });
after(async () => { await srv.stop(); srv.cleanup(); });

test('query values with NUL or control bytes are refused with 400 bad_query', async () => {
  for (const q of ['limit=5%00', 'limit=5%00junk', 'limit=5%0a', 'cursor=%1b%5b31m', 'limit=5&x%00=1', 'limit=%7f5']) {
    const r = await call(srv, 'GET', `/v1/leaderboards/schulte/1?${q}`, { offContract: true });
    assert.equal(r.status, 400, `${q}: ${r.text}`);
    assert.equal(r.json.error.code, 'bad_query', q);
  }
  assert.equal((await call(srv, 'GET', '/v1/leaderboards/schulte/1?limit=5')).status, 200);
  assert.equal((await call(srv, 'GET', '/v1/leaderboards/schulte/1?limit=5%20', { offContract: true })).status, 400,
    'a trailing space is not a number either (bad_limit)');
});

test('an encoded NUL, ? or / inside a path segment is refused with 400 bad_path', async () => {
  // decoded, each cut the path short or moved a segment's edge:
  // /v1/leaderboards/%00/1 answered 200 with the board index
  for (const path of ['/v1/leaderboards/%00/1', '/v1/leaderboards/schulte%3F/1', '/v1/leaderboards/schulte%3f/1',
    '/v1/leaderboards/schulte%2F1', '/v1/leaderboards/schulte%2f1', '/v1/leaderboards/schulte/1%00',
    '/v1/leaderboards/%00', '/healthz%3Fx']) {
    const r = await call(srv, 'GET', path, { offContract: true });
    assert.equal(r.status, 400, `${path}: ${r.text}`);
    assert.equal(r.json.error.code, 'bad_path', path);
  }
  const posted = await call(srv, 'POST', '/v1/scores%2F', { body: { seed_token: 'x', moves: [] }, offContract: true });
  assert.equal(posted.status, 400, posted.text);
  assert.equal(posted.json.error.code, 'bad_path');
  // other encodings still decode: %31 is the level 1, and %2F in a query value is a value's /
  assert.equal((await call(srv, 'GET', '/v1/leaderboards/schulte/%31', { offContract: true })).status, 200);
  assert.equal((await call(srv, 'GET', '/v1/leaderboards/schulte/1?limit=5&x=%2F%3F', { offContract: true })).status, 200);
});

test('an admin secret in a file group or others may read stops the server at start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-perm-'));
  try {
    const serve = (...args) => run(BIN, ['serve', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), ...args],
      { encoding: 'utf8', timeout: 10000 });
    const file = join(dir, 'admin.token');
    writeFileSync(file, ADMIN_TOKEN + '\n');
    for (const mode of [0o644, 0o666, 0o640, 0o604, 0o620]) {
      chmodSync(file, mode);
      const r = await serve('--set', `admin_token_file=${file}`);
      assert.equal(r.status, 2, `mode ${mode.toString(8)}: ${r.stderr}`);
      assert.match(r.stderr, /admin_token_file .*admin\.token: mode 0[0-7]{3}, must not be readable or writable by group or others \(chmod 600 /);
    }
    const conf = join(dir, 'replayd.conf');
    writeFileSync(conf, `admin_token = ${ADMIN_TOKEN}\n`);
    chmodSync(conf, 0o644);
    let r = await serve('--config', conf);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /the config file .*replayd\.conf: mode 0644, must not be readable .*; it holds the admin token/);
    // a config file without the token may be world-readable
    writeFileSync(conf, 'rate_per_ip = 100\n');
    chmodSync(file, 0o600);
    r = await run(BIN, ['migrate', '--config', conf, '--set', `admin_token_file=${file}`, '--data', join(dir, 'data')], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 0, r.stderr);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a reason needs visible text; the operator field only visible characters', async () => {
  const admin = (path, body) => call(srv, 'POST', path, { token: ADMIN_TOKEN, body, offContract: true });
  const p = await register(srv, 'target');
  const ban = `/v1/admin/players/${p.player_id}/ban`;
  for (const reason of [' ', '   ', '\t\n', '\u2800', '\u3164', '\u200b', 'ok\u202e', 'ok\u001b[2J'])
    assert.equal((await admin(ban, { reason })).json?.error?.code, 'reason_required', JSON.stringify(reason));
  for (const operator of ['ops\u001b[31m', 'a\u202eb', 'two\nlines', '\u2800', ' ', 'x\u0085'])
    assert.equal((await admin(ban, { reason: 'spam', operator })).json?.error?.code, 'bad_operator', JSON.stringify(operator));
  const ok = await admin(ban, { reason: 'spam\nsecond line', operator: 'mod anna' });
  assert.equal(ok.status, 200, ok.text);
  const log = await call(srv, 'GET', '/v1/admin/log?limit=200', { token: ADMIN_TOKEN });
  const actors = log.json.items.map((e) => e.actor);
  assert.ok(actors.some((a) => a.startsWith('mod anna@')), actors.join(' | '));
  assert.ok(actors.every((a) => !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(a)), 'no control in admin_log');
});
