// The peer corpus of docs/BENCH.md through the WebAssembly build
// (build/wasm/replay.wasm) under Node: per game, levels 1..15 x seeds 0..39 at
// the current version, ns per generated level and per replay of the typical
// full solution (the port's typicalSolution, turned into field values before
// timing), median of the passes. Calls the ABI directly (rp_generate into one
// scratch buffer; rp_start, rp_apply per move, rp_result_get), so JSON plays
// no part. One JSON line per game, the shape of bench_peer and bench.mjs.
//   node tests/bench/bench_wasm.mjs [WASM] [--passes N] [--warmup N]
import { load } from '../../wasm/replay.mjs';
import { GAMES } from '../../vectors/port/vectors.mjs';

const args = process.argv.slice(2);
const opt = (flag, dflt) => {
  const i = args.indexOf(flag);
  return i >= 0 ? Math.max(1, Number(args[i + 1])) : dflt;
};
const PASSES = opt('--passes', 7);
const WARMUP = opt('--warmup', 2);
const SEEDS = 40;
const wasmPath = args.find((a) => a.endsWith('.wasm')) || new URL('../../build/wasm/replay.wasm', import.meta.url).pathname;
const rp = await load(wasmPath);
const x = rp.x;

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
let sink = 0;

for (const g of rp.games()) {
  const port = GAMES[g.name];
  if (!port) continue;
  const list = [];
  for (let level = 1; level <= g.levels; level++) for (let seed = 0; seed < SEEDS; seed++) list.push([level, seed]);
  const scratch = rp.alloc(g.levelSize);
  const out = rp.alloc(16);
  const resultBuf = rp.alloc(128);
  const fields = g.fieldsOf(g.version);
  // Levels and move values are prepared once, outside the timed loops.
  const prepared = list.map(([level, seed]) => {
    const lv = g.generate(g.version, level, seed);
    const moves = port.typicalSolution(port.generate(g.version, level, seed));
    const vals = rp.alloc(4 * fields.length * Math.max(1, moves.length));
    const view = new Int32Array(x.memory.buffer, vals, fields.length * moves.length);
    moves.forEach((m, i) => fields.forEach((f, k) => { view[i * fields.length + k] = m[f]; }));
    return { lv, vals, n: moves.length, state: rp.alloc(g.stateSize) };
  });
  const genPass = () => {
    const t0 = process.hrtime.bigint();
    for (const [level, seed] of list) {
      if (x.rp_generate(g.ptr, scratch, g.levelSize, g.version, level, seed, out) !== 0) throw new Error('rp_generate');
    }
    return Number(process.hrtime.bigint() - t0) / list.length;
  };
  const nf = fields.length;
  const replayPass = () => {
    const t0 = process.hrtime.bigint();
    for (const c of prepared) {
      x.rp_start(c.lv.ptr, c.state, g.stateSize, out);
      for (let i = 0; i < c.n; i++) x.rp_apply(c.state, c.vals + 4 * nf * i, nf);
      x.rp_result_get(c.state, resultBuf);
      sink ^= new Int32Array(x.memory.buffer, resultBuf, 8)[4];
    }
    return Number(process.hrtime.bigint() - t0) / prepared.length;
  };
  for (let i = 0; i < WARMUP; i++) {
    genPass();
    replayPass();
  }
  const gen = [];
  const rep = [];
  for (let i = 0; i < PASSES; i++) {
    gen.push(genPass());
    rep.push(replayPass());
  }
  console.log(JSON.stringify({ game: g.name, gen_ns: Math.round(median(gen)), replay_ns: Math.round(median(rep)), levels: list.length }));
}
if (sink === 0.5) console.log(sink);
