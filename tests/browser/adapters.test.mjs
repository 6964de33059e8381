// The game adapters (web/js/games/*.js) in Node, laid out as replayd serves
// them (/assets/js beside /assets/port), against the C games through
// `replayd replay`: every level's solution and random move lists, legal and
// not, must give the C code's outcomes, rejection and score, move by move in
// the timeline too; and every frame must draw without throwing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gen, replayCli, solve } from '../http/harness.mjs';
import { webModules } from './web_modules.mjs';

const GAMES = ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption', 'driftlings'];
const VERSIONS = { opposites: [1, 2] };
let web;
const adapters = {};

before(async () => {
  web = webModules();
  for (const g of GAMES) adapters[g] = await web.load(`games/${g}.js`);
});

after(() => web.remove());

// A 2D context that accepts every call and property: draw() must run to its end.
function fakeContext() {
  const calls = { n: 0 };
  const gradient = { addColorStop() {} };
  const ctx = new Proxy({}, {
    get(_t, key) {
      if (key === 'measureText') return () => ({ width: 10 });
      if (key === 'createLinearGradient' || key === 'createRadialGradient') return () => gradient;
      if (key === 'calls') return calls.n;
      return (...args) => {
        calls.n++;
        for (const a of args) if (typeof a === 'number') assert.ok(Number.isFinite(a), `a drawing call got ${a}`);
      };
    },
    set() {
      return true;
    },
  });
  return ctx;
}

// The same run through the adapter's plain replay, its timeline, and the C code.
async function check(game, version, level, seed, moves, label) {
  const a = adapters[game];
  const c = await replayCli(game, level, seed, moves, version);
  const lv = a.build(version, level, seed);
  const plain = a.replay(lv, moves);
  const tl = a.timeline(lv, moves);
  assert.deepEqual(plain.rejected, c.rejected || null, `${label}: rejection`);
  assert.deepEqual(tl.rejected, c.rejected || null, `${label}: the timeline's rejection`);
  if (!c.rejected) {
    assert.equal(plain.result.score, c.score, `${label}: score`);
    assert.equal(plain.result.completed, c.completed, `${label}: completed`);
    assert.deepEqual(tl.result, plain.result, `${label}: the timeline ends where the replay does`);
  }
  const moveFrames = tl.frames.filter((f) => f.move >= 0);
  assert.deepEqual(moveFrames.map((f) => f.move), c.outcomes.map((_, i) => i), `${label}: one frame per move applied`);
  assert.deepEqual(moveFrames.map((f) => f.outcome), c.outcomes, `${label}: outcomes`);
  assert.equal(tl.frames[0].move, -1);
  for (let i = 1; i < tl.frames.length; i++) assert.ok(tl.frames[i].t >= tl.frames[i - 1].t, `${label}: time runs forwards`);
  for (const f of tl.frames) assert.ok(typeof f.caption === 'string' && f.caption && typeof f.clock === 'string', `${label}: words`);
  assert.ok(tl.aspect > 0 && tl.chrome >= 0);
  const picks = [0, tl.frames.length >> 1, tl.frames.length - 1];
  for (const i of picks) {
    const ctx = fakeContext();
    for (const [w, h] of [[343, 343 * tl.aspect + tl.chrome], [720, 720 * tl.aspect + tl.chrome]]) a.draw(ctx, w, h, lv, tl.frames[i]);
    assert.ok(ctx.calls > 10, `${label}: frame ${i} draws`);
  }
}

// Random moves in (and a little past) each field's range, times mostly forwards.
async function randomMoves(game, level, seed, rnd) {
  const g = await gen(game, level, seed);
  const n = 1 + Math.floor(rnd() * 30);
  const moves = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    t = Math.max(0, t + Math.floor(rnd() * 900) - 60);
    if (game === 'schulte' || game === 'pipes' || game === 'target-sums') {
      const cells = game === 'schulte' ? g.size * g.size : game === 'pipes' ? g.width * g.height : g.rows * g.cols;
      moves.push({ t, cell: Math.floor(rnd() * (cells + 2)) });
    } else if (game === 'opposites') {
      moves.push({ t: t * 4, answer: Math.floor(rnd() * (g.codes + 1)) });
    } else if (game === 'contraption') {
      moves.push({ part: Math.floor(rnd() * 2), x: Math.floor(rnd() * 110) - 5, y: Math.floor(rnd() * 150) - 5, angle: Math.floor(rnd() * 3000) - 1500 });
      if (moves.length >= 4) break;
    } else {
      moves.push({ tick: Math.floor(t / 20), walker: Math.floor(rnd() * (g.crowd + 1)), skill: Math.floor(rnd() * 5) });
    }
  }
  return moves;
}

function lcg(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 4294967296;
  };
}

for (const game of GAMES) {
  test(`${game}: every level's solution, in the adapter and its timeline, as the C code`, { timeout: 240000 }, async () => {
    for (const version of VERSIONS[game] || [1]) {
      assert.ok(adapters[game].supports(version));
      for (let level = 1; level <= 15; level++) {
        const seed = (level * 2654435761) >>> 0;
        await check(game, version, level, seed, await solve(game, level, seed, version), `v${version} level ${level} seed ${seed}`);
      }
    }
    assert.equal(adapters[game].supports(99), false);
    assert.throws(() => adapters[game].build(99, 1, 1), RangeError);
  });

  test(`${game}: random moves, legal and not, as the C code`, { timeout: 240000 }, async () => {
    const rnd = lcg(game.length * 7919);
    for (let k = 0; k < 24; k++) {
      const level = 1 + (k % 15);
      const seed = Math.floor(rnd() * 4294967296);
      await check(game, (VERSIONS[game] || [1]).at(-1), level, seed, await randomMoves(game, level, seed, rnd), `random ${k} level ${level} seed ${seed}`);
    }
  });
}
