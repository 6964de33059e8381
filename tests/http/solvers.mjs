// solvers: the harness's helpers that run bin/replayd (gen, replay, daily)
// and the solvers built on them, in a module of their own that imports
// nothing heavy (harness.mjs re-exports them). Every one is asynchronous
// (a promise): the binary runs as a child, two at a time per test process
// (proc.mjs pooled), while the test's event loop goes on. What only
// depends on its arguments (gen, solve, the daily of a date) is computed
// once per process; each caller gets its own copy.
import { runOk, pooled } from './proc.mjs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = process.env.REPLAYD || join(root, 'bin', 'replayd');

// bin/replayd with args (and input), in a pool slot: its JSON answer.
const binJson = (args, input) => pooled(() => runOk(BIN, args, { input })).then((out) => JSON.parse(out));

// once(key, compute): compute() the first time a key is asked, the same
// answer's copy after (a failure is not kept).
const known = new Map();
async function once(key, compute) {
  if (!known.has(key)) known.set(key, compute().catch((e) => { known.delete(key); throw e; }));
  return structuredClone(await known.get(key));
}

export function gen(game, level, seedValue, version) {
  const args = ['gen', game, String(level), String(seedValue)];
  if (version) args.push('--version', String(version));
  return once(JSON.stringify(args), () => binJson(args));
}

export function replayCli(game, level, seedValue, moves, version) {
  const args = ['replay', game, String(level), String(seedValue)];
  if (version) args.push('--version', String(version));
  return binJson(args, JSON.stringify({ moves }));
}

// Schulte: tap each number where it is now (reshuffles move them), gap ms
// apart. The default gap is a pace every version accepts: from version 2 the
// finish floor over the N numbers (gen's finish_floor_ms: 200 or 300 ms).
export async function solveSchulte(level, seedValue, gap, version) {
  const moves = [];
  let t = 0;
  const g = await gen('schulte', level, seedValue, version);
  gap ??= schulteGap(g);
  if (!g.reshuffle) return schulteInOrder(g, gap);
  for (;;) {
    const out = await replayCli('schulte', level, seedValue, moves, version);
    if (out.completed || out.rejected || out.board.next === 0) return moves; // a pace the floors refuse stops here
    const grid = out.board.grid.flat();
    t += gap;
    moves.push({ t, cell: grid.indexOf(out.board.next) });
  }
}

// Pipes: turn each tile the fewest times from start to solution, gap ms
// apart. The default gap is a pace every version accepts: from version 2,
// 300 ms a turn meets the gaps and the finish floor.
export async function solvePipes(level, seedValue, gap, version) {
  const g = await gen('pipes', level, seedValue, version);
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

// A winning run of any game at a pace every version accepts.
export function solve(game, level, seedValue, version) {
  return once(JSON.stringify(['solve', game, level, String(seedValue), version ?? null]),
    () => solveOnce(game, level, seedValue, version));
}

async function solveOnce(game, level, seedValue, version) {
  if (game === 'schulte') return solveSchulte(level, seedValue, undefined, version);
  if (game === 'pipes') return solvePipes(level, seedValue, undefined, version);
  const g = await gen(game, level, seedValue, version);
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


// The daily of a date by the public schedule (`replayd daily`), or the
// daily of one game on that date.
export function dailyOf(date, game) {
  const args = ['daily', date, ...(game ? ['--game', game] : [])];
  return once(JSON.stringify(args), () => binJson(args));
}

// The first Contraption day of era 2.
export async function contraptionDay() {
  const start = Date.parse('2026-12-07T00:00:00Z');
  for (let k = 0; k < 10; k++) {
    const date = new Date(start + k * 86400000).toISOString().slice(0, 10);
    if ((await dailyOf(date)).game === 'contraption') return date;
  }
  throw new Error('no Contraption day in era 2');
}
