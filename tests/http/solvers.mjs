// solvers: the harness's blocking helpers that spawn bin/replayd (gen,
// replay) and the solvers built on them, in a module of their own that
// imports nothing heavy: harness.mjs re-exports them, and offloop_worker
// loads only this (a worker that loaded the harness would parse and
// compile the whole OpenAPI document first: seconds each under load, and
// twenty of them at once stretched a flood's runs past a minute).
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = process.env.REPLAYD || join(root, 'bin', 'replayd');

export function gen(game, level, seedValue, version) {
  const args = ['gen', game, String(level), String(seedValue)];
  if (version) args.push('--version', String(version));
  return JSON.parse(execFileSync(BIN, args, { encoding: 'utf8' }));
}

export function replayCli(game, level, seedValue, moves, version) {
  const args = ['replay', game, String(level), String(seedValue)];
  if (version) args.push('--version', String(version));
  return JSON.parse(execFileSync(BIN, args, { input: JSON.stringify({ moves }), encoding: 'utf8' }));
}

// Schulte: tap each number where it is now (reshuffles move them), gap ms
// apart. The default gap is a pace every version accepts: from version 2 the
// finish floor over the N numbers (gen's finish_floor_ms: 200 or 300 ms).
export function solveSchulte(level, seedValue, gap, version) {
  const moves = [];
  let t = 0;
  const g = gen('schulte', level, seedValue, version);
  gap ??= schulteGap(g);
  if (!g.reshuffle) return schulteInOrder(g, gap);
  for (;;) {
    const out = replayCli('schulte', level, seedValue, moves, version);
    if (out.completed || out.rejected || out.board.next === 0) return moves; // a pace the floors refuse stops here
    const grid = out.board.grid.flat();
    t += gap;
    moves.push({ t, cell: grid.indexOf(out.board.next) });
  }
}

// Pipes: turn each tile the fewest times from start to solution, gap ms
// apart. The default gap is a pace every version accepts: from version 2,
// 300 ms a turn meets the gaps and the finish floor.
export function solvePipes(level, seedValue, gap, version) {
  const g = gen('pipes', level, seedValue, version);
  gap ??= g.finish_floor_ms ? 300 : 55;
  const start = g.start.flat(), solution = g.solution.flat();
  const rot = (m) => ((m << 1) | (m >> 3)) & 15;
  const moves = [];
  let t = 0;
  start.forEach((m, cell) => {
    let k = 0;
    while (m !== solution[cell]) { m = rot(m); k++; }
    for (let i = 0; i < k; i++) { t += gap; moves.push({ t, cell }); }
  });
  return moves;
}

// A Schulte level without reshuffles, from its gen output: each number's
// cell in order, gap ms apart (the default gap as solveSchulte's).
export const schulteGap = (g) => (g.finish_floor_ms ? Math.ceil(g.finish_floor_ms / g.grid.flat().length) : 110);
export function schulteInOrder(g, gap) {
  const grid = g.grid.flat();
  const order = grid.map((_, i) => (g.order === 'up' ? i + 1 : grid.length - i));
  return order.map((n, i) => ({ t: gap * (i + 1), cell: grid.indexOf(n) }));
}

export function solve(game, level, seedValue, version) {
  if (game === 'schulte') return solveSchulte(level, seedValue, undefined, version);
  if (game === 'pipes') return solvePipes(level, seedValue, undefined, version);
  const g = gen(game, level, seedValue, version);
  // 400 ms clears every version's reaction floor (version 3: up to 350 ms).
  if (game === 'opposites') return g.answers.map((answer, i) => ({ t: g.appear_ms[i] + 400, answer }));
  if (game === 'target-sums') {
    const cells = g.solution.flat().map((keep, cell) => (keep ? -1 : cell)).filter((c) => c >= 0);
    const pace = g.finish_floor_ms ? 500 : 150; // version 2: 500 ms a needed toggle
    return cells.map((cell, i) => ({ t: pace * (i + 1), cell }));
  }
  if (Array.isArray(g.plan)) return g.plan;
  throw new Error(`no solver for ${game} in the harness`);
}


// The daily of a date by the public schedule (`replayd daily`).
export const dailyOf = (date) => JSON.parse(execFileSync(BIN, ['daily', date], { encoding: 'utf8' }));

// The first Contraption day of era 2.
export function contraptionDay() {
  const start = Date.parse('2026-12-07T00:00:00Z');
  for (let k = 0; k < 10; k++) {
    const date = new Date(start + k * 86400000).toISOString().slice(0, 10);
    if (dailyOf(date).game === 'contraption') return date;
  }
  throw new Error('no Contraption day in era 2');
}
