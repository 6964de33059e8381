// The peer corpus of docs/BENCH.md: per game, every level 1..15 x seeds 0..39,
// generated at the game's current version (Schulte, Pipes, Target Sums, Contraption and Driftlings 2; Opposites 3).
// Contraption's replay is its plan (one placement) and the one simulation (in `result`);
// Driftlings' is its crowd plan, then the crowd simulation to its end (in `result`).
// Prints one JSON line per game:
//   {"game":"schulte","gen_ns":<median ns per generated level>,"replay_ns":<median ns per replay>,"levels":<count>}
//   node vectors/port/bench.mjs [--passes N] [--warmup N]
import * as schulte from './games/schulte.mjs';
import * as pipes from './games/pipes.mjs';
import * as targetSums from './games/target-sums.mjs';
import * as opposites from './games/opposites.mjs';
import * as contraption from './games/contraption.mjs';
import * as driftlings from './games/driftlings.mjs';

const args = process.argv.slice(2);
const opt = (flag, dflt) => {
  const i = args.indexOf(flag);
  return i >= 0 ? Math.max(1, Number(args[i + 1])) : dflt;
};
const PASSES = opt('--passes', 7);
const WARMUP = opt('--warmup', 2);
const SEEDS = 40;

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

let sink = 0; // keeps the work observable

function corpus(game) {
  const list = [];
  for (let level = 1; level <= game.levels; level++) {
    for (let seed = 0; seed < SEEDS; seed++) list.push([level, seed]);
  }
  return list;
}

function genPass(game, list) {
  const t0 = process.hrtime.bigint();
  for (const [level, seed] of list) {
    const lv = game.generate(game.version, level, seed);
    sink ^= lv.seed;
  }
  return Number(process.hrtime.bigint() - t0) / list.length;
}

function replayPass(game, prepared) {
  const t0 = process.hrtime.bigint();
  for (const [lv, moves] of prepared) {
    const st = game.start(lv);
    for (let i = 0; i < moves.length; i++) game.apply(st, moves[i]);
    sink ^= game.result(st).score;
  }
  return Number(process.hrtime.bigint() - t0) / prepared.length;
}

for (const game of [schulte, pipes, targetSums, opposites, contraption, driftlings]) {
  const list = corpus(game);
  // The move lists are built once, outside the timed loop (and so are the levels).
  const prepared = list.map(([level, seed]) => {
    const lv = game.generate(game.version, level, seed);
    return [lv, game.typicalSolution(lv)];
  });
  for (const [lv, moves] of prepared) {
    const st = game.start(lv);
    for (const m of moves) game.apply(st, m);
    // (a Contraption fallback level has an empty plan and no typical solution: never in the corpus)
    if (!game.result(st).completed && !(game.name === 'contraption' && lv.fallback)) throw new Error(`${game.name} level ${lv.level} seed ${lv.seed}: the typical solution does not complete`);
  }
  for (let i = 0; i < WARMUP; i++) {
    genPass(game, list);
    replayPass(game, prepared);
  }
  const gen = [];
  const rep = [];
  for (let i = 0; i < PASSES; i++) {
    gen.push(genPass(game, list));
    rep.push(replayPass(game, prepared));
  }
  console.log(JSON.stringify({
    game: game.name,
    gen_ns: Math.round(median(gen)),
    replay_ns: Math.round(median(rep)),
    levels: list.length,
  }));
}
if (sink === 0.5) console.log(sink);
