// The port's own checks of the facts quoted in the spec texts, and of the
// port's internal consistency (the vector files are run by vectors.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as core from '../core.mjs';
import * as schulte from '../games/schulte.mjs';
import * as pipes from '../games/pipes.mjs';
import * as targetSums from '../games/target-sums.mjs';
import * as opposites from '../games/opposites.mjs';

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
  for (const game of [schulte, pipes, targetSums, opposites]) {
    for (let level = 1; level <= game.levels; level++) {
      for (let seed = 0; seed < 40; seed++) {
        const lv = game.generate(game.version, level, seed);
        const st = game.start(lv);
        for (const m of game.typicalSolution(lv)) assert.equal(game.kindOf(game.apply(st, m)), 'applied');
        assert.ok(game.result(st).completed, `${game.name} ${level}/${seed}`);
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

test('target-sums spec: no fallback over seeds 0..1999; the largest count is 54309 nodes (level 14), under the cap', () => {
  let most = 0;
  let mostSearch = 0;
  let at = 0;
  for (let level = 1; level <= targetSums.levels; level++) {
    for (let seed = 0; seed < 2000; seed++) {
      const lv = targetSums.generate(1, level, seed);
      assert.equal(lv.fallback, false, `${level}/${seed}`);
      if (lv.nodes > most) {
        most = lv.nodes;
        at = level;
      }
      mostSearch = Math.max(mostSearch, lv.searchNodes);
    }
  }
  assert.equal(most, 54309);
  assert.equal(at, 14);
  assert.equal(mostSearch, 54309);
});

test('target-sums: every board has exactly one solution, and the start (all kept) is not one', () => {
  for (let level = 1; level <= targetSums.levels; level++) {
    for (let seed = 0; seed < 50; seed++) {
      const lv = targetSums.generate(1, level, seed);
      const cs = targetSums.countSolutions(lv.rows, lv.cols, lv.value, lv.rowTarget, lv.colTarget);
      assert.equal(cs.solutions, 1);
      assert.equal(cs.nodes, lv.nodes);
      assert.ok(lv.solution.includes(0));
      assert.equal(lv.minToggles, lv.solution.filter((k) => !k).length);
      for (const v of lv.value) assert.ok(v >= lv.minValue && v <= lv.maxValue);
    }
  }
});

test('target-sums: only version 1 and levels 1..15 generate', () => {
  assert.throws(() => targetSums.generate(2, 1, 0), RangeError);
  assert.throws(() => targetSums.generate(1, 0, 0), RangeError);
  assert.throws(() => targetSums.generate(1, 16, 0), RangeError);
});

test('opposites: both versions give the same schedule; windows close before the next prompt', () => {
  assert.throws(() => opposites.generate(3, 1, 0), RangeError);
  assert.throws(() => opposites.generate(0, 1, 0), RangeError);
  for (let level = 1; level <= opposites.levels; level++) {
    for (let seed = 0; seed < 50; seed++) {
      const a = opposites.generate(1, level, seed);
      const b = opposites.generate(2, level, seed);
      assert.deepEqual(opposites.describeLevel(a), opposites.describeLevel(b));
      for (let i = 0; i + 1 < a.count; i++) assert.ok(a.appear[i] + a.window <= a.appear[i + 1]);
      for (const p of a.prompt) assert.ok(p >= 0 && p < a.codes);
    }
  }
});

test('opposites: a slip costs the prompt in version 1, 50 points in version 2', () => {
  const moves = (lv) => [{ t: lv.appear[0] + 200, answer: lv.prompt[0] }, { t: lv.appear[0] + 300, answer: lv.prompt[0] ^ 1 }];
  const run = (v) => {
    const lv = opposites.generate(v, 1, 42);
    const st = opposites.start(lv);
    const codes = moves(lv).map((m) => opposites.apply(st, m));
    return [codes, opposites.result(st)];
  };
  const [c1, r1] = run(1);
  const [c2, r2] = run(2);
  assert.deepEqual(c1, ['wrong', 'repeated']);
  assert.deepEqual(c2, ['wrong', 'correct']);
  assert.equal(r1.score, 0);
  assert.equal(r2.score, 100 + (2000 - 300) / 10 - 50);
});

test('malformed moves of the new games are refused before the game runs', () => {
  const ts = targetSums.start(targetSums.generate(1, 1, 42));
  for (const m of [{ t: -1, cell: 0 }, { t: 2 ** 31, cell: 0 }, { t: 1.5, cell: 0 }, { t: 100 }, { t: 100, cell: '1' }]) {
    assert.throws(() => targetSums.apply(ts, m), TypeError);
  }
  const op = opposites.start(opposites.generate(2, 1, 42));
  for (const m of [{ t: -1, answer: 0 }, { t: 2 ** 31, answer: 0 }, { t: 100, answer: 256 }, { t: 100, answer: -1 }, { t: 100 }]) {
    assert.throws(() => opposites.apply(op, m), TypeError);
  }
});
