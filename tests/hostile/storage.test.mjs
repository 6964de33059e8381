// Issue 27, row 8: storage per address. Registrations are limited per
// network (IPv4 /24, IPv6 /64) as well as per address, so one machine with
// a network of addresses cannot mint players (each with its own caps on
// kept rejected moves) at the per-address rate times the addresses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer } from './lib.mjs';

function register(port, name, { from = '127.0.0.1', headers = {} } = {}) {
  return new Promise((resolve) => {
    const body = JSON.stringify({ name });
    const r = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/players', localAddress: from, agent: false,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
    });
    r.on('error', (e) => resolve({ status: 0, error: e.message }));
    r.end(body);
  });
}

test('registrations are limited per IPv4 /24 and per IPv6 /64, not only per address', async () => {
  const srv = await startServer({ args: ['--set', 'rate_register_per_ip=3', '--set', 'rate_register_per_prefix=8',
    '--set', 'trusted_proxies=127.0.0.1'] });
  try {
    // 20 addresses of one /24, two registrations each
    const v4 = [];
    for (let i = 0; i < 20; i++)
      for (let k = 0; k < 2; k++) v4.push((await register(srv.port, `n${i}-${k}`, { from: `127.77.1.${i + 2}` })));
    const made = v4.filter((r) => r.status === 201).length;
    assert.equal(made, 8, `8 a minute from 127.77.1.0/24: ${made}`);
    assert.match(v4.find((r) => r.status === 429).json.error.message, /network/);
    // another /24 is another network
    assert.equal((await register(srv.port, 'other', { from: '127.77.2.2' })).status, 201);
    // the per-address limit still holds first
    const one = [];
    for (let k = 0; k < 4; k++) one.push((await register(srv.port, `a${k}`, { from: '127.77.3.2' })).status);
    assert.deepEqual(one, [201, 201, 201, 429]);
    // IPv6 clients named by the trusted proxy: 20 addresses of one /64
    const v6 = [];
    for (let i = 0; i < 20; i++)
      v6.push((await register(srv.port, `v${i}`, { headers: { 'X-Forwarded-For': `2001:db8:5:6::${(i + 1).toString(16)}` } })).status);
    assert.equal(v6.filter((s) => s === 201).length, 8, v6.join(','));
    assert.equal((await register(srv.port, 'v-other', { headers: { 'X-Forwarded-For': '2001:db8:5:7::1' } })).status, 201,
      'another /64 is another network');
  } finally { await srv.stop(); srv.cleanup(); }
});

test('kept rejected moves are capped per client network a day, across the players it registered', async () => {
  const { startServer: start, seed, dbExec } = await import('../http/harness.mjs');
  const srv = await start({ args: ['--set', 'rate_register_per_ip=0', '--set', 'rate_register_per_prefix=0',
    '--set', 'rejection_moves_per_net_day=5', '--set', 'rejection_moves_per_player_day=20', '--set', 'rate_scores_per_player=0'] });
  try {
    const bad = Array.from({ length: 30 }, (_, i) => ({ t: 500 + i, cell: 9 }));
    let rejected = 0;
    // 4 players of one network, 3 tokens each, each token rejected once
    for (let p = 0; p < 4; p++) {
      const player = (await register(srv.port, `prober${p}`, { from: `127.66.1.${p + 2}` })).json;
      for (let k = 0; k < 3; k++) {
        const s = await seed(srv, player.token, { game: 'schulte', level: 1 });
        const r = await new Promise((resolve) => {
          const body = JSON.stringify({ seed_token: s.seed_token, moves: bad });
          const q = http.request({ host: '127.0.0.1', port: srv.port, method: 'POST', path: '/v1/scores', localAddress: `127.66.1.${p + 2}`, agent: false,
            headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Authorization: `Bearer ${player.token}`, Connection: 'close' } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
          q.end(body);
        });
        if (r === 422) rejected++;
      }
    }
    assert.equal(rejected, 12, 'every bad replay is still answered and recorded');
    const q = async (sql) => { const r = await dbExec(srv.dir, sql); assert.equal(r.status, 0, r.stderr); return r.stdout.trim(); };
    assert.equal(await q('SELECT COUNT(*) FROM rejections'), '12', 'each rejection is kept (reason, index, hash)');
    assert.equal(await q("SELECT COUNT(*) FROM rejections WHERE moves_json <> ''"), '5', 'the moves of 5 only: the network\'s day');
    // another network has its own quota
    const other = (await register(srv.port, 'elsewhere', { from: '127.66.2.2' })).json;
    const s = await seed(srv, other.token, { game: 'schulte', level: 1 });
    const r = await fetch(srv.base + '/v1/scores', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${other.token}` },
      body: JSON.stringify({ seed_token: s.seed_token, moves: bad }) });
    assert.equal(r.status, 422);
    assert.equal(await q("SELECT COUNT(*) FROM rejections WHERE moves_json <> ''"), '6');
  } finally { await srv.stop(); srv.cleanup(); }
});
