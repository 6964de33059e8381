// Issue 27, row 4: the cost of parsing. Each route has a body cap (a
// submission's follows from the games' move caps and a move's largest
// encoding; every other route 8 KiB), and a scan before parsing refuses
// bodies that nest deeper or hold more arrays and objects, or more values,
// than the route's bodies can, so refusing costs about what sending cost. The server's CPU
// per refused request is printed (measured from /proc, never asserted).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { startServer, register, seed } from './lib.mjs';

let srv, player;
before(async () => {
  srv = await startServer({ args: ['--set', 'rate_per_ip=0', '--set', 'rate_scores_per_player=0', '--set', 'rate_register_per_ip=0'] });
  player = await register(srv, 'caps');
});
after(async () => { await srv.stop(); srv.cleanup(); });

// utime + stime of the server, in ms (clock ticks of 10 ms).
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

function post(path, body, token) {
  return new Promise((resolve) => {
    const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const r = http.request({ host: '127.0.0.1', port: srv.port, method: 'POST', path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => { let json = null; try { json = JSON.parse(text); } catch { /* */ } resolve({ status: res.statusCode, json }); });
    });
    r.on('error', (e) => resolve({ status: 0, error: e.message }));
    r.end(body);
  });
}

// A body of `bytes` bytes: depth-8 arrays, repeated, inside {"x": [...]}.
function deep(bytes) {
  const unit = '[[[[[[0]]]]]],'; // depth 8 with the object and its array
  const n = Math.floor((bytes - 10) / unit.length);
  return '{"x":[' + unit.repeat(n).slice(0, -1) + ']}';
}

async function measure(t, label, path, body, token, runs = 60) {
  const before = cpuMs(srv.child.pid);
  const codes = {};
  for (let i = 0; i < runs; i++) {
    const r = await post(path, body, token);
    const k = `${r.status} ${r.json?.error?.code}`;
    codes[k] = (codes[k] || 0) + 1;
  }
  const per = (cpuMs(srv.child.pid) - before) / runs;
  t.diagnostic(`${label}: ${runs} x ${(body.length / 1024).toFixed(0)} KiB, server CPU ${per.toFixed(2)} ms a request, answers ${JSON.stringify(codes)}`);
  return codes;
}

test('a 256 KiB body of depth-8 arrays is refused unparsed on every route (read and dropped up to 1 MiB, so the 413 arrives whole)', async (t) => {
  const body = deep(256 * 1024 - 64);
  const players = await measure(t, 'POST /v1/players', '/v1/players', body);
  assert.deepEqual(Object.keys(players), ['413 body_too_large']);
  const scores = await measure(t, 'POST /v1/scores', '/v1/scores', body, player.token);
  assert.deepEqual(Object.keys(scores), ['413 body_too_large']);
});

test('a body under the submission cap but deeper than a submission is refused by the scan, unparsed', async (t) => {
  const body = deep(60 * 1024);
  const scores = await measure(t, 'POST /v1/scores (60 KiB)', '/v1/scores', body, player.token);
  assert.deepEqual(Object.keys(scores), ['400 too_deep']);
  // as wide as deep is not: 20,000 empty arrays at depth 2
  const wide = '{"seed_token":"x","moves":[' + Array(20000).fill('[]').join(',') + ']}';
  const many = await measure(t, 'POST /v1/scores (20,000 arrays)', '/v1/scores', wide, player.token, 20);
  assert.deepEqual(Object.keys(many), ['413 too_many_values']);
  const small = await post('/v1/players', '{"name":' + '['.repeat(3) + ']'.repeat(3) + '}');
  assert.equal(small.json?.error?.code, 'too_deep', 'a player body is one flat object');
});

test('a flat body of plain values under the submission cap is refused by the scan, unparsed', async (t) => {
  // [0,0,...] as moves: about 29,000 values in 57 KiB, where the most any
  // game's submission holds is its max_moves times (its fields + 1); the
  // scan counted only arrays and objects, so this was parsed whole (6 ms)
  const zeros = '{"seed_token":"x","moves":[' + Array(29000).fill('0').join(',') + ']}';
  const flat = await measure(t, 'POST /v1/scores (29,000 zeros)', '/v1/scores', zeros, player.token, 20);
  assert.deepEqual(Object.keys(flat), ['413 too_many_values']);
  // 2,000 {} with zeros between them: within the container count, not the values
  const mixed = '{"seed_token":"x","moves":[' + Array(2000).fill('{}').join(',') + ',' + Array(12000).fill('0').join(',') + ']}';
  const both = await measure(t, 'POST /v1/scores (2,000 {} and 12,000 zeros)', '/v1/scores', mixed, player.token, 20);
  assert.deepEqual(Object.keys(both), ['413 too_many_values']);
  // an object's names are not values: 200 members of a flat player body
  const names = '{' + Array.from({ length: 200 }, (_, i) => `"k${i}":0`).join(',') + '}';
  assert.equal((await post('/v1/players', names)).json?.error?.code, 'bad_request', 'within 256 values, refused by its fields');
  const over = '{' + Array.from({ length: 300 }, (_, i) => `"k${i}":0`).join(',') + '}';
  assert.equal((await post('/v1/players', over)).json?.error?.code, 'too_many_values');
});

test('the largest honest submission fits: every game\'s max_moves at its widest encoding is not refused for size', async () => {
  const games = (await (await fetch(srv.base + '/v1/games')).json()).games;
  for (const g of games) {
    const s = await seed(srv, player.token, { game: g.name, level: 1 });
    const fields = g.move_fields.map((f) => f.name);
    const widest = Object.fromEntries(g.move_fields.map((f) => [f.name, String(f.min).length > String(f.max).length ? f.min : f.max]));
    const moves = Array.from({ length: g.max_moves }, () => widest);
    assert.equal(fields.length > 0, true);
    const r = await post('/v1/scores', JSON.stringify({ seed_token: s.seed_token, moves }), player.token);
    assert.notEqual(r.status, 413, `${g.name}: ${g.max_moves} moves are ${JSON.stringify(r.json)}`);
    assert.notEqual(r.json?.error?.code, 'too_deep');
  }
});
