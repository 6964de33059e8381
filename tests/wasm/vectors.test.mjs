// Every case of every vectors/*.json through the WebAssembly build
// (build/wasm/replay-test.wasm, loaded by wasm/replay.mjs): levels and
// replays through the public ABI (tools/kit/cases.mjs, the C runner's
// rules), prng.json through the core functions, the games' own sections
// through the test exports. One test per file and section; a failure lists
// the first cases that differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load, portGame } from '../../wasm/replay.mjs';
import { casesOf, check, serve } from '../../tools/kit/cases.mjs';
import { PRNG, GAME_SECTIONS } from './sections.mjs';

const root = new URL('../..', import.meta.url).pathname;
const rp = await load(join(root, 'build/wasm/replay-test.wasm'));
const games = new Map(rp.games().map((g) => [g.name, portGame(rp, g.name)]));
const files = readdirSync(join(root, 'vectors')).filter((f) => f.endsWith('.json')).sort();

function run(label, cases) {
  const failures = [];
  let passed = 0;
  for (const c of cases) {
    let why;
    try {
      why = c.run();
    } catch (e) {
      why = e.message;
    }
    if (why) failures.push(`${c.name}: ${why}`);
    else passed++;
  }
  assert.ok(passed > 0, `${label}: no cases`);
  assert.deepEqual(failures.slice(0, 10), [], `${label}: ${failures.length} of ${cases.length} differ`);
  return passed;
}

test('the wasm build lists every game of the vector files', () => {
  for (const f of files.filter((f) => f !== 'prng.json')) {
    const json = JSON.parse(readFileSync(join(root, 'vectors', f), 'utf8'));
    assert.ok(games.has(json.game), `${f}: ${json.game}`);
  }
});

for (const f of files) {
  const json = JSON.parse(readFileSync(join(root, 'vectors', f), 'utf8'));
  if (!('game' in json)) {
    for (const s of Object.keys(json).filter((k) => Array.isArray(json[k]))) {
      test(`${f} [${s}]`, () => {
        assert.ok(PRNG[s], `no checker for the section ${s}`);
        run(`${f} [${s}]`, json[s].map((c) => ({ name: c.name, run: () => PRNG[s](rp, c) })));
      });
    }
    continue;
  }
  const own = GAME_SECTIONS[json.game] || {};
  for (const s of Object.keys(json).filter((k) => Array.isArray(json[k]))) {
    test(`${f} [${s}]`, () => {
      if (s === 'levels' || s === 'replays') {
        const cases = casesOf(json).filter((c) => c.kind === s);
        run(`${f} [${s}]`, cases.map((c) => ({ name: c.name, run: () => check(c.kind, c.case, serve((n) => games.get(n), c.request)) })));
      } else {
        assert.ok(own[s], `no checker for the section ${s}`);
        run(`${f} [${s}]`, json[s].map((c) => ({ name: c.name, run: () => own[s](rp, c) })));
      }
    });
  }
}

test('a case that differs is caught (levels, replays, refusals, a trace)', () => {
  const json = JSON.parse(readFileSync(join(root, 'vectors/schulte.json'), 'utf8'));
  const cases = casesOf(json);
  const lv = cases.find((c) => c.kind === 'levels' && c.case.expect?.grid);
  const bad = structuredClone(lv.case);
  bad.expect.grid[0][0] += 1;
  assert.match(check('levels', bad, serve((n) => games.get(n), lv.request)), /level\.grid/);
  const rp1 = cases.find((c) => c.kind === 'replays' && c.case.result && c.case.moves.length > 2);
  const bad2 = structuredClone(rp1.case);
  bad2.result.score += 1;
  assert.match(check('replays', bad2, serve((n) => games.get(n), rp1.request)), /result\.score/);
  const moved = structuredClone(rp1.request);
  moved.moves[0] = { ...moved.moves[0], extra: 1 };
  assert.equal(serve((n) => games.get(n), moved).refused, 'bad_moves');
  const tooMany = { ...rp1.request, moves: Array(games.get('schulte').maxMoves + 1).fill(rp1.request.moves[0]) };
  assert.equal(serve((n) => games.get(n), tooMany).refused, 'too_many_moves');
  const dl = JSON.parse(readFileSync(join(root, 'vectors/driftlings.json'), 'utf8')).traces.find((t) => t.ticks.length && t.ticks.at(-1).walkers.length);
  const bad3 = structuredClone(dl);
  bad3.ticks.at(-1).walkers[0][0] += 1;
  assert.throws(() => GAME_SECTIONS.driftlings.traces(rp, bad3), /tick/);
});
