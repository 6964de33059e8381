// The vector sections beyond levels and replays, checked through
// replay-test.wasm (wasm/sections.c): vectors/prng.json through the ABI's core
// functions, Contraption's trig / traces / daily and Driftlings' traces
// through the test-only exports. Each check throws on a difference; the
// rules are those of tests/unit/test_vectors.c.
import { isDeepStrictEqual } from 'node:util';

function eq(what, got, want) {
  if (!isDeepStrictEqual(got, want)) throw new Error(`${what}: got ${JSON.stringify(got)?.slice(0, 200)}, want ${JSON.stringify(want)?.slice(0, 200)}`);
}

export const PRNG = {
  mulberry32: (rp, c) => eq('first', rp.rngFirst(c.seed, c.first.length), c.first),
  below: (rp, c) => eq('first', rp.rngBelow(c.seed, c.n, c.first.length), c.first),
  // Positions are shuffled, so values of any size (and repeats) work.
  shuffle: (rp, c) => eq('output', rp.shuffle(c.seed, c.input.map((_, i) => i)).map((i) => c.input[i]), c.output),
  fnv1a32: (rp, c) => eq('hash', rp.fnv1a32(c.text), c.hash),
  days: (rp, c) => {
    eq('day', rp.dayNumber(c.date), c.day);
    eq('date of day', rp.dateOfDay(c.day), c.date);
  },
  daily: (rp, c) => {
    const d = rp.daily(c.date);
    if (!d) throw new Error(`no daily for ${c.date}`);
    for (const k of ['game', 'level', 'seed', 'schedule']) if (k in c) eq(k, d[k], c[k]);
  },
};

function ints(rp, n) {
  const p = rp.alloc(4 * n);
  return { p, view: () => new Int32Array(rp.x.memory.buffer, p, n), free: () => rp.x.rp_wasm_free(p) };
}

export const CONTRAPTION = {
  trig(rp, c) {
    const b = ints(rp, 2);
    rp.x.rp_x_ct_trig(c.mrad, b.p);
    const [sin, cos] = b.view();
    b.free();
    eq('trig', { sin, cos }, { sin: c.sin, cos: c.cos });
  },
  daily(rp, c) {
    const [y, m, d] = c.date.split('-').map(Number);
    eq('seed', rp.x.rp_x_ct_daily_seed(y, m, d) >>> 0, c.seed);
    eq('fnv1a32(text)', rp.fnv1a32(c.text), c.seed);
  },
  traces(rp, c) {
    const f = c.field;
    const words = [...f.ball, ...f.goal, f.walls.length, ...f.walls.flat(), c.moves.length,
      ...c.moves.flatMap((m) => [m.part, m.x, m.y, m.angle])];
    const inb = ints(rp, words.length);
    const ticks = ints(rp, 4 * 600);
    const run = ints(rp, 4);
    try {
      inb.view().set(words);
      const n = rp.x.rp_x_ct_trace(inb.p, ticks.p, run.p);
      if (n < 0) throw new Error('the field does not fit');
      const [reached, arrival_tick, nt, end] = run.view();
      const want = c.run;
      eq('run', { reached: reached === 1, arrival_tick, ticks: nt, end },
        { reached: want.reached, arrival_tick: want.arrival_tick, ticks: want.ticks, end: want.end });
      eq('ticks.length', nt, c.ticks.length);
      const t = ticks.view();
      for (let i = 0; i < nt; i++) eq(`tick ${i + 1}`, [...t.subarray(4 * i, 4 * i + 4)], c.ticks[i]);
    } finally {
      inb.free();
      ticks.free();
      run.free();
    }
  },
};

const SKILLS = ['climber', 'floater', 'blocker', 'basher', 'digger'];
const RECORD = 1 + 6 * 32;

export const DRIFTLINGS = {
  traces(rp, c) {
    const g = rp.game('driftlings');
    const rowBytes = new TextEncoder().encode(c.rows.map((r) => `${r}\0`).join(''));
    const words = [c.rows.length, c.crowd, c.quota, c.interval, c.cap, ...SKILLS.map((s) => c.inventory[s] ?? 0),
      c.version ?? 0, c.moves.length, c.ticks.length, ...c.moves.flatMap((m) => [m.tick, m.walker, m.skill]),
      ...c.ticks.map((t) => t.tick)];
    const rows = rp.alloc(rowBytes.length + 1);
    const inb = ints(rp, words.length);
    const out = ints(rp, 16 + c.moves.length + RECORD * c.ticks.length);
    const terrain = rp.alloc(128 * 64);
    try {
      new Uint8Array(rp.x.memory.buffer, rows, rowBytes.length).set(rowBytes);
      inb.view().set(words);
      if (rp.x.rp_x_dl_trace(rows, inb.p, out.p, terrain) !== 0) throw new Error('the rows do not make a level');
      const o = out.view();
      const outcomes = [...o.subarray(16, 16 + o[0])].map((i) => g.outcomes[i].code);
      eq('outcomes', outcomes, c.outcomes);
      for (let k = 0; k < o[2]; k++) {
        const r = o.subarray(16 + c.moves.length + RECORD * k);
        const walkers = [];
        for (let i = 0; i < r[0]; i++) walkers.push([...r.subarray(1 + 6 * i, 7 + 6 * i)]);
        eq(`tick ${c.ticks[k].tick}`, walkers, c.ticks[k].walkers);
      }
      const rejected = o[1] >= 0 ? { move: o[1], reason: outcomes[o[1]] } : null;
      if ('rejected' in c) {
        eq('rejected', rejected, c.rejected);
        return;
      }
      if (rejected) throw new Error(`move ${rejected.move} was rejected (${rejected.reason})`);
      if (o[2] !== c.ticks.length) throw new Error('not every listed tick was reached');
      const result = { completed: o[3] === 1, score: o[4], duration_ms: o[5] };
      g.extras.forEach((name, i) => { result[name] = o[6 + i]; });
      for (const k of Object.keys(c.result)) eq(`result.${k}`, result[k], c.result[k]);
      if ('terrain_after' in c) {
        const w = o[12];
        const bytes = new Uint8Array(rp.x.memory.buffer, terrain, w * o[13]);
        const got = [];
        for (let y = 0; y < o[13]; y++) got.push(new TextDecoder().decode(bytes.subarray(y * w, y * w + w)));
        eq('terrain_after', got, c.terrain_after);
      }
    } finally {
      rp.x.rp_wasm_free(rows);
      inb.free();
      out.free();
      rp.x.rp_wasm_free(terrain);
    }
  },
};

export const GAME_SECTIONS = { contraption: CONTRAPTION, driftlings: DRIFTLINGS };
