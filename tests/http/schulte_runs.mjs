// Scripted and person-like runs on a fixed Schulte level (no reshuffle),
// shared by the fair-play tests (review, admin_filters, fairplay_signals)
// and the operator console's browser test. Pure: moves from (level, seed)
// through bin/replayd gen (harness gen, a promise); no server calls. Each
// of order, bot and human is a promise.
import assert from 'node:assert/strict';
import { gen } from './harness.mjs';

// The cells of a fixed Schulte level in the order they must be found, and
// the generated level (its floors).
export async function order(level, seedValue) {
  const g = await gen('schulte', level, seedValue);
  assert.equal(g.reshuffle, false, `schulte level ${level} reshuffles: its cells move`);
  const grid = g.grid.flat();
  const numbers = grid.map((_, i) => (g.order === 'up' ? i + 1 : grid.length - i));
  return { g, cells: numbers.map((n) => grid.indexOf(n)) };
}

// A script: every tap at the 150 ms gap floor, the last one held back to
// exactly the finish floor (the earliest the level may complete).
export async function bot(level, seedValue) {
  const { g, cells } = await order(level, seedValue);
  return cells.map((cell, i) => ({ t: i === cells.length - 1 ? g.finish_floor_ms : 150 * (i + 1), cell }));
}

// A person: 450-1100 ms between taps at millisecond resolution (rand():
// [0, 1)), and a tap on the last number far too early before the cells
// at the given indexes (mistakes: applied moves beyond the minimum work).
export async function human(level, seedValue, rand, mistakesBefore = [1, 4]) {
  const { cells } = await order(level, seedValue);
  const moves = [];
  let t = 0;
  const tap = (cell) => { t += 450 + Math.floor(rand() * 650); moves.push({ t, cell }); };
  cells.forEach((cell, i) => {
    if (mistakesBefore.includes(i)) tap(cells[cells.length - 1]);
    tap(cell);
  });
  return moves;
}

// A linear congruential generator: a repeatable rand() in [0, 1) from a seed.
export function lcg(seedValue) {
  let x = seedValue >>> 0;
  return () => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x / 2 ** 32; };
}
