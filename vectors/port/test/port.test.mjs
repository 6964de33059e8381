// The port's own checks of the facts quoted in the spec texts, and of the
// port's internal consistency (the vector files are run by vectors.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as core from '../core.mjs';
import * as schulte from '../games/schulte.mjs';
import * as pipes from '../games/pipes.mjs';
import * as targetSums from '../games/target-sums.mjs';
import * as opposites from '../games/opposites.mjs';
import * as contraption from '../games/contraption.mjs';
import * as driftlings from '../games/driftlings.mjs';

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
  for (const game of [schulte, pipes, targetSums, opposites, contraption, driftlings]) {
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

test('target-sums: only versions 1 and 2 and levels 1..15 generate; both versions make the same board', () => {
  assert.throws(() => targetSums.generate(3, 1, 0), RangeError);
  assert.throws(() => targetSums.generate(0, 1, 0), RangeError);
  for (let level = 1; level <= targetSums.levels; level++) {
    for (let seed = 0; seed < 20; seed++) {
      const a = targetSums.describeLevel(targetSums.generate(1, level, seed));
      const b = targetSums.describeLevel(targetSums.generate(2, level, seed));
      for (const k of Object.keys(a)) assert.deepEqual(b[k], a[k]);
      assert.equal(b.finish_floor_ms, 500 * b.min_toggles);
    }
  }
  assert.throws(() => targetSums.generate(1, 0, 0), RangeError);
  assert.throws(() => targetSums.generate(1, 16, 0), RangeError);
});

test('opposites: every version gives the same schedule; windows close before the next prompt', () => {
  assert.throws(() => opposites.generate(4, 1, 0), RangeError);
  assert.throws(() => opposites.generate(0, 1, 0), RangeError);
  for (let level = 1; level <= opposites.levels; level++) {
    for (let seed = 0; seed < 50; seed++) {
      const a = opposites.generate(1, level, seed);
      const b = opposites.generate(2, level, seed);
      const c = opposites.generate(3, level, seed);
      assert.deepEqual(opposites.describeLevel(a), opposites.describeLevel(b));
      assert.deepEqual({ ...opposites.describeLevel(c), min_reaction_ms: 150 }, opposites.describeLevel(a));
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

// ---- the catalogue's era 2 (docs/CORE.md) ------------------------------------------

test('CORE.md: era 1 ends on 2026-12-06; era 2 rotates five games from 2026-12-07', () => {
  assert.equal(core.daily('2026-12-06').schedule, 1);
  const rot = ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption'];
  const first = core.dayNumber('2026-12-07');
  for (let k = 0; k < 500; k++) {
    const d = core.daily(core.dateOfDay(first + k));
    assert.equal(d.schedule, 2);
    assert.equal(d.game, rot[k % 5]);
    assert.ok(d.level >= 3 && d.level <= 12);
  }
});

test('CORE.md: the level always comes from the catalogue stream; only Contraption replaces the seed', () => {
  const first = core.dayNumber('2026-12-07');
  for (let k = 0; k < 200; k++) {
    const day = first + k;
    const date = core.dateOfDay(day);
    const d = core.daily(date);
    const plain = core.daily(date, {});
    const [v1] = core.firstValues(day, 1);
    const [, v2] = core.firstValues(day, 2);
    assert.equal(d.level, 3 + (v2 % 10));
    assert.equal(plain.level, d.level);
    assert.equal(plain.seed, v1);
    if (d.game === 'contraption') {
      assert.equal(d.seed, core.fnv1a32(contraption.dailyText(date)));
      assert.equal(d.seed, contraption.dailySeed(date));
    } else {
      assert.equal(d.seed, v1);
    }
  }
});

// ---- Contraption (games/contraption/spec.md) ---------------------------------------

test('contraption spec 1: fdiv, bounce and friction examples', () => {
  const C = contraption;
  assert.equal(C.fdiv(-7, 4), -2);
  assert.equal(C.fdiv(7, 4), 1);
  assert.equal(C.fdiv(-8, 4), -2);
  assert.equal(C.bounce(13), -3);
  assert.equal(C.bounce(-13), 3);
  assert.ok(Object.is(C.bounce(3), 0));
  assert.ok(Object.is(C.fdiv(-0, 4), 0));
  assert.equal(C.friction(1), 0);
  assert.equal(C.friction(-1), 0);
  assert.equal(C.friction(5), 3);
  assert.equal(C.friction(-5), -3);
  assert.equal(C.clamp(400), 384);
  assert.equal(C.clamp(-400), -384);
  // exact floors far beyond 32 bits (the spec's intermediates reach 2^43)
  assert.equal(C.fdiv(-(2 ** 43) - 1, 16384 * 16384), -32769);
  assert.equal(C.fdiv(2 ** 43 + 16384 * 16384 - 1, 16384 * 16384), 32768);
});

test('contraption spec 3: trig examples; sin odd, cos even, |values| <= 16384', () => {
  const C = contraption;
  assert.deepEqual(C.trig(0), [0, 16384]);
  assert.deepEqual(C.trig(450), [7126, 14753]);
  assert.deepEqual(C.trig(-450), [-7126, 14753]);
  assert.deepEqual(C.trig(800), [11753, 11415]);
  assert.deepEqual(C.trig(1400), [16146, 2785]);
  for (let m = 0; m <= 1400; m++) {
    const [s, c] = C.trig(m);
    const [s2, c2] = C.trig(-m);
    assert.equal(s2, 0 - s);
    assert.equal(c2, c);
    assert.ok(s >= 0 && s <= 16384 && c >= 0 && c <= 16384);
  }
  assert.throws(() => C.trig(1401), RangeError);
});

test('contraption spec 11: contraption:2026-7-28 gives 176112159', () => {
  assert.equal(contraption.dailyText('2026-07-28'), 'contraption:2026-7-28');
  assert.equal(contraption.dailySeed('2026-07-28'), 176112159);
});

test('contraption: only versions 1 and 2 and levels 1..15 generate; malformed moves are refused', () => {
  const C = contraption;
  assert.throws(() => C.generate(3, 1, 0), RangeError);
  assert.throws(() => C.generate(0, 1, 0), RangeError);
  assert.throws(() => C.generate(1, 0, 0), RangeError);
  assert.throws(() => C.generate(1, 16, 0), RangeError);
  assert.throws(() => C.generate(1, 1, 2 ** 32), RangeError);
  const st = C.start(C.generate(1, 1, 0));
  for (const m of [{ part: 2, x: 0, y: 0, angle: 0 }, { part: 0, x: 10001, y: 0, angle: 0 },
    { part: 0, x: 0, y: -10001, angle: 0 }, { part: 0, x: 0, y: 0, angle: 100001 }, { part: 0, x: 1.5, y: 0, angle: 0 },
    { part: 0, x: 0, y: 0 }, null]) {
    assert.throws(() => C.apply(st, m), TypeError);
  }
  assert.equal(C.apply(st, { part: 0, x: 10000, y: -10000, angle: -100000 }), 'bad_angle');
  // the move fields depend on the version: a version 1 move with t, a version 2 move without it,
  // an extra field or t out of 0..2^31-1 are malformed
  assert.throws(() => C.apply(C.start(C.generate(1, 1, 0)), { part: 0, x: 50, y: 50, angle: 0, t: 1000 }), TypeError);
  assert.throws(() => C.apply(C.start(C.generate(1, 1, 0)), { part: 0, x: 50, y: 50, angle: 0, z: 1 }), TypeError);
  const st2 = C.start(C.generate(2, 1, 0));
  for (const m of [{ part: 0, x: 50, y: 50, angle: 0 }, { part: 0, x: 50, y: 50, angle: 0, t: -1 },
    { part: 0, x: 50, y: 50, angle: 0, t: 2 ** 31 }, { part: 0, x: 50, y: 50, angle: 0, t: 1.5 },
    { part: 0, x: 50, y: 50, angle: 0, t: 1000, z: 0 }]) {
    assert.throws(() => C.apply(st2, m), TypeError);
  }
  assert.deepEqual(C.fieldsOf(1), ['part', 'x', 'y', 'angle']);
  assert.deepEqual(C.fieldsOf(2), ['part', 'x', 'y', 'angle', 't']);
  assert.deepEqual(C.fields, C.fieldsOf(C.version));
  assert.equal(C.apply(st2, { part: 0, x: 50, y: 50, angle: 0, t: 2 ** 31 - 1 }), 'placed');
});

test('contraption: every level of seeds 0..39 is issued with a plan the sweep finds first; the bare ball misses', () => {
  const C = contraption;
  for (let level = 1; level <= C.levels; level++) {
    for (let seed = 0; seed < 40; seed++) {
      const lv = C.generate(1, level, seed);
      assert.equal(lv.fallback, false);
      assert.equal(lv.issued, lv.attempts);
      assert.equal(lv.preSolved + lv.noSweep + 1, lv.attempts);
      const field = C.fieldOf(lv);
      assert.equal(C.simulate(field, []).reached, false);
      // the first legal sweep placement that reaches the goal, in sweep order
      let first = null;
      let sims = 1;
      for (const x of C.SWEEP_X) for (const y of C.SWEEP_Y) for (const angle of C.SWEEP_ANGLE) {
        if (first) continue;
        const [code, p] = C.check({ part: 0, x, y, angle }, lv.walls, [], [1, 0]);
        if (code !== 'placed') continue;
        sims++;
        const r = C.simulate(field, [p]);
        if (r.reached) first = [{ part: 0, x, y, angle }, r.arrival_tick];
      }
      assert.deepEqual(lv.plan, [first[0]]);
      assert.equal(lv.planArrival, first[1]);
      assert.ok(lv.sims >= sims);
      assert.equal(lv.walls.length + lv.dropped - 1 >= C.levelRow(level).wallsMin, true);
    }
  }
});

test('contraption: the ball never starts a tick inside a wall, and stays within the spec\'s bounds', () => {
  const C = contraption;
  const r = new core.Rng(20261207);
  for (let level = 1; level <= C.levels; level++) {
    for (let seed = 0; seed < 12; seed++) {
      const lv = C.generate(1, level, seed);
      const walls = [[-8, -8, 0, 148], [100, -8, 108, 148], [-8, -8, 108, 0], ...lv.walls].map((w) => w.map((v) => v * 256));
      for (let k = 0; k < 4; k++) {
        const st = C.start(lv);
        if (k === 0) for (const m of lv.plan) C.apply(st, m);
        else for (let i = 0; i < 200; i++) C.apply(st, { part: r.below(2), x: r.below(101), y: r.below(141), angle: r.below(2801) - 1400 });
        const t = C.trace(C.fieldOf(lv), C.describeState(st).placed);
        for (const [x, y, vx, vy] of t.ticks) {
          for (const w of walls) assert.ok(!(w[0] <= x && x < w[2] && w[1] <= y && y < w[3]), `${level}/${seed} in a wall`);
          assert.ok(x >= -2048 && x <= 38000 && y >= -2048 && y <= 38000);
          assert.ok(Math.abs(vx) <= 600 && Math.abs(vy) <= 600);
        }
        assert.deepEqual(C.result(st).ticks, t.run.ticks);
      }
    }
  }
});

// ---- Driftlings (games/driftlings/spec.md) -------------------------------------------

const D = driftlings;

test('driftlings spec: the level table, the cap formula and level 15\'s 1,216 ticks of 14 walkers', () => {
  const want = [[16, 1, 1, 5, 4, 4], [20, 1, 2, 5, 4, 4], [20, 2, 2, 6, 5, 4], [24, 2, 2, 6, 5, 4], [24, 2, 3, 8, 6, 4],
    [28, 2, 3, 8, 6, 4], [28, 3, 3, 8, 7, 4], [28, 3, 4, 10, 8, 4], [32, 3, 4, 10, 8, 4], [32, 3, 5, 10, 8, 4],
    [36, 3, 5, 12, 10, 4], [36, 4, 5, 12, 10, 4], [36, 4, 6, 12, 10, 4], [40, 4, 6, 14, 12, 4], [40, 4, 7, 14, 12, 4]];
  assert.equal(D.levels, 15);
  for (let level = 1; level <= 15; level++) {
    const r = D.levelRow(level);
    assert.deepEqual([r.W, r.bands, r.demands, r.crowd, r.quota, r.interval], want[level - 1]);
    const lv = D.generate(1, level, level);
    assert.equal(lv.cap, 6 * r.W * r.bands + r.crowd * r.interval + 200);
  }
  const top = D.generate(1, 15, 0);
  assert.equal(top.cap, 1216);
  assert.equal(top.crowd, 14);
});

test('driftlings spec: the fallback passes every gate for every row, under either version\'s crowd gate', () => {
  for (let level = 1; level <= 15; level++) for (const v of [1, 2]) {
    const row = D.levelRow(level);
    const lv = D.buildLevel(row, D.fallbackDesign(row), v);
    const g = D.gates(lv, row);
    assert.equal(g.gate, null, `level ${level} version ${v}: ${g.gate}`);
    assert.deepEqual(lv.needs, [0, 0, 0, row.bands, 0]);
    assert.equal(g.metrics.critical, 1);
  }
});

test('driftlings: generated levels of seeds 0..39 keep the spec\'s promises', () => {
  for (let level = 1; level <= 15; level++) {
    const row = D.levelRow(level);
    for (let seed = 0; seed < 40; seed++) {
      const lv = D.generate(1, level, seed);
      const d = D.describeLevel(lv);
      const m = lv.metrics;
      const at = `${level}/${seed}`;
      assert.equal(d.width, row.W);
      assert.equal(d.terrain.length, d.height);
      assert.ok(d.height >= 7 + 9 * (row.bands - 1) && d.height <= 7 + 12 * (row.bands - 1), at);
      assert.equal(d.terrain_hash, core.fnv1a32(d.terrain.join('')));
      assert.equal(d.terrain.join('').split('E').length, 2);
      assert.equal(d.terrain.join('').split('X').length, 2);
      assert.equal(m.demands, lv.needs.reduce((a, b) => a + b, 0));
      assert.ok(m.demands >= 1 && m.demands <= row.demands, at);
      assert.equal(m.slack, 0);
      assert.ok(m.critical >= 1);
      assert.equal(m.candidates, 1 + Object.values(m.rejected).reduce((a, b) => a + b, 0));
      assert.ok(m.first_decision_at <= 500);
      assert.ok(d.plan.length <= 96);
      assert.deepEqual(lv.inventory, [lv.needs[0] * lv.crowd, lv.needs[1] * lv.crowd, 0, lv.needs[3], lv.needs[4]]);
      // the solution re-walked with a crowd of one: saved at route_ticks, every band visited
      const w = D.rewalk(lv, lv.needs, lv.solution, m.route_ticks);
      assert.ok(w.ok && w.visited.every((v) => v), at);
      // every accepted plan saves the whole crowd, every move assigned
      const st = D.start(lv);
      for (const mv of lv.plan) assert.equal(D.apply(st, mv), 'assigned');
      const r = D.result(st);
      assert.equal(r.saved, lv.crowd, at);
      assert.equal(r.skills_used, lv.plan.length);
      assert.equal(r.score, 1000000 * r.saved - 1000 * r.skills_used - r.ticks);
      // the solver without a skill it needs finds nothing better: the first search is minimal in skills
      assert.equal(lv.solution.length, m.demands, at);
    }
  }
});

test('driftlings: the state hash is FNV-1a over the terrain bytes and six bytes a walker', () => {
  const lv = D.generate(1, 3, 5);
  const st = D.start(lv);
  for (const mv of lv.plan.slice(0, 3)) D.apply(st, mv);
  const bytes = [...st.T];
  for (const w of st.walkers) bytes.push(w.x, w.y, w.dir === 1 ? 1 : 255, w.act, w.traits, w.fall);
  assert.ok(st.walkers.length > 1);
  assert.equal(D.describeState(st).hash, core.fnv1a32(Uint8Array.from(bytes)));
  assert.equal(D.describeState(D.start(lv)).hash, core.fnv1a32(lv.terrain));
});

test('driftlings: only versions 1 and 2 and levels 1..15 generate; malformed moves are refused', () => {
  assert.throws(() => D.generate(3, 1, 0), RangeError);
  assert.throws(() => D.generate(0, 1, 0), RangeError);
  assert.throws(() => D.generate(1, 0, 0), RangeError);
  assert.throws(() => D.generate(1, 16, 0), RangeError);
  assert.throws(() => D.generate(1, 1, 2 ** 32), RangeError);
  const st = D.start(D.generate(1, 1, 0));
  for (const m of [{ tick: 1, walker: 32, skill: 0 }, { tick: 1, walker: -1, skill: 0 }, { tick: 1, walker: 0, skill: 5 },
    { tick: -1, walker: 0, skill: 0 }, { tick: 1.5, walker: 0, skill: 0 }, { tick: 1, walker: 0 }, null]) {
    assert.throws(() => D.apply(st, m), TypeError);
  }
  assert.equal(D.apply(st, { tick: 1, walker: 31, skill: 4 }), 'no_such_walker');
});

test('driftlings: the result runs on from the last move without changing the shown state', () => {
  const lv = D.generate(1, 5, 3);
  const st = D.start(lv);
  D.apply(st, lv.plan[0]);
  const before = D.describeState(st);
  const r1 = D.result(st);
  assert.deepEqual(D.describeState(st), before);
  assert.deepEqual(D.result(st), r1);
  assert.equal(r1.duration_ms, 25 * lv.plan[0].tick);
});

test('driftlings spec: the node cap holds at most PUSH_CAP nodes, the root the first; a goal held at the cap is kept', () => {
  assert.equal(D.PUSH_CAP, 65536);
  assert.equal(D.STORE_CAP, 262144);
  assert.equal(D.AFTER_GOAL, 2000);
  const lv = D.generate(1, 5, 3);
  const full = D.solve(lv, lv.needs, true);
  const first = D.solve(lv, lv.needs, false);
  assert.equal(full.status, 'solved');
  assert.equal(full.capped, false);
  const P = full.pushed; // every node the uncapped search pushed, the root included
  const G = first.pushed; // pushed when the first goal is closed (the searches agree up to there)
  assert.ok(G > 1 && G < P, `${G} ${P}`);
  // a cap of exactly P is never hit: the search never tries a (P+1)th push
  const atP = D.solve(lv, lv.needs, true, P);
  assert.equal(atP.capped, false);
  assert.deepEqual(atP, full);
  // one less: the Pth push is refused, the search holds P-1 nodes and keeps its goal
  const under = D.solve(lv, lv.needs, true, P - 1);
  assert.equal(under.capped, true);
  assert.equal(under.pushed, P - 1);
  assert.equal(under.status, 'solved');
  assert.deepEqual(under.moves, full.moves);
  assert.equal(under.route_ticks, full.route_ticks);
  // capped right after the goal is found: still solved, with the first search's solution
  const atG = D.solve(lv, lv.needs, true, G);
  assert.equal(atG.capped, true);
  assert.equal(atG.pushed, G);
  assert.equal(atG.status, 'solved');
  assert.deepEqual(atG.moves, first.moves);
  assert.ok(atG.alternatives >= 1 && atG.alternatives <= full.alternatives);
  // capped before the goal: "capped", not a proof either way
  const beforeG = D.solve(lv, lv.needs, true, G - 1);
  assert.equal(beforeG.status, 'capped');
  assert.equal(beforeG.pushed, G - 1);
  assert.deepEqual(beforeG.moves, []);
  // a cap of 1 holds only the root: its first child stops the search unpushed
  const root = D.solve(lv, lv.needs, true, 1);
  assert.equal(root.status, 'capped');
  assert.equal(root.pushed, 1);
  assert.equal(root.expansions, 1);
  for (const bad of [0, D.PUSH_CAP + 1, 1.5]) assert.throws(() => D.solve(lv, lv.needs, true, bad), RangeError);
});

test('driftlings spec: the 2000 expansions after the goal do not count its own; ticks decode in 0..2^31-1', () => {
  // level 13 seed 81 is the accepted candidate that reaches the rule (docs/PORTING.md 37):
  // it stops at the pop after 2000 expansions past the goal's own, 7903 in all (7902 if the goal counted)
  const lv = D.generate(1, 13, 81);
  const full = D.solve(lv, lv.needs, true);
  assert.equal(full.status, 'solved');
  assert.equal(full.afterGoal, D.AFTER_GOAL);
  assert.equal(full.expansions, 7903);
  assert.equal(lv.metrics.expansions, 7903);
  const st = D.start(lv);
  assert.equal(D.apply(st, { tick: 2 ** 31 - 1, walker: 0, skill: 0 }), 'after_end');
  for (const tick of [2 ** 31, 2 ** 32, Infinity]) assert.throws(() => D.apply(D.start(lv), { tick, walker: 0, skill: 0 }), TypeError);
});

// ---- the fair-play versions (Schulte 2, Pipes 2, Target Sums 2, Opposites 3, Contraption 2, Driftlings 2) ----

/** Plays `moves` on a fresh state of `lv`; returns [codes (up to the first rejection), result or null]. */
function play(game, lv, moves) {
  const st = game.start(lv);
  const codes = [];
  for (const m of moves) {
    const c = game.apply(st, m);
    codes.push(c);
    if (game.kindOf(c) === 'rejected') return [codes, null];
  }
  return [codes, game.result(st)];
}

test('every game: fieldsOf(v) for every version, `fields` the current version\'s, unknown versions refused', () => {
  for (const game of [schulte, pipes, targetSums, opposites, contraption, driftlings]) {
    assert.equal(game.version, Math.max(...game.versions));
    assert.deepEqual(game.fields, game.fieldsOf(game.version));
    for (const v of game.versions) assert.ok(Array.isArray(game.fieldsOf(v)));
    assert.throws(() => game.fieldsOf(game.version + 1), RangeError);
    assert.throws(() => game.generate(game.version + 1, 1, 0), RangeError);
  }
});

test('schulte spec 2: the finish floors by side, and the level 15 figures (2653; version 1: 2751)', () => {
  const want = { 1: 1800, 3: 3200, 7: 4800, 5: 5000, 10: 7500, 8: 7200, 13: 10800, 11: 9800, 14: 14700, 15: 14700 };
  for (const [level, floor] of Object.entries(want)) {
    const d = schulte.describeLevel(schulte.generate(2, Number(level), 7));
    assert.equal(d.finish_floor_ms, floor, `level ${level}`);
    assert.equal(d.gap_same_ms, 100);
    assert.equal(d.gap_other_ms, 150);
  }
  assert.ok(!('finish_floor_ms' in schulte.describeLevel(schulte.generate(1, 1, 7))));
  // the fastest legal completion of level 15: 48 taps at the other-cell gap, the last at 14,700
  const lv = schulte.generate(2, 15, 0);
  const st = schulte.start(lv);
  let t = 0;
  while (st.found < lv.n - 1) {
    t += 150;
    assert.equal(schulte.apply(st, { t, cell: st.grid.indexOf(st.expected) }), 'found');
  }
  const last = st.grid.indexOf(st.expected);
  const probe = { ...st, grid: st.grid.slice(), rng: new core.Rng(st.rng.state) };
  assert.equal(schulte.apply(probe, { t: 14699, cell: last }), 'finish_below_floor');
  assert.equal(schulte.apply(st, { t: 14700, cell: last }), 'found');
  assert.equal(schulte.result(st).score, 2653);
  // version 1: 49 taps 100 ms apart
  const lv1 = schulte.generate(1, 15, 0);
  const st1 = schulte.start(lv1);
  for (let k = 1; k <= 49; k++) schulte.apply(st1, { t: 100 * k, cell: st1.grid.indexOf(st1.expected) });
  assert.equal(schulte.result(st1).score, 2751);
});

test('schulte 2: with one number left an already-found tap is ignored (rule 5) and the last find checks the floor (rule 9)', () => {
  const lv = schulte.generate(2, 1, 42);
  const moves = [];
  let t = 0;
  const st = schulte.start(lv);
  while (st.found < 8) {
    t += 150;
    const m = { t, cell: st.grid.indexOf(st.expected) };
    moves.push(m);
    schulte.apply(st, m);
  }
  const wrong = st.grid.findIndex((v) => v === 0);
  // with one number left every other cell is found: no mistake is possible, an already-found tap is ignored
  assert.equal(schulte.apply(st, { t: t + 150, cell: wrong }), 'already_found');
  assert.equal(schulte.apply(st, { t: t + 150, cell: st.grid.indexOf(st.expected) }), 'finish_below_floor');
});

test('pipes spec 2: level 1 seed 42 has a floor of 3400; level 15 over seeds 0..39 runs from 11,700 to 16,800 ms', () => {
  const d = pipes.describeLevel(pipes.generate(2, 1, 42));
  assert.equal(d.min_turns, 18);
  assert.equal(d.tiles_to_turn, 8);
  assert.equal(d.finish_floor_ms, 3400);
  const floors = [];
  for (let seed = 0; seed < 40; seed++) {
    const lv = pipes.generate(2, 15, seed);
    assert.equal(lv.finishFloor, 300 * lv.tilesToTurn + 100 * (lv.minTurns - lv.tilesToTurn));
    floors.push([lv.finishFloor, lv.minTurns, lv.tilesToTurn]);
  }
  floors.sort((a, b) => a[0] - b[0]);
  assert.equal(floors[0][0], 11700);
  assert.equal(floors[39][0], 16800);
  // the median of 40: both middle boards have the 13,900 ms floor (one of them min_turns 63 on 38 tiles)
  assert.equal(floors[19][0], 13900);
  assert.equal(floors[20][0], 13900);
  assert.ok(floors.some((f) => f[0] === 13900 && f[1] === 63 && f[2] === 38));
  assert.equal(1000 + Math.floor((300000 - 13900) / 100), 3861);
});

test('target-sums spec 2: level 15 over seeds 0..39 needs 17 to 31 toggles (lower median 24); figures 5680 and 5725', () => {
  const mt = [];
  for (let seed = 0; seed < 40; seed++) mt.push(targetSums.generate(2, 15, seed).minToggles);
  mt.sort((a, b) => a - b);
  assert.equal(mt[0], 17);
  assert.equal(mt[39], 31);
  assert.equal(mt[19], 24); // the 20th of 40 (the upper middle value is 25)
  assert.equal(1000 + Math.floor((480000 - 12000) / 100), 5680);
  assert.equal(1000 + Math.floor((480000 - 7500) / 100), 5725);
});

test('opposites spec 3: bits(), the reaction floors 250/300/350 and the fastest level 15 run (3750; version 2: 4350)', () => {
  assert.deepEqual([0, 1, 3, 7, 11].map(opposites.bits), [0, 1, 2, 3, 4]);
  for (let level = 1; level <= 15; level++) {
    const lv = opposites.generate(3, level, 0);
    assert.equal(lv.minReaction, lv.codes === 4 ? 250 : lv.codes === 8 ? 300 : 350);
    assert.equal(opposites.generate(2, level, 0).minReaction, 150);
  }
  for (const [v, r, pts] of [[3, 350, 3750], [2, 150, 4350]]) {
    const lv = opposites.generate(v, 15, 0);
    const [codes, res] = play(opposites, lv, lv.prompt.map((p, i) => ({ t: lv.appear[i] + r, answer: p ^ 1 })));
    assert.ok(codes.every((c) => c === 'correct'));
    assert.equal(res.score, pts);
  }
  const lv = opposites.generate(3, 15, 0);
  assert.deepEqual(play(opposites, lv, [{ t: lv.appear[0] + 349, answer: 0 }])[0], ['reaction_below_floor']);
  assert.deepEqual(play(opposites, opposites.generate(2, 15, 0), [{ t: lv.appear[0] + 149, answer: 0 }])[0], ['too_fast']);
});

test('contraption spec 2: the plan at t = 1000 on level 15 seed 0 claims 3620 ms; version 1 claims -1', () => {
  const C = contraption;
  const lv = C.generate(2, 15, 0);
  assert.deepEqual(C.describeLevel(lv).plan, [{ part: 0, x: 43, y: 120, angle: 450, t: 1000 }]);
  const [codes, r] = play(C, lv, C.typicalSolution(lv));
  assert.deepEqual(codes, ['placed']);
  assert.equal(r.arrival_tick, 131);
  assert.equal(r.duration_ms, 3620);
  const lv1 = C.generate(1, 15, 0);
  assert.equal(play(C, lv1, C.typicalSolution(lv1))[1].duration_ms, -1);
  // both versions generate the same level; version 2 adds t to the plan and two keys
  for (let level = 1; level <= 15; level++) {
    const a = C.describeLevel(C.generate(1, level, 3));
    const b = C.describeLevel(C.generate(2, level, 3));
    assert.deepEqual(b.plan, a.plan.map((m) => ({ ...m, t: 1000 })));
    assert.deepEqual({ ...b, plan: a.plan, part_gap_ms: undefined, tick_ms: undefined }, { ...a, part_gap_ms: undefined, tick_ms: undefined });
    assert.equal(b.part_gap_ms, 1000);
    assert.equal(b.tick_ms, 20);
  }
});

test('contraption 2: the placement checks come before the time rules; a rejected placement does not move prev_t', () => {
  const C = contraption;
  const lv = C.generate(2, 1, 0);
  const p = lv.plan[0];
  assert.deepEqual(play(C, lv, [{ part: 1, x: 50, y: 50, angle: 0, t: 0 }])[0], ['no_part_left']);
  assert.deepEqual(play(C, lv, [{ part: 0, x: -1, y: 50, angle: 0, t: 0 }])[0], ['out_of_field']);
  assert.deepEqual(play(C, lv, [{ ...p, t: 0 }])[0], ['too_fast']);
  const st = C.start(lv);
  assert.equal(C.apply(st, { ...p, t: 1000 }), 'placed');
  assert.equal(C.apply(st, { ...p, t: 5000 }), 'overlaps_part');
  assert.equal(st.prev_t, 1000);
});

test('driftlings spec 2: level 10 seed 2415085370 and level 9 seed 162 are the seeds the whole-crowd gate changes', () => {
  // version 1's plan for 2415085370: last move at tick 123 (3,075 ms), the world runs on to tick 167
  const a = D.generate(1, 10, 2415085370);
  const [, ra] = play(D, a, a.plan);
  assert.equal(a.metrics.candidates, 1);
  assert.equal(ra.saved, 9);
  assert.equal(ra.duration_ms, 3075);
  assert.equal(ra.ticks, 167);
  const b = D.generate(2, 10, 2415085370);
  const [, rb] = play(D, b, b.plan);
  assert.equal(b.metrics.candidates, 3);
  assert.equal(b.metrics.rejected.crowd, 1);
  assert.equal(rb.saved, 10);
  assert.equal(rb.ticks, 179);
  assert.equal(rb.duration_ms, 25 * 179);
  // over seeds 0..499 of every level, the one seed where the gates differ (a 36 s sweep, run once:
  // 4054 candidates turned down under version 1, 4055 under version 2, no fallback)
  assert.equal(D.generate(1, 9, 162).metrics.candidates, 2);
  const c = D.generate(2, 9, 162);
  assert.equal(c.metrics.candidates, 3);
  assert.equal(c.metrics.rejected.crowd, 1);
});

test('driftlings 2: every accepted plan of seeds 0..19 saves the whole crowd; duration_ms is 25 ms a tick to the end', () => {
  for (let level = 1; level <= 15; level++) {
    for (let seed = 0; seed < 20; seed++) {
      const lv = D.generate(2, level, seed);
      const [codes, r] = play(D, lv, lv.plan);
      assert.ok(codes.every((x) => x === 'assigned'));
      assert.equal(r.saved, lv.crowd, `${level}/${seed}`);
      assert.equal(r.duration_ms, 25 * r.ticks);
      // the same moves under version 1 end the same, with the version 1 duration
      const lv1 = { ...lv, version: 1 };
      const [, r1] = play(D, lv1, lv.plan);
      assert.deepEqual({ ...r1, duration_ms: 0 }, { ...r, duration_ms: 0 });
      assert.equal(r1.duration_ms, 25 * lv.plan[lv.plan.length - 1].tick);
    }
  }
});

test('the floors reject at the edges: the gaps and the finish floor of schulte, pipes and target-sums (version 2)', () => {
  // another cell: 150 counts, 149 is too fast; the same cell: 100 counts, 99 is too fast (version 1: 100 / 50 / 100 for every move)
  const lvS = schulte.generate(2, 1, 42);
  assert.deepEqual(play(schulte, lvS, [{ t: 149, cell: 0 }])[0], ['too_fast']);
  assert.deepEqual(play(schulte, lvS, [{ t: 150, cell: 0 }, { t: 250, cell: 0 }, { t: 399, cell: 1 }])[0], ['mistake', 'mistake', 'too_fast']);
  assert.deepEqual(play(schulte, schulte.generate(1, 1, 42), [{ t: 100, cell: 0 }, { t: 200, cell: 1 }])[0], ['mistake', 'mistake']);
  const lvP = pipes.generate(2, 1, 42);
  assert.deepEqual(play(pipes, lvP, [{ t: 150, cell: 0 }, { t: 250, cell: 0 }, { t: 399, cell: 1 }])[0], ['rotated', 'rotated', 'too_fast']);
  assert.deepEqual(play(pipes, pipes.generate(1, 1, 42), [{ t: 50, cell: 0 }, { t: 100, cell: 1 }])[0], ['rotated', 'rotated']);
  const lvT = targetSums.generate(2, 1, 42);
  assert.deepEqual(play(targetSums, lvT, [{ t: 150, cell: 0 }, { t: 249, cell: 0 }])[0], ['removed', 'too_fast']);
  assert.deepEqual(play(targetSums, lvT, [{ t: 150, cell: 0 }, { t: 250, cell: 0 }, { t: 399, cell: 1 }])[0], ['removed', 'restored', 'too_fast']);
});

// ---- every rule pinned: caps, decoders, generation parameters ----------------------------

import { refusalOf, moveCap } from '../vectors.mjs';

const ALL = { schulte, pipes, 'target-sums': targetSums, opposites, contraption, driftlings };

test('every game: the move caps of the specs, the count checked before any move is decoded', () => {
  const caps = { schulte: 1000, pipes: 2000, 'target-sums': 2000, opposites: 500, contraption: 8, driftlings: 2000 };
  for (const [name, g] of Object.entries(ALL)) {
    for (const v of g.versions) {
      assert.equal(moveCap(g, v), caps[name], name);
      const bad = { nope: 1 };
      assert.equal(refusalOf(g, v, new Array(caps[name] + 1).fill(bad)), 'too_many_moves', name);
      assert.equal(refusalOf(g, v, new Array(caps[name]).fill(bad)), 'bad_moves', name);
      assert.equal(refusalOf(g, v, []), null, name);
    }
  }
});

test('every game: a move with a field missing, extra, not an integer or out of range is malformed', () => {
  const good = {
    schulte: { t: 0, cell: 0 }, pipes: { t: 0, cell: 0 }, 'target-sums': { t: 0, cell: 0 },
    opposites: { t: 0, answer: 255 }, contraption: { part: 0, x: 0, y: 0, angle: 0, t: 0 },
    driftlings: { tick: 0, walker: 31, skill: 4 },
  };
  for (const [name, g] of Object.entries(ALL)) {
    const v = g.version;
    const m = good[name];
    assert.ok(g.validMove(m, v), name);
    assert.ok(!g.validMove({ ...m, extra: 0 }, v), `${name} extra`);
    for (const k of Object.keys(m)) {
      const { [k]: _, ...rest } = m;
      assert.ok(!g.validMove(rest, v), `${name} without ${k}`);
      assert.ok(!g.validMove({ ...m, [k]: 0.5 }, v), `${name} ${k} 0.5`);
      assert.ok(!g.validMove({ ...m, [k]: String(m[k]) }, v), `${name} ${k} as text`);
      assert.ok(!g.validMove({ ...m, [k]: -100001 }, v), `${name} ${k} below`);
      assert.ok(!g.validMove({ ...m, [k]: 2 ** 31 }, v), `${name} ${k} above`);
    }
    assert.ok(!g.validMove(null, v) && !g.validMove([0, 0], v), name);
  }
});

test('every game: generation refuses bad_version, bad_level and bad_params (names and ranges)', () => {
  for (const [name, g] of Object.entries(ALL)) {
    const code = (f) => {
      try {
        f();
      } catch (e) {
        return e.code;
      }
      return null;
    };
    assert.equal(code(() => g.generate(0, 1, 0)), 'bad_version', name);
    assert.equal(code(() => g.generate(Math.max(...g.versions) + 1, 1, 0)), 'bad_version', name);
    assert.equal(code(() => g.generate(g.version, 0, 0)), 'bad_level', name);
    assert.equal(code(() => g.generate(g.version, 16, 0)), 'bad_level', name);
    assert.equal(code(() => g.generate(g.version, 1, 0, { no_such_parameter: 1 })), 'bad_params', name);
    for (const [k, { min, max }] of Object.entries(g.PARAMS)) {
      assert.equal(code(() => g.generate(g.version, 1, 0, { [k]: min - 1 })), 'bad_params', `${name} ${k}`);
      assert.equal(code(() => g.generate(g.version, 1, 0, { [k]: max + 1 })), 'bad_params', `${name} ${k}`);
      assert.equal(code(() => g.generate(g.version, 1, 0, { [k]: 1.5 })), 'bad_params', `${name} ${k}`);
    }
  }
});

test('every game: the parameters at their defaults give the server\'s level', () => {
  for (const [name, g] of Object.entries(ALL)) {
    if (name === 'driftlings') continue; // below, on fewer levels (its generation is slow)
    for (const level of [1, 8, 15]) {
      const defs = Object.fromEntries(Object.entries(g.PARAMS).map(([k, p]) => [k, p.def]));
      assert.deepEqual(g.describeLevel(g.generate(g.version, level, 7, defs)), g.describeLevel(g.generate(g.version, level, 7)), name);
    }
  }
  const row = driftlings.levelRow(3);
  const P = driftlings.paramsOf(row);
  assert.equal(P.shortcut_bands, row.bands);
  assert.equal(P.thin_demands, row.demands);
  assert.deepEqual(driftlings.describeLevel(driftlings.generate(2, 3, 7, P)), driftlings.describeLevel(driftlings.generate(2, 3, 7)));
});
