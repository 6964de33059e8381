// The port's own checks of the facts quoted in the spec texts, and of the
// port's internal consistency (the vector files are run by vectors.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as core from '../core.mjs';
import * as schulte from '../games/schulte.mjs';
import * as pipes from '../games/pipes.mjs';

test('CORE.md: seed 0 gives 1144304738, 1416247, 958946056', () => {
  assert.deepEqual(core.firstValues(0, 3), [1144304738, 1416247, 958946056]);
});

test('CORE.md: the pure next() and the Rng stream agree', () => {
  const r = new core.Rng(123456789);
  let s = 123456789;
  for (let i = 0; i < 1000; i++) {
    const [v, s2] = core.next(s);
    assert.equal(r.next(), v);
    s = s2;
    assert.equal(r.state, s);
  }
});

test('CORE.md: 1..9 with seed 42 shuffles to 7 8 2 5 4 6 9 3 1', () => {
  assert.deepEqual(core.shuffled(42, [1, 2, 3, 4, 5, 6, 7, 8, 9]), [7, 8, 2, 5, 4, 6, 9, 3, 1]);
});

test('CORE.md: 2026-07-28 is day 20662; day numbers round-trip 1970..9999', () => {
  assert.equal(core.dayNumber('2026-07-28'), 20662);
  const last = core.dayNumber('9999-12-31');
  for (let d = 0; d <= last; d += 97) assert.equal(core.dayNumber(core.dateOfDay(d)), d);
  assert.equal(core.dateOfDay(last), '9999-12-31');
});

test('CORE.md: no daily before the first era; the rotation alternates from its first day', () => {
  assert.equal(core.daily('2025-12-31'), null);
  assert.equal(core.daily('2026-01-01').game, 'schulte');
  assert.equal(core.daily('2026-01-02').game, 'pipes');
  for (let d = core.dayNumber('2026-01-01'); d < core.dayNumber('2027-01-01'); d++) {
    const x = core.daily(core.dateOfDay(d));
    assert.ok(x.level >= 3 && x.level <= 12);
  }
});

test('schulte spec: level 1 seed 42 is 7 8 2 / 5 4 6 / 9 3 1', () => {
  assert.deepEqual(schulte.describeLevel(schulte.generate(1, 1, 42)).grid, [[7, 8, 2], [5, 4, 6], [9, 3, 1]]);
});

test('pipes spec: level 1 seed 42 (solution, start, 1 node, 0 rejected)', () => {
  const d = pipes.describeLevel(pipes.generate(1, 1, 42));
  assert.deepEqual(d.solution, [[2, 14, 12], [6, 13, 1], [1, 3, 8]]);
  assert.deepEqual(d.start, [[4, 7, 9], [6, 14, 4], [4, 6, 1]]);
  assert.equal(d.nodes, 1);
  assert.equal(d.rejected, 0);
});

test('the typical solutions (docs/BENCH.md) complete every corpus level', () => {
  for (const game of [schulte, pipes]) {
    for (let level = 1; level <= game.levels; level++) {
      for (let seed = 0; seed < 40; seed++) {
        const lv = game.generate(1, level, seed);
        const st = game.start(lv);
        for (const m of game.typicalSolution(lv)) assert.equal(game.kindOf(game.apply(st, m)), 'applied');
        assert.ok(st.completed, `${game.name} ${level}/${seed}`);
      }
    }
  }
});

test('pipes: every generated solution is solved, unique, and the start is not solved', () => {
  for (let level = 1; level <= pipes.levels; level++) {
    for (let seed = 0; seed < 20; seed++) {
      const lv = pipes.generate(1, level, seed);
      assert.ok(lv.unique);
      assert.ok(pipes.isSolved(lv.g, lv.solution));
      assert.ok(!pipes.isSolved(lv.g, lv.start));
      const cs = pipes.countSolutions(lv.g, lv.start);
      assert.equal(cs.solutions, 1);
    }
  }
});

test('malformed moves are refused before the game runs', () => {
  const st = schulte.start(schulte.generate(1, 1, 42));
  for (const m of [{ t: -1, cell: 0 }, { t: 2 ** 31, cell: 0 }, { t: 1.5, cell: 0 }, { t: 100 }]) {
    assert.throws(() => schulte.apply(st, m), TypeError);
    assert.throws(() => pipes.apply(pipes.start(pipes.generate(1, 1, 42)), m), TypeError);
  }
});
