// Writes the `generated:` cases of vectors/prng.json, vectors/schulte.json,
// vectors/pipes.json, vectors/target-sums.json, vectors/opposites.json and
// vectors/contraption.json and vectors/driftlings.json from this port. Every `hand:` case is kept as it is (and
// first); every previous `generated:` case is replaced. Deterministic: all
// random choices come from the core's own mulberry32 with fixed seeds.
//   node vectors/port/generate.mjs           (rewrite the files)
//   node vectors/port/generate.mjs --check   (write nothing; exit 1 if a file is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as core from './core.mjs';
import { Rng, fnv1a32 } from './core.mjs';
import * as schulte from './games/schulte.mjs';
import * as pipes from './games/pipes.mjs';
import * as targetSums from './games/target-sums.mjs';
import * as opposites from './games/opposites.mjs';
import * as contraption from './games/contraption.mjs';
import * as driftlings from './games/driftlings.mjs';
import { replay, PRNG_SECTIONS } from './vectors.mjs';
import * as sealed from './sealed.mjs';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..');
const G = 'generated: ';
const streamFor = (label) => new Rng(fnv1a32(`port-generate:${label}`));

// ---- file handling ----------------------------------------------------------

function load(file) {
  return JSON.parse(readFileSync(join(VECTORS, file), 'utf8'));
}

function keepHand(list) {
  return (list || []).filter((c) => !String(c.name).startsWith('generated:'));
}

// --check: write nothing; exit 1 if any file would change.
const CHECK = process.argv.includes('--check');
let stale = 0;

// The files of Target Sums and Opposites were written with one case a line
// (`"key": value, ...` separators); they keep that layout, so every hand case
// stays byte for byte as it was.
const compact = (x) => {
  if (Array.isArray(x)) return `[${x.map(compact).join(', ')}]`;
  if (x !== null && typeof x === 'object') {
    return `{${Object.keys(x).map((k) => `${JSON.stringify(k)}: ${compact(x[k])}`).join(', ')}}`;
  }
  return JSON.stringify(x);
};

function caseLines(json) {
  const lines = Object.keys(json).map((k) => {
    const v = json[k];
    if (Array.isArray(v)) {
      return v.length ? `  ${JSON.stringify(k)}: [\n${v.map((c) => `    ${compact(c)}`).join(',\n')}\n  ]` : `  ${JSON.stringify(k)}: []`;
    }
    return `  ${JSON.stringify(k)}: ${compact(v)}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

// contraption.json (the hand file's layout): indent 1, but every array of numbers
// on one line (`[x, y, vx, vy]`), empty arrays and objects as `[]` / `{}`.
function inline(x, ind = '') {
  const inner = `${ind} `;
  if (Array.isArray(x)) {
    if (x.length === 0) return '[]';
    if (x.every((v) => typeof v === 'number')) return `[${x.map((v) => JSON.stringify(v)).join(', ')}]`;
    return `[\n${x.map((v) => inner + inline(v, inner)).join(',\n')}\n${ind}]`;
  }
  if (x !== null && typeof x === 'object') {
    const ks = Object.keys(x);
    if (ks.length === 0) return '{}';
    return `{\n${ks.map((k) => `${inner}${JSON.stringify(k)}: ${inline(x[k], inner)}`).join(',\n')}\n${ind}}`;
  }
  return JSON.stringify(x);
}

function save(file, json, layout = 'indent1') {
  const text = layout === 'lines' ? caseLines(json) : layout === 'inline' ? `${inline(json)}\n`
    : layout === 'indent1nl' ? `${JSON.stringify(json, null, 1)}\n` : JSON.stringify(json, null, 1);
  if (CHECK) {
    if (readFileSync(join(VECTORS, file), 'utf8') !== text) {
      console.error(`${file} is not what the generator writes`);
      stale++;
    }
    return;
  }
  writeFileSync(join(VECTORS, file), text);
}

function uniqueNames(cases) {
  const seen = new Set();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`duplicate case name ${c.name}`);
    seen.add(c.name);
  }
}

// ---- prng.json --------------------------------------------------------------

function genPrng() {
  const r = streamFor('prng');
  const out = { mulberry32: [], shuffle: [], below: [], fnv1a32: [], days: [], daily: [] };

  const seeds = [0, 1, 2, 42, 0x6d2b79f5, 2 ** 32 - 0x6d2b79f5, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 20662];
  for (let i = 0; i < 6; i++) seeds.push(r.next());
  for (const s of seeds) {
    out.mulberry32.push({ name: `${G}seed ${s}, first 20 values`, seed: s, first: core.firstValues(s, 20) });
  }

  const ns = [1, 2, 3, 4, 5, 6, 7, 9, 10, 16, 25, 36, 49, 100, 1000, 65536, 1000003,
    2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 3000000000, 2 ** 32 - 1];
  for (const n of ns) {
    const s = r.next();
    out.below.push({ name: `${G}below(${n}) x20 from seed ${s}`, seed: s, n, first: core.belowDraws(s, n, 20) });
  }
  out.below.push({ name: `${G}below(4) x20 from seed 0`, seed: 0, n: 4, first: core.belowDraws(0, 4, 20) });
  out.below.push({ name: `${G}below(9) x20 from seed 42`, seed: 42, n: 9, first: core.belowDraws(42, 9, 20) });

  const lengths = [0, 1, 2, 3, 4, 5, 8, 9, 16, 25, 36, 49, 64, 100];
  for (const len of lengths) {
    for (const s of [len === 9 ? 42 : 0, r.next()]) {
      const input = Array.from({ length: len }, (_, i) => i + 1);
      out.shuffle.push({ name: `${G}1..${len} with seed ${s}`, seed: s, input, output: core.shuffled(s, input) });
    }
  }
  {
    const input = [5, 5, 1, 0, 3, 3, 3, 4294967295];
    const s = r.next();
    out.shuffle.push({ name: `${G}values with repeats, seed ${s}`, seed: s, input, output: core.shuffled(s, input) });
  }

  const texts = [
    '', 'a', 'b', 'ab', 'foobar', 'contraption:2026-7-28', 'contraption:2026-07-28',
    'contraption:2026-12-02', 'schulte', 'pipes', 'hello world', 'The quick brown fox jumps over the lazy dog',
    ' ', '\t\n', '0', '0123456789', 'a'.repeat(1000),
    '\u00e9', 'e\u0301', 'naïve café', 'Größe', 'Ελληνικά', 'Привет, мир', 'עברית', 'العربية',
    '日本語', '中文字符', '한국어', '€', '✓ done', '🙂', '🧩 puzzle 🧩', 'a\u00e9\u4e2d\u{1f600}z',
  ];
  for (const text of texts) {
    const bytes = new TextEncoder().encode(text).length;
    let label = text.length > 40 ? `${JSON.stringify(text.slice(0, 12))}... (${text.length} chars)` : JSON.stringify(text);
    if (bytes !== text.length) label += ` (non-ASCII, ${bytes} UTF-8 bytes)`;
    out.fnv1a32.push({ name: `${G}${label}`, text, hash: fnv1a32(text) });
  }

  const dates = [
    '1970-01-01', '1970-01-02', '1970-01-31', '1970-02-01', '1970-02-28', '1970-03-01', '1970-12-31',
    '1971-01-01', '1972-02-29', '1972-03-01', '1972-12-31', '1999-12-31', '2000-01-01', '2000-02-28',
    '2000-02-29', '2000-03-01', '2000-12-31', '2001-01-01', '2004-02-29', '2024-02-29', '2025-12-31',
    '2026-01-01', '2026-07-28', '2026-12-02', '2038-01-19', '2038-01-20', '2099-12-31', '2100-02-28',
    '2100-03-01', '2100-12-31', '2101-01-01', '2200-02-28', '2200-03-01', '2300-03-01', '2400-02-29',
    '2400-03-01', '2400-12-31', '5000-06-15', '9999-02-28', '9999-12-30', '9999-12-31',
  ];
  const lastDay = core.dayNumber('9999-12-31');
  for (let i = 0; i < 40; i++) dates.push(core.dateOfDay(r.below(lastDay + 1)));
  const seenDates = new Set();
  for (const date of dates) {
    if (seenDates.has(date)) continue;
    seenDates.add(date);
    out.days.push({ name: `${G}${date}`, date, day: core.dayNumber(date) });
  }

  // The catalogue daily: the first era's first 45 days, the last 25 days of
  // era 1 and the first 50 of era 2 (each game of its rotation 10 times),
  // notable dates of both eras, and random dates up to 9999-12-31.
  const first = core.dayNumber(core.SCHEDULE[0].first);
  const eraFirst = core.SCHEDULE.map((e) => core.dayNumber(e.first));
  const first2 = eraFirst[1];
  const dailyDays = [];
  for (let k = 0; k < 45; k++) dailyDays.push(first + k);
  for (let k = 25; k >= 1; k--) dailyDays.push(first2 - k);
  for (let k = 0; k < 50; k++) dailyDays.push(first2 + k);
  for (const d of ['2026-07-28', '2026-12-02', '2026-12-31', '2027-01-01', '2027-03-01', '2027-12-06',
    '2027-12-07', '2028-02-29', '2030-06-30', '2038-01-19', '2100-03-01', '2400-02-29', '9999-12-30',
    '9999-12-31']) dailyDays.push(core.dayNumber(d));
  for (let i = 0; i < 25; i++) dailyDays.push(first + r.below(lastDay - first + 1));
  for (let i = 0; i < 25; i++) dailyDays.push(first2 + r.below(lastDay - first2 + 1));
  const seenDaily = new Set();
  for (const day of dailyDays) {
    if (seenDaily.has(day)) continue;
    seenDaily.add(day);
    const date = core.dateOfDay(day);
    const d = core.daily(date);
    let note = '';
    if (eraFirst.includes(day)) note = ` (era ${d.schedule}'s first day)`;
    else if (eraFirst.includes(day + 1)) note = ` (era ${d.schedule}'s last day)`;
    if (d.game === 'contraption') note += ` (contraption's own seed: fnv1a32 "${core.contraptionDailyText(day)}")`;
    out.daily.push({ name: `${G}${date}${note}`, date, game: d.game, level: d.level, seed: d.seed, schedule: d.schedule });
  }

  const json = load('prng.json');
  let count = 0;
  for (const s of PRNG_SECTIONS) {
    json[s] = keepHand(json[s]).concat(out[s]);
    uniqueNames(json[s]);
    count += out[s].length;
  }
  save('prng.json', json);
  return count;
}

// ---- replay cases -------------------------------------------------------------

/** Records moves while playing them on a scratch state (stops applying after a rejection). */
class Play {
  constructor(game, lv) {
    this.game = game;
    this.lv = lv;
    this.st = game.start(lv);
    this.moves = [];
    this.t = 0;
    this.dead = false;
    this.field = game.fieldsOf(lv.version)[1]; // the second move field of the level's version
    this.codes = [];
  }
  get ended() {
    return this.dead || this.st.ended;
  }
  move(t, cell) {
    const mv = { t, [this.field]: cell };
    this.moves.push(mv);
    if (!this.dead) {
      const code = this.game.apply(this.st, mv);
      this.codes.push(code);
      if (this.game.kindOf(code) === 'rejected') this.dead = true;
    }
    this.t = t;
    return this;
  }
  get last() {
    return this.codes[this.codes.length - 1];
  }
}

function replayCase(game, lv, what, moves) {
  const r = replay(game, lv, moves);
  const c = {
    name: `${G}level ${lv.level} seed ${lv.seed}, ${what}`,
    version: lv.version,
    level: lv.level,
    seed: lv.seed,
    board_before: r.board_before,
    moves,
  };
  if (r.refused) {
    c.refused = r.refused;
    return c;
  }
  c.outcomes = r.outcomes;
  if (r.rejected) c.rejected = r.rejected;
  else {
    c.board_after = r.board_after;
    c.result = r.result;
  }
  return c;
}

const MAXF = 0x7fffffff;

/** A replay case of a version added later: its name starts with the version. */
function vCase(game, lv, what, moves) {
  const c = replayCase(game, lv, what, moves);
  c.name = `${G}version ${lv.version}, level ${lv.level} seed ${lv.seed}, ${what}`;
  return c;
}

/**
 * The case adder of a new version's replay kinds: `build(p, lv)` plays on a Play of
 * (version, level, a drawn seed) and returns false when it could not make its case
 * (another seed is tried). `twins` are older versions the same moves are also
 * replayed under (the same level, seed and moves, each version's outcomes).
 */
function adder(game, v, out, seedFor) {
  return (level) => (what, build, twins = [], seed = null) => {
    for (let k = 0; k < 50; k++) {
      const lv = game.generate(v, level, seed === null ? seedFor() : seed);
      const p = new Play(game, lv);
      if (build(p, lv) === false) continue;
      out.push(vCase(game, lv, what, p.moves));
      for (const tv of twins) out.push(vCase(game, game.generate(tv, level, lv.seed), what, p.moves));
      return;
    }
    throw new Error(`${game.name} level ${level}: no seed for "${what}"`);
  };
}

// ---- Schulte ------------------------------------------------------------------

function schulteReplays(r) {
  const out = [];
  const S = schulte;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const cellOf = (p, v) => p.st.grid.indexOf(v);
  const find = (p, gap) => p.move(p.t + gap, cellOf(p, p.st.expected));
  const wrongCells = (p) => {
    const cs = [];
    p.st.grid.forEach((v, i) => { if (v !== 0 && v !== p.st.expected) cs.push(i); });
    return cs;
  };
  const foundCells = (p) => {
    const cs = [];
    p.st.grid.forEach((v, i) => { if (v === 0) cs.push(i); });
    return cs;
  };
  const mistake = (p, gap) => {
    const cs = wrongCells(p);
    if (cs.length) p.move(p.t + gap, cs[r.below(cs.length)]);
  };
  const already = (p, gap) => {
    const cs = foundCells(p);
    if (cs.length) p.move(p.t + gap, cs[r.below(cs.length)]);
  };
  const gapOf = () => (r.below(5) === 0 ? 100 : 100 + r.below(1400));
  const partial = (p, k) => { for (let i = 0; i < k && !p.ended; i++) find(p, gapOf()); };

  for (let level = 1; level <= S.levels; level++) {
    const add = (what, build, seed = seedFor()) => {
      const lv = S.generate(1, level, seed);
      const p = new Play(S, lv);
      build(p, lv);
      out.push(replayCase(S, lv, what, p.moves));
    };
    const N = S.generate(1, level, 0).n;

    add('clean run, a tap every 300 ms (the bench solution)', (p, lv) => {
      for (const m of S.typicalSolution(lv)) p.move(m.t, m.cell);
    });
    add('clean run at random 100..1499 ms gaps', (p) => { while (!p.ended) find(p, gapOf()); });
    add('clean run at exactly 100 ms a tap from t = 100', (p) => { while (!p.ended) find(p, 100); });
    const km = 1 + r.below(4);
    add(`${km} mistake(s) and already-found taps, then completed`, (p) => {
      let left = km;
      while (!p.ended) {
        const x = r.below(8);
        if (x === 0 && left > 0 && wrongCells(p).length) { mistake(p, gapOf()); left--; }
        else if (x === 1) already(p, r.below(300));
        else find(p, gapOf());
      }
    });
    add('the fifth mistake ends the level; later taps (one out of range, one backwards) are after_end', (p) => {
      partial(p, r.below(Math.min(N - 2, 6)));
      for (let i = 0; i < 5; i++) mistake(p, gapOf());
      p.move(p.t + 200, N + 7);
      p.move(Math.max(0, p.t - 50), 0);
      find(p, 300);
    });
    add('a tap past the limit times the level out; later taps are ignored', (p, lv) => {
      partial(p, 1 + r.below(N - 2));
      if (r.below(2)) mistake(p, gapOf());
      p.move(lv.limit + 1 + r.below(5000), r.below(N));
      p.move(p.t + 500, N + r.below(50));
      p.move(p.t - 1000, 0);
      p.move(MAXF, MAXF);
    });
    add('four mistakes and the last number found exactly at the limit: the score floor of 1000', (p, lv) => {
      for (let i = 0; i < 4; i++) mistake(p, 100);
      while (p.st.found < N - 1) find(p, 100);
      p.move(lv.limit, cellOf(p, p.st.expected));
    });
    add('completed close to the limit with one mistake', (p, lv) => {
      mistake(p, 100 + r.below(1000));
      while (p.st.found < N - 1) find(p, 100 + r.below(300));
      p.move(lv.limit - r.below(2000), cellOf(p, p.st.expected));
    });
    add('unfinished: stops part way with a mistake', (p) => {
      partial(p, r.below(N - 1));
      mistake(p, gapOf());
      partial(p, r.below(3));
    });
    add('no moves at all', () => {});
    add('a cell off the grid is rejected', (p) => {
      partial(p, r.below(N - 1));
      p.move(p.t + 400, [N, N + 1 + r.below(100), MAXF][r.below(3)]);
      find(p, 400);
    });
    add('time going backwards is rejected', (p) => {
      partial(p, 1 + r.below(N - 2));
      already(p, 20);
      p.move(p.t - 1 - r.below(Math.min(p.t, 400)), r.below(N));
      find(p, 400);
    });
    add('a counted tap under 100 ms after the previous one is too fast', (p) => {
      partial(p, r.below(N - 1));
      const last = p.t;
      already(p, r.below(60));
      const t = last + 1 + r.below(99);
      p.move(Math.max(t, p.t), r.below(2) ? cellOf(p, p.st.expected) : (wrongCells(p)[0] ?? 0));
    });
    add('an ignored already-found tap does not move the 100 ms clock', (p) => {
      partial(p, 1 + r.below(N - 2));
      already(p, 50);
      find(p, 100);
      already(p, 99);
      mistake(p, 1);
      find(p, 100);
    });
    add('random taps (half of them on the next number), random gaps 0..599 ms', (p) => {
      let after = 0;
      for (let i = 0; i < 3 * N && !p.dead && after < 2; i++) {
        if (p.ended) after++;
        const cell = r.below(2) && !p.ended ? cellOf(p, p.st.expected) : r.below(N);
        p.move(p.t + r.below(600), cell);
      }
    });
    add('random legal play: right, wrong and already-found taps', (p) => {
      for (let i = 0; i < 3 * N && !p.ended; i++) {
        const x = r.below(10);
        if (x < 6) find(p, gapOf());
        else if (x < 8) mistake(p, gapOf());
        else already(p, r.below(200));
      }
    });
    add('random moves, legal and illegal', (p) => {
      let after = 0;
      for (let i = 0; i < 3 * N && after < 2; i++) {
        if (p.ended) after++;
        const t = Math.max(0, p.t + r.below(1200) - 60);
        const x = r.below(20);
        const cell = x < 10 && !p.ended ? cellOf(p, p.st.expected) : x === 10 ? N + r.below(4) : r.below(N);
        p.move(t, cell);
      }
    });
    add('completed, then taps after the end (off the grid, backwards, past the limit)', (p, lv) => {
      while (!p.ended) find(p, gapOf());
      p.move(p.t + 1, N);
      p.move(p.t - 5, 0);
      p.move(lv.limit + 10, 0);
    });
    add('the very first tap comes after the limit', (p, lv) => {
      p.move(lv.limit + 1, cellOf(p, p.st.expected));
      find(p, 100);
    });
  }
  return out;
}

// Version 2 (the human floors): the kinds of version 1 paced by version 2's gaps
// (100 ms on the same cell, 150 ms on another or for the first tap), every
// completing tap no earlier than the finish floor unless the case is about it,
// and each floor at its value and 1 ms below. The floor cases are also replayed
// under version 1 (the same moves, version 1's outcomes).
function schulteReplaysV2(r) {
  const out = [];
  const S = schulte;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const cellOf = (p, v) => p.st.grid.indexOf(v);
  const gapTo = (p, cell) => (cell === p.st.last_tap_cell ? S.GAP_SAME : S.GAP_OTHER);
  // the earliest time a counted tap on `cell` passes rule 6 (and is not backwards)
  const earliest = (p, cell) => Math.max(p.t, p.st.last_tap_t + gapTo(p, cell));
  const isLast = (p) => p.st.found === p.lv.n - 1;
  // the next number, `extra` ms after its earliest moment; the completing tap no earlier than the finish floor
  const find = (p, extra = 0) => {
    const cell = cellOf(p, p.st.expected);
    let t = earliest(p, cell) + extra;
    if (isLast(p)) t = Math.max(t, p.lv.finishFloor);
    return p.move(t, cell);
  };
  const wrongCells = (p) => {
    const cs = [];
    p.st.grid.forEach((v, i) => { if (v !== 0 && v !== p.st.expected) cs.push(i); });
    return cs;
  };
  const foundCells = (p) => {
    const cs = [];
    p.st.grid.forEach((v, i) => { if (v === 0) cs.push(i); });
    return cs;
  };
  const mistake = (p, extra = 0, cell = null) => {
    const cs = wrongCells(p);
    if (!cs.length) return false;
    const c = cell === null ? cs[r.below(cs.length)] : cell;
    p.move(earliest(p, c) + extra, c);
    return true;
  };
  const already = (p, dt) => {
    const cs = foundCells(p);
    if (cs.length) p.move(p.t + dt, cs[r.below(cs.length)]);
  };
  const extraOf = () => (r.below(5) === 0 ? 0 : r.below(1350)); // gaps of 150..1499 ms on another cell
  const partial = (p, k) => { for (let i = 0; i < k && !p.ended && !isLast(p); i++) find(p, extraOf()); };
  const atFloors = (p) => { while (p.st.found < p.lv.n - 1) find(p, 0); };

  for (let level = 1; level <= S.levels; level++) {
    const add = adder(S, 2, out, seedFor)(level);
    const N = S.generate(2, level, 0).n;

    add('clean run, a tap every 300 ms (the bench solution)', (p, lv) => {
      for (const m of S.typicalSolution(lv)) p.move(m.t, m.cell);
    });
    add('clean run at random 150..1499 ms gaps, the last tap no earlier than the finish floor', (p) => {
      while (!p.ended) find(p, extraOf());
    });
    add('taps at the other-cell gap (150 ms apart from t = 150), the last exactly at the finish floor', (p, lv) => {
      atFloors(p);
      p.move(lv.finishFloor, cellOf(p, p.st.expected));
    }, [1]);
    add('taps at the other-cell gap, the last 1 ms below the finish floor: finish_below_floor', (p, lv) => {
      atFloors(p);
      p.move(lv.finishFloor - 1, cellOf(p, p.st.expected));
    }, [1]);
    const km = 1 + r.below(4);
    // as many mistakes as still leave room for every tap at 150 ms before the floor
    const kmF = Math.max(1, Math.min(km, Math.floor((S.generate(2, level, 0).finishFloor - 1) / 150) - N));
    add(`${kmF} mistake(s) at the gaps' floors, the last tap 1 ms below the finish floor: mistakes do not move it`, (p, lv) => {
      for (let i = 0; i < kmF; i++) mistake(p, 0);
      atFloors(p);
      p.move(lv.finishFloor - 1, cellOf(p, p.st.expected));
      if (p.last !== 'finish_below_floor') return false;
    }, [1]);
    add(`${kmF} mistake(s) at the gaps' floors, the last tap at the finish floor`, (p, lv) => {
      for (let i = 0; i < kmF; i++) mistake(p, 0);
      atFloors(p);
      p.move(lv.finishFloor, cellOf(p, p.st.expected));
      if (!p.st.completed) return false;
    }, [1]);
    add(`${km} mistake(s) and already-found taps, then completed`, (p) => {
      let left = km;
      while (!p.ended) {
        const x = r.below(8);
        if (x === 0 && left > 0 && wrongCells(p).length) { mistake(p, extraOf()); left--; }
        else if (x === 1) already(p, r.below(300));
        else find(p, extraOf());
      }
    });
    add('a mistake tapped again on its own cell 100 ms later counts, a third time 99 ms later is too fast', (p) => {
      partial(p, r.below(Math.min(N - 2, 6)));
      const cs = wrongCells(p);
      const c = cs[r.below(cs.length)];
      mistake(p, 0, c);
      p.move(p.t + 100, c);
      p.move(p.t + 99, c);
    }, [1]);
    add('another cell 150 ms after a counted tap counts, the next one 149 ms later is too fast', (p) => {
      partial(p, r.below(Math.min(N - 2, 6)));
      if (r.below(2)) mistake(p, 0);
      else find(p, 0);
      const a = p.st.last_tap_cell;
      const others = [];
      for (let i = 0; i < N; i++) if (i !== a && p.st.grid[i] !== 0) others.push(i);
      const b = r.below(2) && others.includes(cellOf(p, p.st.expected)) ? cellOf(p, p.st.expected) : others[r.below(others.length)];
      p.move(p.st.last_tap_t + 150, b);
      const others2 = [];
      for (let i = 0; i < N; i++) if (i !== p.st.last_tap_cell && p.st.grid[i] !== 0) others2.push(i);
      p.move(p.st.last_tap_t + 149, others2[r.below(others2.length)]);
    }, [1]);
    add('the first tap at t = 150 counts (right or wrong)', (p) => {
      p.move(150, r.below(2) ? cellOf(p, p.st.expected) : r.below(N));
      partial(p, r.below(3));
    }, [1]);
    add('the first tap at t = 149 is too fast', (p) => {
      p.move(149, r.below(2) ? cellOf(p, p.st.expected) : r.below(N));
      find(p, 0);
    }, [1]);
    add('a first tap before t = 150 is too fast', (p) => {
      p.move(r.below(150), r.below(N));
    }, [1]);
    add('an ignored already-found tap moves neither the clock nor the last cell: the same wrong cell again 100 ms after it', (p) => {
      partial(p, 1 + r.below(Math.min(N - 3, 5)));
      const cs = wrongCells(p);
      const c = cs[r.below(cs.length)];
      mistake(p, 0, c);
      already(p, 1 + r.below(98));
      p.move(p.st.last_tap_t + 100, c);
      find(p, 0);
    }, [1]);
    add('the fifth mistake ends the level; later taps (one out of range, one backwards) are after_end', (p) => {
      partial(p, r.below(Math.min(N - 2, 6)));
      for (let i = 0; i < 5; i++) mistake(p, extraOf());
      p.move(p.t + 200, N + 7);
      p.move(Math.max(0, p.t - 50), 0);
      find(p, 300);
    });
    add('a tap past the limit times the level out; later taps are ignored', (p, lv) => {
      partial(p, 1 + r.below(N - 2));
      if (r.below(2)) mistake(p, extraOf());
      p.move(lv.limit + 1 + r.below(5000), r.below(N));
      p.move(p.t + 500, N + r.below(50));
      p.move(p.t - 1000, 0);
      p.move(MAXF, MAXF);
    });
    add('four mistakes at the floors and the last number found exactly at the limit: the score floor of 1000', (p, lv) => {
      for (let i = 0; i < 4; i++) mistake(p, 0);
      atFloors(p);
      p.move(lv.limit, cellOf(p, p.st.expected));
    });
    add('completed close to the limit with one mistake', (p, lv) => {
      mistake(p, r.below(1000));
      while (p.st.found < N - 1) find(p, r.below(300));
      p.move(lv.limit - r.below(2000), cellOf(p, p.st.expected));
    });
    add('unfinished: stops part way with a mistake', (p) => {
      partial(p, r.below(N - 2));
      mistake(p, extraOf());
      partial(p, Math.min(r.below(3), N - 1 - p.st.found - 1));
    });
    add('no moves at all', () => {});
    add('a cell off the grid is rejected', (p) => {
      partial(p, r.below(N - 1));
      p.move(p.t + 400, [N, N + 1 + r.below(100), MAXF][r.below(3)]);
      find(p, 400);
    });
    add('time going backwards is rejected', (p) => {
      partial(p, 1 + r.below(N - 2));
      already(p, 20);
      p.move(p.t - 1 - r.below(Math.min(p.t, 400)), r.below(N));
      find(p, 400);
    });
    add('random taps (half of them on the next number), random gaps 0..599 ms', (p) => {
      let after = 0;
      for (let i = 0; i < 3 * N && !p.dead && after < 2; i++) {
        if (p.ended) after++;
        const cell = r.below(2) && !p.ended ? cellOf(p, p.st.expected) : r.below(N);
        p.move(p.t + r.below(600), cell);
      }
    });
    add('random legal play: right, wrong and already-found taps at version 2\'s gaps', (p) => {
      for (let i = 0; i < 3 * N && !p.ended; i++) {
        const x = r.below(10);
        if (x < 6) find(p, extraOf());
        else if (x < 8) mistake(p, extraOf(), r.below(3) === 0 && wrongCells(p).includes(p.st.last_tap_cell) ? p.st.last_tap_cell : null);
        else already(p, r.below(200));
      }
    });
    add('random moves, legal and illegal', (p) => {
      let after = 0;
      for (let i = 0; i < 3 * N && after < 2; i++) {
        if (p.ended) after++;
        const t = Math.max(0, p.t + r.below(1200) - 60);
        const x = r.below(20);
        const cell = x < 10 && !p.ended ? cellOf(p, p.st.expected) : x === 10 ? N + r.below(4) : r.below(N);
        p.move(t, cell);
      }
    });
    add('completed, then taps after the end (off the grid, backwards, past the limit)', (p, lv) => {
      while (!p.ended) find(p, extraOf());
      p.move(p.t + 1, N);
      p.move(p.t - 5, 0);
      p.move(lv.limit + 10, 0);
    });
    add('the very first tap comes after the limit', (p, lv) => {
      p.move(lv.limit + 1, cellOf(p, p.st.expected));
      find(p, 100);
    });
  }
  return out;
}

// ---- Pipes --------------------------------------------------------------------

function pipesReplays(r) {
  const out = [];
  const P = pipes;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const gapOf = () => (r.below(5) === 0 ? 50 : 50 + r.below(950));
  const needed = (lv) => lv.start.map((m, c) => P.turnsBetween(m, lv.solution[c]));
  const shuffleList = (list) => r.shuffle(list);
  const turnList = (lv, extra) => {
    // the multiset of single turns that solves the board, plus `extra` full circles
    const list = [];
    needed(lv).forEach((k, c) => { for (let j = 0; j < k; j++) list.push(c); });
    for (let i = 0; i < extra; i++) {
      const c = r.below(lv.start.length);
      for (let j = 0; j < 4; j++) list.push(c);
    }
    return list;
  };

  for (let level = 1; level <= P.levels; level++) {
    const add = (what, build, seed = seedFor()) => {
      const lv = P.generate(1, level, seed);
      const p = new Play(P, lv);
      build(p, lv);
      out.push(replayCase(P, lv, what, p.moves));
    };
    const n = P.generate(1, level, 0).start.length;

    add('the fewest turns, row-major, 300 ms apart from t = 300 (the bench solution)', (p, lv) => {
      for (const m of P.typicalSolution(lv)) p.move(m.t, m.cell);
    });
    add('the fewest turns in a random order at random gaps', (p, lv) => {
      for (const c of shuffleList(turnList(lv, 0))) p.move(p.t + gapOf(), c);
    });
    add('the fewest turns exactly 50 ms apart from t = 50', (p, lv) => {
      for (const c of turnList(lv, 0)) p.move(p.t + 50, c);
    });
    const ex = 1 + r.below(3);
    add(`${ex} wasted full circle(s) mixed in, then solved`, (p, lv) => {
      const list = shuffleList(turnList(lv, ex));
      for (const c of list) p.move(p.t + gapOf(), c);
    });
    add('a stray turn undone by three more, then solved; a later turn is after_end', (p, lv) => {
      const c0 = r.below(n);
      for (let j = 0; j < 4; j++) p.move(p.t + 60, c0);
      for (const c of turnList(lv, 0)) p.move(p.t + gapOf(), c);
      p.move(p.t + 60, c0);
    });
    add('solved exactly at the limit with wasted turns: the score floor of 1000', (p, lv) => {
      const c0 = r.below(n);
      for (let j = 0; j < 4; j++) p.move(p.t + 50, c0);
      const list = turnList(lv, 0);
      const lastCell = list.pop();
      for (const c of list) p.move(p.t + 50, c);
      p.move(lv.limit, lastCell);
    });
    add('solved close to the limit', (p, lv) => {
      const list = turnList(lv, 0);
      const lastCell = list.pop();
      for (const c of list) p.move(p.t + 50 + r.below(200), c);
      p.move(lv.limit - r.below(3000), lastCell);
    });
    add('a turn past the limit times the level out; later moves are ignored', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(lv.limit + 1 + r.below(5000), r.below(n));
      p.move(p.t + 100, n + r.below(10));
      p.move(p.t - 1000, 0);
      p.move(MAXF, MAXF);
    });
    add('unfinished: some right turns and some wrong ones', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) {
        p.move(p.t + gapOf(), r.below(4) === 0 ? r.below(n) : list[i]);
      }
    });
    add('no moves at all', () => {});
    add('a cell off the board is rejected', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(p.t + 100, [n, n + 1 + r.below(100), MAXF][r.below(3)]);
      p.move(p.t + 100, 0);
    });
    add('time going backwards is rejected', (p, lv) => {
      const list = turnList(lv, 0);
      const k = 1 + r.below(list.length - 1);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(p.t - 1 - r.below(Math.min(p.t, 300)), r.below(n));
    });
    add('a turn under 50 ms after the previous one is too fast', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length - 1);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(p.t + r.below(50), r.below(n));
    });
    add('a first turn within 50 ms of the start is too fast', (p) => {
      p.move(r.below(50), r.below(n));
    });
    add('random turns at random gaps of 50..999 ms', (p) => {
      for (let i = 0; i < 2 * n && !p.ended; i++) p.move(p.t + gapOf(), r.below(n));
    });
    add('random moves, legal and illegal', (p) => {
      for (let i = 0; i < 2 * n; i++) {
        const t = Math.max(0, p.t + r.below(420) - 20);
        p.move(t, r.below(n + 2));
      }
    });
    add('solved, then moves after the end (off the board, backwards, past the limit)', (p, lv) => {
      for (const c of turnList(lv, 0)) p.move(p.t + gapOf(), c);
      p.move(p.t + 1, n);
      p.move(p.t - 5, 0);
      p.move(lv.limit + 10, 0);
    });
    add('the very first turn comes after the limit', (p, lv) => {
      p.move(lv.limit + 1, 0);
      p.move(lv.limit + 100, 1);
    });
  }
  return out;
}

// Version 2 (the human floors): the kinds of version 1 paced by version 2's gaps
// (100 ms on the same tile, 150 ms on another or for the first turn), the solving
// turn no earlier than the finish floor unless the case is about it, and each
// floor at its value and 1 ms below; the floor cases are also replayed under version 1.
function pipesReplaysV2(r) {
  const out = [];
  const P = pipes;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const needed = (lv) => lv.start.map((m, c) => P.turnsBetween(m, lv.solution[c]));
  const gapTo = (p, cell) => (cell === p.st.last_turn_cell ? P.GAP_SAME : P.GAP_OTHER);
  const earliest = (p, cell) => Math.max(p.t, p.st.last_turn_t + gapTo(p, cell));
  const extraOf = () => (r.below(5) === 0 ? 0 : r.below(850)); // gaps up to 999 ms
  // a turn of `cell`, `extra` ms after its earliest moment; `last`: the turn that solves, no earlier than the floor
  const turn = (p, cell, extra = 0, last = false) => {
    let t = earliest(p, cell) + extra;
    if (last) t = Math.max(t, p.lv.finishFloor);
    return p.move(t, cell);
  };
  const turnList = (lv, extra) => {
    // the multiset of single turns that solves the board (each tile's turns together), plus `extra` full circles
    const list = [];
    needed(lv).forEach((k, c) => { for (let j = 0; j < k; j++) list.push(c); });
    for (let i = 0; i < extra; i++) {
      const c = r.below(lv.start.length);
      for (let j = 0; j < 4; j++) list.push(c);
    }
    return list;
  };
  // plays `list` (which solves the board) at `extraOf` gaps, the last no earlier than the finish floor
  const solve = (p, list, ex = extraOf) => list.forEach((c, i) => turn(p, c, ex(), i === list.length - 1));

  for (let level = 1; level <= P.levels; level++) {
    const add = adder(P, 2, out, seedFor)(level);
    const n = P.generate(2, level, 0).start.length;

    add('the fewest turns, row-major, 300 ms apart from t = 300 (the bench solution)', (p, lv) => {
      for (const m of P.typicalSolution(lv)) p.move(m.t, m.cell);
    });
    add('the fewest turns in a random order at random gaps, the last no earlier than the finish floor', (p, lv) => {
      solve(p, r.shuffle(turnList(lv, 0)));
    });
    add('the fewest turns at the gaps\' floors (100 ms on the same tile, 150 ms on another), the last exactly at the finish floor', (p, lv) => {
      const list = turnList(lv, 0);
      const lastCell = list.pop();
      for (const c of list) turn(p, c, 0);
      p.move(lv.finishFloor, lastCell);
      if (!p.st.completed) return false;
    }, [1]);
    add('the fewest turns at the gaps\' floors, the last 1 ms below the finish floor: finish_below_floor', (p, lv) => {
      const list = turnList(lv, 0);
      const lastCell = list.pop();
      for (const c of list) turn(p, c, 0);
      p.move(lv.finishFloor - 1, lastCell);
      if (p.last !== 'finish_below_floor') return false;
    }, [1]);
    for (const at of [0, -1]) {
      add(`a wasted full circle first, then the fewest turns at the gaps' floors, the last ${at ? '1 ms below' : 'exactly at'} the finish floor: wasted turns do not move it`, (p, lv) => {
        const list = turnList(lv, 1);
        const circle = list.splice(list.length - 4);
        const lastCell = list.pop();
        for (const c of circle.concat(list)) turn(p, c, 0);
        if (p.ended || p.t + gapTo(p, lastCell) > lv.finishFloor + at) return false;
        p.move(lv.finishFloor + at, lastCell);
        if (p.last !== (at ? 'finish_below_floor' : 'rotated') || (!at && !p.st.completed)) return false;
      }, [1]);
    }
    const ex = 1 + r.below(3);
    add(`${ex} wasted full circle(s) mixed in, then solved`, (p, lv) => {
      const list = turnList(lv, ex);
      const lastNeeded = list[needed(lv).reduce((a, b) => a + b, 0) - 1];
      // shuffle everything but one needed turn, which comes last and solves the board
      const i = list.indexOf(lastNeeded);
      list.splice(i, 1);
      solve(p, r.shuffle(list).concat([lastNeeded]));
      if (!p.codes.every((c) => c === 'rotated') || !p.st.completed) return false;
    });
    add('a tile turned again 100 ms later counts, once more 99 ms later is too fast', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length - 1);
      for (let i = 0; i < k; i++) turn(p, list[i], extraOf());
      const c = r.below(n);
      turn(p, c, 0);
      if (p.ended) return false;
      p.move(p.t + 100, c);
      if (p.ended) return false;
      p.move(p.t + 99, c);
      if (p.last !== 'too_fast') return false;
    }, [1]);
    add('another tile 150 ms after a turn counts, the next another tile 149 ms later is too fast', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length - 1);
      for (let i = 0; i < k; i++) turn(p, list[i], extraOf());
      let c = r.below(n);
      if (c === p.st.last_turn_cell) c = (c + 1) % n;
      p.move(p.st.last_turn_t + 150, c);
      if (p.ended) return false;
      const d = (c + 1 + r.below(n - 1)) % n;
      p.move(p.t + 149, d);
      if (p.last !== 'too_fast') return false;
    }, [1]);
    add('the first turn at t = 149 is too fast', (p) => {
      p.move(149, r.below(n));
    }, [1]);
    add('a first turn before t = 150 is too fast', (p) => {
      p.move(r.below(150), r.below(n));
    }, [1]);
    add('a stray turn undone by three more, then solved; a later turn is after_end', (p, lv) => {
      const c0 = r.below(n);
      for (let j = 0; j < 4; j++) turn(p, c0, r.below(100));
      solve(p, turnList(lv, 0));
      p.move(p.t + 160, c0);
    });
    add('solved exactly at the limit with wasted turns: the score floor of 1000', (p, lv) => {
      const c0 = r.below(n);
      for (let j = 0; j < 4; j++) turn(p, c0, 0);
      const list = turnList(lv, 0);
      const lastCell = list.pop();
      for (const c of list) turn(p, c, 0);
      p.move(lv.limit, lastCell);
    });
    add('solved close to the limit', (p, lv) => {
      const list = turnList(lv, 0);
      const lastCell = list.pop();
      for (const c of list) turn(p, c, r.below(200));
      p.move(lv.limit - r.below(3000), lastCell);
    });
    add('a turn past the limit times the level out; later moves are ignored', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) turn(p, list[i], extraOf());
      p.move(lv.limit + 1 + r.below(5000), r.below(n));
      p.move(p.t + 100, n + r.below(10));
      p.move(p.t - 1000, 0);
      p.move(MAXF, MAXF);
    });
    add('unfinished: some right turns and some wrong ones', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length);
      for (let i = 0; i < k && !p.ended; i++) turn(p, r.below(4) === 0 ? r.below(n) : list[i], extraOf());
    });
    add('no moves at all', () => {});
    add('a cell off the board is rejected', (p, lv) => {
      const list = turnList(lv, 0);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) turn(p, list[i], extraOf());
      p.move(p.t + 150, [n, n + 1 + r.below(100), MAXF][r.below(3)]);
      p.move(p.t + 150, 0);
    });
    add('time going backwards is rejected', (p, lv) => {
      const list = turnList(lv, 0);
      const k = 1 + r.below(list.length - 1);
      for (let i = 0; i < k; i++) turn(p, list[i], extraOf());
      p.move(p.t - 1 - r.below(Math.min(p.t, 300)), r.below(n));
    });
    add('random turns at random gaps of 100..999 ms', (p) => {
      for (let i = 0; i < 2 * n && !p.ended; i++) {
        const c = r.below(n);
        turn(p, c, r.below(1000 - gapTo(p, c)));
      }
    });
    add('random moves, legal and illegal', (p) => {
      for (let i = 0; i < 2 * n; i++) {
        const t = Math.max(0, p.t + r.below(500) - 20);
        p.move(t, r.below(n + 2));
      }
    });
    add('solved, then moves after the end (off the board, backwards, past the limit)', (p, lv) => {
      solve(p, turnList(lv, 0));
      p.move(p.t + 1, n);
      p.move(p.t - 5, 0);
      p.move(lv.limit + 10, 0);
    });
    add('the very first turn comes after the limit', (p, lv) => {
      p.move(lv.limit + 1, 0);
      p.move(lv.limit + 100, 1);
    });
  }
  return out;
}

// ---- Target Sums --------------------------------------------------------------

// Per level: the seed of 0..1999 with the most rejected candidates and the one
// with the most search nodes (the first such seed).
// Both versions generate the same boards, so the scan runs once per level.
const tsExtremes = new Map();
function targetSumsExtremes(level) {
  if (!tsExtremes.has(level)) tsExtremes.set(level, targetSumsScan(level));
  return tsExtremes.get(level);
}

function targetSumsScan(level) {
  let rej = [-1, 0];
  let nod = [-1, 0];
  for (let seed = 0; seed < 2000; seed++) {
    const lv = targetSums.generate(1, level, seed);
    if (lv.rejected > rej[0]) rej = [lv.rejected, seed];
    if (lv.searchNodes > nod[0]) nod = [lv.searchNodes, seed];
  }
  return [
    [rej[1], `the most rejected candidates over seeds 0..1999: ${rej[0]}`],
    [nod[1], `the most search nodes over seeds 0..1999: ${nod[0]}`],
  ];
}

function targetSumsReplays(r) {
  const out = [];
  const T = targetSums;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const gapOf = () => (r.below(5) === 0 ? 100 : 100 + r.below(1900));
  const removedOf = (lv) => lv.solution.map((k, i) => (k ? -1 : i)).filter((i) => i >= 0);
  const keptOf = (lv) => lv.solution.map((k, i) => (k ? i : -1)).filter((i) => i >= 0);
  const pick = (list) => list[r.below(list.length)];

  for (let level = 1; level <= T.levels; level++) {
    const add = (what, build, seed = seedFor()) => {
      const lv = T.generate(1, level, seed);
      const p = new Play(T, lv);
      build(p, lv);
      out.push(replayCase(T, lv, what, p.moves));
    };
    const n = T.generate(1, level, 0).n;

    add('the solution row-major, 500 ms apart from t = 500 (the bench solution)', (p, lv) => {
      for (const m of T.typicalSolution(lv)) p.move(m.t, m.cell);
    });
    add('the solution in a random order at random gaps of 100..1999 ms', (p, lv) => {
      for (const c of r.shuffle(removedOf(lv))) p.move(p.t + gapOf(), c);
    });
    add('the solution exactly 100 ms a toggle from t = 100', (p, lv) => {
      for (const c of removedOf(lv)) p.move(p.t + 100, c);
    });
    const ex = 1 + r.below(4);
    add(`${ex} wasted remove/restore pair(s) mixed in, then solved`, (p, lv) => {
      const list = removedOf(lv);
      for (let i = 0; i < ex; i++) {
        const c = r.below(n);
        list.push(c, c);
      }
      // keep each wasted pair's order: a shuffle of the list, then the solution is still reached
      for (const c of r.shuffle(list)) p.move(p.t + gapOf(), c);
    });
    add('a kept cell removed and restored at once, then solved; a later tap is after_end', (p, lv) => {
      const c0 = pick(keptOf(lv).length ? keptOf(lv) : [0]);
      p.move(p.t + 100 + r.below(500), c0);
      p.move(p.t + 100 + r.below(500), c0);
      for (const c of removedOf(lv)) p.move(p.t + gapOf(), c);
      p.move(p.t + 100, r.below(n));
    });
    add('solved exactly at the limit: the score floor of 1000', (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      for (const c of list) p.move(p.t + 100, c);
      p.move(lv.limit, last);
    });
    add('solved a few seconds before the limit with wasted toggles: the bonus floors at 0', (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      const c0 = r.below(n);
      p.move(p.t + 100, c0);
      p.move(p.t + 100, c0);
      p.move(p.t + 100, c0);
      p.move(p.t + 100, c0);
      for (const c of list) p.move(p.t + 100 + r.below(200), c);
      p.move(lv.limit - r.below(2000), last);
    });
    add('solved close to the limit', (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      for (const c of list) p.move(p.t + 100 + r.below(300), c);
      p.move(lv.limit - r.below(5000), last);
    });
    add('a toggle past the limit times the level out; later moves are ignored', (p, lv) => {
      const list = r.shuffle(removedOf(lv));
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(lv.limit + 1 + r.below(5000), r.below(n));
      p.move(p.t + 100, n + r.below(10));
      p.move(p.t - 1000, 0);
      p.move(MAXF, MAXF);
    });
    add('unfinished: some right toggles and some wrong ones', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), r.below(3) === 0 ? r.below(n) : list[i]);
    });
    add('no moves at all', () => {});
    add('every cell removed in row-major order', (p) => {
      for (let c = 0; c < n; c++) p.move(p.t + 100 + r.below(400), c);
    });
    add('a cell off the board is rejected', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(p.t + 100 + r.below(1000), [n, n + 1 + r.below(100), MAXF][r.below(3)]);
      p.move(p.t + 100, 0);
    });
    add('a cell off the board is rejected even past the limit (the range check comes first)', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) p.move(p.t + gapOf(), list[i]);
      p.move(lv.limit + 1 + r.below(10000), n + r.below(5));
    });
    add('time going backwards is rejected', (p, lv) => {
      const list = removedOf(lv);
      const k = 1 + r.below(list.length);
      for (let i = 0; i < k - 1; i++) p.move(p.t + gapOf(), list[i]);
      p.move(p.t + 100 + r.below(900), r.below(n));
      p.move(p.t - 1 - r.below(Math.min(p.t, 300)), r.below(n));
    });
    add('a toggle under 100 ms after the previous one is too fast', (p, lv) => {
      const list = removedOf(lv);
      const k = 1 + r.below(list.length);
      for (let i = 0; i < k - 1; i++) p.move(p.t + gapOf(), list[i]);
      p.move(p.t + 100 + r.below(900), r.below(n));
      p.move(p.t + r.below(100), r.below(n));
    });
    add('a first toggle before t = 100 is too fast', (p) => {
      p.move(r.below(100), r.below(n));
      p.move(1000, 0);
    });
    add('random toggles at random gaps of 100..1999 ms', (p) => {
      for (let i = 0; i < 2 * n && !p.ended; i++) p.move(p.t + gapOf(), r.below(n));
    });
    add('random moves, legal and illegal', (p) => {
      for (let i = 0; i < 2 * n; i++) {
        const t = r.below(12) === 0 ? Math.max(0, p.t + r.below(120) - 20) : p.t + 100 + r.below(600);
        p.move(t, r.below(25) === 0 ? n + r.below(3) : r.below(n));
      }
    });
    add('solved, then moves after the end (off the board, backwards, past the limit)', (p, lv) => {
      for (const c of removedOf(lv)) p.move(p.t + gapOf(), c);
      p.move(p.t + 1, n);
      p.move(p.t - 5, 0);
      p.move(lv.limit + 10, 0);
    });
    add('the very first toggle comes after the limit', (p, lv) => {
      p.move(lv.limit + 1, 0);
      p.move(lv.limit + 100, 1);
    });
  }
  return out;
}

// Version 2 (the human floors): the kinds of version 1 paced by version 2's gaps
// (100 ms on the same cell, 150 ms on another or for the first toggle), the
// completing toggle no earlier than the finish floor unless the case is about it,
// and each floor at its value and 1 ms below; the floor cases are also replayed
// under version 1.
function targetSumsReplaysV2(r) {
  const out = [];
  const T = targetSums;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const extraOf = () => (r.below(5) === 0 ? 0 : r.below(1850)); // gaps of 150..1999 ms on another cell
  const removedOf = (lv) => lv.solution.map((k, i) => (k ? -1 : i)).filter((i) => i >= 0);
  const keptOf = (lv) => lv.solution.map((k, i) => (k ? i : -1)).filter((i) => i >= 0);
  const pick = (list) => list[r.below(list.length)];
  const gapTo = (p, cell) => (cell === p.st.last_toggle_cell ? T.GAP_SAME : T.GAP_OTHER);
  const earliest = (p, cell) => Math.max(p.t, p.st.last_toggle_t + gapTo(p, cell));
  const toggle = (p, cell, extra = 0, last = false) => {
    let t = earliest(p, cell) + extra;
    if (last) t = Math.max(t, p.lv.finishFloor);
    return p.move(t, cell);
  };
  // plays `list` (which completes the level only with its last toggle), the last no earlier than the floor
  const solve = (p, list, ex = extraOf) => list.forEach((c, i) => toggle(p, c, ex(), i === list.length - 1));
  const onlyAtEnd = (p) => p.st.completed && p.codes.slice(0, -1).every((c) => c === 'removed' || c === 'restored');

  for (let level = 1; level <= T.levels; level++) {
    const add = adder(T, 2, out, seedFor)(level);
    const n = T.generate(2, level, 0).n;

    add('the solution row-major, 500 ms apart from t = 500 (the bench solution, the last at the finish floor)', (p, lv) => {
      for (const m of T.typicalSolution(lv)) p.move(m.t, m.cell);
    });
    add('the solution in a random order at random gaps of 150..1999 ms, the last no earlier than the finish floor', (p, lv) => {
      solve(p, r.shuffle(removedOf(lv)));
    });
    for (const at of [0, -1]) {
      add(`the solution 150 ms a toggle from t = 150, the last ${at ? '1 ms below' : 'exactly at'} the finish floor${at ? ': finish_below_floor' : ''}`, (p, lv) => {
        const list = removedOf(lv);
        const last = list.pop();
        for (const c of list) toggle(p, c, 0);
        if (p.t + 150 > lv.finishFloor + at) return false;
        p.move(lv.finishFloor + at, last);
        if (at ? p.last !== 'finish_below_floor' : !p.st.completed) return false;
      }, [1]);
    }
    for (const at of [0, -1]) {
      add(`a cell removed and restored 100 ms later (the same-cell gap), then the solution at the gaps' floors, the last ${at ? '1 ms below' : 'exactly at'} the finish floor: wasted toggles do not move it`, (p, lv) => {
        const c0 = r.below(n);
        toggle(p, c0, r.below(200));
        p.move(p.t + 100, c0);
        const list = removedOf(lv);
        const last = list.pop();
        for (const c of list) toggle(p, c, 0);
        if (p.ended || p.t + gapTo(p, last) > lv.finishFloor + at) return false;
        p.move(lv.finishFloor + at, last);
        if (at ? p.last !== 'finish_below_floor' : !p.st.completed) return false;
      }, [1]);
    }
    add('a cell restored 99 ms after its removal is too fast', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) toggle(p, list[i], extraOf());
      const kept = [];
      p.st.kept.forEach((k, i) => { if (k) kept.push(i); });
      const c0 = pick(kept);
      toggle(p, c0, 0);
      if (p.ended) return false;
      p.move(p.t + 99, c0);
    }, [1]);
    add('another cell 150 ms after a toggle counts, the next another cell 149 ms later is too fast', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) toggle(p, list[i], extraOf());
      let c = r.below(n);
      if (c === p.st.last_toggle_cell) c = (c + 1) % n;
      p.move(p.st.last_toggle_t + 150, c);
      if (p.ended) return false;
      p.move(p.t + 149, (c + 1 + r.below(n - 1)) % n);
      if (p.last !== 'too_fast') return false;
    }, [1]);
    add('the first toggle at t = 149 is too fast', (p) => {
      p.move(149, r.below(n));
      p.move(1000, 0);
    }, [1]);
    add('a first toggle before t = 150 is too fast', (p) => {
      p.move(r.below(150), r.below(n));
    }, [1]);
    const ex = 1 + r.below(4);
    add(`${ex} wasted remove/restore pair(s) mixed in, then solved`, (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      for (let i = 0; i < ex; i++) {
        const c = r.below(n);
        list.push(c, c);
      }
      solve(p, r.shuffle(list).concat([last]));
      if (!onlyAtEnd(p)) return false;
    });
    add('a kept cell removed and restored at once, then solved; a later tap is after_end', (p, lv) => {
      const c0 = pick(keptOf(lv).length ? keptOf(lv) : [0]);
      toggle(p, c0, r.below(500));
      toggle(p, c0, r.below(500));
      solve(p, removedOf(lv));
      p.move(p.t + 150, r.below(n));
    });
    add('solved exactly at the limit: the score floor of 1000', (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      for (const c of list) toggle(p, c, 0);
      p.move(lv.limit, last);
    });
    add('solved a few seconds before the limit with wasted toggles: the bonus floors at 0', (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      const c0 = r.below(n);
      for (let j = 0; j < 4; j++) toggle(p, c0, 0);
      for (const c of list) toggle(p, c, r.below(200));
      p.move(lv.limit - r.below(2000), last);
    });
    add('solved close to the limit', (p, lv) => {
      const list = removedOf(lv);
      const last = list.pop();
      for (const c of list) toggle(p, c, r.below(300));
      p.move(lv.limit - r.below(5000), last);
    });
    add('a toggle past the limit times the level out; later moves are ignored', (p, lv) => {
      const list = r.shuffle(removedOf(lv));
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) toggle(p, list[i], extraOf());
      p.move(lv.limit + 1 + r.below(5000), r.below(n));
      p.move(p.t + 100, n + r.below(10));
      p.move(p.t - 1000, 0);
      p.move(MAXF, MAXF);
    });
    add('unfinished: some right toggles and some wrong ones', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k && !p.ended; i++) toggle(p, r.below(3) === 0 ? r.below(n) : list[i], extraOf());
    });
    add('no moves at all', () => {});
    add('every cell removed in row-major order', (p) => {
      for (let c = 0; c < n; c++) toggle(p, c, r.below(400));
    });
    add('a cell off the board is rejected', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) toggle(p, list[i], extraOf());
      p.move(p.t + 150 + r.below(1000), [n, n + 1 + r.below(100), MAXF][r.below(3)]);
      p.move(p.t + 150, 0);
    });
    add('a cell off the board is rejected even past the limit (the range check comes first)', (p, lv) => {
      const list = removedOf(lv);
      const k = r.below(list.length);
      for (let i = 0; i < k; i++) toggle(p, list[i], extraOf());
      p.move(lv.limit + 1 + r.below(10000), n + r.below(5));
    });
    add('time going backwards is rejected', (p, lv) => {
      const list = removedOf(lv);
      const k = 1 + r.below(list.length);
      for (let i = 0; i < k - 1; i++) toggle(p, list[i], extraOf());
      toggle(p, r.below(n), r.below(900));
      if (p.ended) return false;
      p.move(p.t - 1 - r.below(Math.min(p.t, 300)), r.below(n));
    });
    add('random toggles at random gaps of 100..1999 ms', (p) => {
      for (let i = 0; i < 2 * n && !p.ended; i++) {
        const c = r.below(n);
        toggle(p, c, r.below(2000 - gapTo(p, c)));
      }
    });
    add('random moves, legal and illegal', (p) => {
      for (let i = 0; i < 2 * n; i++) {
        const t = r.below(12) === 0 ? Math.max(0, p.t + r.below(170) - 20) : p.t + 100 + r.below(600);
        p.move(t, r.below(25) === 0 ? n + r.below(3) : r.below(n));
      }
    });
    add('solved, then moves after the end (off the board, backwards, past the limit)', (p, lv) => {
      solve(p, removedOf(lv));
      p.move(p.t + 1, n);
      p.move(p.t - 5, 0);
      p.move(lv.limit + 10, 0);
    });
    add('the very first toggle comes after the limit', (p, lv) => {
      p.move(lv.limit + 1, 0);
      p.move(lv.limit + 100, 1);
    });
  }
  return out;
}

// ---- Opposites ----------------------------------------------------------------

// Every move list is built once from the schedule (which both versions share)
// and replayed under version 1 and under version 2: the same (level, seed, moves)
// with each version's outcomes and result.
function oppositesReplays(r) {
  const out = [];
  const O = opposites;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const MIN = O.MIN_REACTION_MS;

  const opCase = (lv, what, moves) => {
    const c = replayCase(O, lv, what, moves);
    c.name = `${G}v${lv.version}, level ${lv.level} seed ${lv.seed}, ${what}`;
    return c;
  };

  for (let level = 1; level <= O.levels; level++) {
    const add = (what, build, seed = seedFor()) => {
      const lv = O.generate(2, level, seed);
      const moves = [];
      const m = (t, answer) => moves.push({ t, answer });
      // helpers over the schedule
      const h = {
        at: (i, rt) => lv.appear[i] + rt,
        right: (i) => lv.prompt[i] ^ 1,
        wrongOf: (i) => {
          const a = r.below(lv.codes - 1);
          return a >= (lv.prompt[i] ^ 1) ? a + 1 : a;
        },
        rt: () => MIN + r.below(lv.window - MIN), // a reaction time in the window, not too fast
        // an increasing list of k reaction times in MIN..window-1
        rts: (k) => {
          const xs = [];
          for (let j = 0; j < k; j++) xs.push(MIN + r.below(lv.window - MIN));
          return xs.sort((a, b) => a - b);
        },
      };
      build(m, lv, h);
      if (moves.length > O.MAX_MOVES) throw new Error('opposites: too many moves');
      for (const v of [1, 2]) out.push(opCase(O.generate(v, level, seed), what, moves));
    };
    const N = O.generate(2, level, 0).count;

    add('every prompt answered 400 ms after it appears (the bench solution)', (m, lv) => {
      for (const mv of O.typicalSolution(lv)) m(mv.t, mv.answer);
    });
    add('clean run at random reaction times', (m, lv, h) => {
      for (let i = 0; i < N; i++) m(h.at(i, h.rt()), h.right(i));
    });
    add('every prompt answered at r = 150 ms: the most points', (m, lv, h) => {
      for (let i = 0; i < N; i++) m(h.at(i, MIN), h.right(i));
    });
    add('every prompt answered at r = window - 1: 100 points each', (m, lv, h) => {
      for (let i = 0; i < N; i++) m(h.at(i, lv.window - 1), h.right(i));
    });
    const ks = 1 + r.below(Math.min(4, N));
    add(`${ks} slip(s), each followed by the right answer later in the window`, (m, lv, h) => {
      const slips = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, ks));
      for (let i = 0; i < N; i++) {
        if (slips.has(i)) {
          const [a, b] = h.rts(2);
          m(h.at(i, a), h.wrongOf(i));
          m(h.at(i, b), h.right(i));
        } else m(h.at(i, h.rt()), h.right(i));
      }
    });
    add('zero to three wrong answers before the right one on every prompt', (m, lv, h) => {
      for (let i = 0; i < N; i++) {
        const w = r.below(4);
        const xs = h.rts(w + 1);
        for (let j = 0; j < w; j++) m(h.at(i, xs[j]), h.wrongOf(i));
        m(h.at(i, xs[w]), h.right(i));
      }
    });
    add('every prompt answered wrong twice', (m, lv, h) => {
      for (let i = 0; i < N; i++) {
        const [a, b] = h.rts(2);
        m(h.at(i, a), h.wrongOf(i));
        m(h.at(i, b), h.wrongOf(i));
      }
    });
    add('late answers: at r = window exactly, between prompts, and after a correct one', (m, lv, h) => {
      for (let i = 0; i < N - 1; i++) {
        const x = r.below(4);
        const lateT = () => h.at(i, lv.window + r.below(lv.appear[i + 1] - lv.appear[i] - lv.window));
        if (x === 0) m(h.at(i, lv.window), h.right(i));
        else if (x === 1) m(lateT(), r.below(lv.codes));
        else if (x === 2) {
          m(h.at(i, h.rt()), h.right(i));
          m(lateT(), h.right(i));
        } else m(h.at(i, h.rt()), h.right(i));
      }
      m(h.at(N - 1, h.rt()), h.right(N - 1));
    });
    add('repeated taps on prompts already answered (right or wrong)', (m, lv, h) => {
      for (let i = 0; i < N; i++) {
        const xs = h.rts(3);
        m(h.at(i, xs[0]), r.below(3) ? h.right(i) : h.wrongOf(i));
        m(h.at(i, xs[1]), r.below(lv.codes));
        if (r.below(2)) m(h.at(i, xs[2]), h.right(i));
      }
    });
    add('answers before the first prompt are ignored (no_prompt), then a clean run', (m, lv, h) => {
      const k = 1 + r.below(4);
      const ts = [];
      for (let j = 0; j < k; j++) ts.push(r.below(lv.appear[0]));
      ts.sort((a, b) => a - b);
      for (const t of ts) m(t, r.below(lv.codes));
      m(lv.appear[0] - 1, h.right(0));
      for (let i = 0; i < N; i++) m(h.at(i, h.rt()), h.right(i));
    });
    add('all but the last prompt answered, then answers at and after end_ms', (m, lv, h) => {
      for (let i = 0; i < N - 1; i++) m(h.at(i, h.rt()), h.right(i));
      m(lv.end, h.right(N - 1));
      m(lv.end + 1 + r.below(5000), r.below(lv.codes));
      m(lv.end - 100, lv.codes);
      m(MAXF, 255);
    });
    const kw = 1 + r.below(3);
    add(`every prompt answered once (${kw} wrong), then an out-of-range answer, a backwards time and t = 2^31-1`, (m, lv, h) => {
      const bad = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, kw));
      for (let i = 0; i < N; i++) m(h.at(i, h.rt()), bad.has(i) ? h.wrongOf(i) : h.right(i));
      const last = lv.appear[N - 1] + lv.window - 1;
      m(last, lv.codes + r.below(256 - lv.codes));
      m(last - 500, 0);
      m(MAXF, 0);
    });
    add('exactly half the prompts correct, the rest wrong or missed: completed', (m, lv, h) => {
      const good = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, N / 2));
      for (let i = 0; i < N; i++) {
        if (good.has(i)) m(h.at(i, h.rt()), h.right(i));
        else if (r.below(2)) m(h.at(i, h.rt()), h.wrongOf(i));
      }
    });
    add('one correct answer fewer than half: not completed', (m, lv, h) => {
      const good = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, N / 2 - 1));
      for (let i = 0; i < N; i++) {
        if (good.has(i)) m(h.at(i, h.rt()), h.right(i));
        else if (r.below(2)) m(h.at(i, h.rt()), h.wrongOf(i));
      }
    });
    add('unfinished: the first prompts answered, then nothing', (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), r.below(4) ? h.right(i) : h.wrongOf(i));
    });
    add('no moves at all', () => {});
    add('an answer under 150 ms after its prompt appeared is too fast', (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), h.right(i));
      m(h.at(k, r.below(MIN)), r.below(2) ? h.right(k) : h.wrongOf(k));
      m(h.at(k, MIN), h.right(k));
    });
    add('a wrong answer at r = 150, then taps 1..99 ms later: repeated in v1, counted in v2', (m, lv, h) => {
      const i = r.below(N);
      m(h.at(i, MIN), h.wrongOf(i));
      m(h.at(i, MIN + 1 + r.below(99)), h.wrongOf(i));
      m(h.at(i, MIN + 100 + r.below(lv.window - MIN - 100)), h.right(i));
    });
    add('time going backwards is rejected', (m, lv, h) => {
      const k = 1 + r.below(N - 1);
      let t = 0;
      for (let i = 0; i < k; i++) {
        t = h.at(i, h.rt());
        m(t, h.right(i));
      }
      m(t - 1 - r.below(300), h.right(k - 1));
    });
    add('an answer that is not a button of the level is rejected', (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), h.right(i));
      m(h.at(k, h.rt()), [lv.codes, lv.codes + 1 + r.below(254 - lv.codes), 255][r.below(3)]);
    });
    add('an out-of-range answer at end_ms is rejected (the range check comes before the end)', (m, lv, h) => {
      m(h.at(0, h.rt()), h.right(0));
      m(lv.end + r.below(3), lv.codes + r.below(256 - lv.codes));
    });
    add('an out-of-range answer before the first prompt is rejected', (m, lv) => {
      m(r.below(lv.appear[0]), lv.codes + r.below(256 - lv.codes));
    });
    add('the very first move comes at end_ms: nothing counts', (m, lv, h) => {
      m(lv.end, h.right(N - 1));
      m(lv.end + 10, h.right(0));
    });
    add('random legal answers at random times (never too fast)', (m, lv) => {
      let t = 0;
      const k = N + r.below(2 * N);
      for (let j = 0; j < k; j++) {
        t += r.below(Math.floor((lv.end + 1000) / k) * 2);
        // the answer belongs to the last prompt shown; nudge a too-fast moment to r = 150
        let p = -1;
        for (let i = 0; i < N; i++) if (lv.appear[i] <= t) p = i;
        if (p >= 0 && t - lv.appear[p] < MIN) t = lv.appear[p] + MIN;
        m(t, r.below(3) === 0 && p >= 0 ? lv.prompt[p] ^ 1 : r.below(lv.codes));
      }
    });
    add('random moves, legal and illegal', (m, lv) => {
      let t = 0;
      const k = N + r.below(2 * N);
      for (let j = 0; j < k; j++) {
        t = r.below(30) === 0 ? Math.max(0, t - 1 - r.below(200)) : t + r.below(Math.floor((lv.end + 1000) / k) * 2);
        m(t, r.below(30) === 0 ? lv.codes + r.below(256 - lv.codes) : r.below(lv.codes));
      }
    });
  }
  return out;
}

// Version 3 (the Hick's-law reaction floor): the kinds of versions 1 and 2 with
// every reaction time drawn from the level's floor (250, 300 or 350 ms) up to the
// window, and the floor at its value and 1 ms below for every code count. Each
// move list is replayed under version 3; the floor cases also under version 2
// (the same level, seed and moves: 150 ms is version 2's floor).
function oppositesReplaysV3(r) {
  const out = [];
  const O = opposites;
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());

  const opCase = (lv, what, moves) => {
    const c = replayCase(O, lv, what, moves);
    c.name = `${G}v${lv.version}, level ${lv.level} seed ${lv.seed}, ${what}`;
    return c;
  };

  for (let level = 1; level <= O.levels; level++) {
    const add = (what, build, twins = [], seed = seedFor()) => {
      const lv = O.generate(3, level, seed);
      const MIN = lv.minReaction;
      const moves = [];
      const m = (t, answer) => moves.push({ t, answer });
      const h = {
        MIN,
        at: (i, rt) => lv.appear[i] + rt,
        right: (i) => lv.prompt[i] ^ 1,
        wrongOf: (i) => {
          const a = r.below(lv.codes - 1);
          return a >= (lv.prompt[i] ^ 1) ? a + 1 : a;
        },
        rt: () => MIN + r.below(lv.window - MIN), // a reaction time in the window, at or above the floor
        rts: (k) => {
          const xs = [];
          for (let j = 0; j < k; j++) xs.push(MIN + r.below(lv.window - MIN));
          return xs.sort((a, b) => a - b);
        },
      };
      build(m, lv, h);
      if (moves.length > O.MAX_MOVES) throw new Error('opposites: too many moves');
      out.push(opCase(lv, what, moves));
      for (const v of twins) out.push(opCase(O.generate(v, level, seed), what, moves));
    };
    const N = O.generate(3, level, 0).count;
    const F = O.generate(3, level, 0).minReaction;

    add('every prompt answered 400 ms after it appears (the bench solution)', (m, lv) => {
      for (const mv of O.typicalSolution(lv)) m(mv.t, mv.answer);
    });
    add('clean run at random reaction times at or above the floor', (m, lv, h) => {
      for (let i = 0; i < N; i++) m(h.at(i, h.rt()), h.right(i));
    });
    add(`every prompt answered at r = ${F} ms (the reaction floor): the fastest legal run`, (m, lv, h) => {
      for (let i = 0; i < N; i++) m(h.at(i, F), h.right(i));
    }, [2]);
    const kf = r.below(N);
    add(`${kf} prompt(s) answered at the floor, then one at r = ${F - 1} ms: reaction_below_floor`, (m, lv, h) => {
      for (let i = 0; i < kf; i++) m(h.at(i, F), h.right(i));
      m(h.at(kf, F - 1), r.below(2) ? h.right(kf) : h.wrongOf(kf));
      if (kf + 1 < N) m(h.at(kf + 1, F), h.right(kf + 1));
    }, [2]);
    add(`an answer below the floor (r < ${F} ms) is rejected: reaction_below_floor (version 2: too_fast under 150)`, (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), h.right(i));
      m(h.at(k, r.below(F)), r.below(2) ? h.right(k) : h.wrongOf(k));
      m(h.at(k, F), h.right(k));
    }, [2]);
    add(`a wrong answer at the floor, then the right one 1..99 ms later: the prompt stayed open`, (m, lv, h) => {
      const i = r.below(N);
      m(h.at(i, F), h.wrongOf(i));
      m(h.at(i, F + 1 + r.below(99)), h.right(i));
    }, [2]);
    add('every prompt answered at r = window - 1: 100 points each', (m, lv, h) => {
      for (let i = 0; i < N; i++) m(h.at(i, lv.window - 1), h.right(i));
    });
    const ks = 1 + r.below(Math.min(4, N));
    add(`${ks} slip(s), each followed by the right answer later in the window`, (m, lv, h) => {
      const slips = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, ks));
      for (let i = 0; i < N; i++) {
        if (slips.has(i)) {
          const [a, b] = h.rts(2);
          m(h.at(i, a), h.wrongOf(i));
          m(h.at(i, b), h.right(i));
        } else m(h.at(i, h.rt()), h.right(i));
      }
    });
    add('zero to three wrong answers before the right one on every prompt', (m, lv, h) => {
      for (let i = 0; i < N; i++) {
        const w = r.below(4);
        const xs = h.rts(w + 1);
        for (let j = 0; j < w; j++) m(h.at(i, xs[j]), h.wrongOf(i));
        m(h.at(i, xs[w]), h.right(i));
      }
    });
    add('every prompt answered wrong twice', (m, lv, h) => {
      for (let i = 0; i < N; i++) {
        const [a, b] = h.rts(2);
        m(h.at(i, a), h.wrongOf(i));
        m(h.at(i, b), h.wrongOf(i));
      }
    });
    add('late answers: at r = window exactly, between prompts, and after a correct one', (m, lv, h) => {
      for (let i = 0; i < N - 1; i++) {
        const x = r.below(4);
        const lateT = () => h.at(i, lv.window + r.below(lv.appear[i + 1] - lv.appear[i] - lv.window));
        if (x === 0) m(h.at(i, lv.window), h.right(i));
        else if (x === 1) m(lateT(), r.below(lv.codes));
        else if (x === 2) {
          m(h.at(i, h.rt()), h.right(i));
          m(lateT(), h.right(i));
        } else m(h.at(i, h.rt()), h.right(i));
      }
      m(h.at(N - 1, h.rt()), h.right(N - 1));
    });
    add('repeated taps on prompts already answered (right or wrong)', (m, lv, h) => {
      for (let i = 0; i < N; i++) {
        const xs = h.rts(3);
        m(h.at(i, xs[0]), r.below(3) ? h.right(i) : h.wrongOf(i));
        m(h.at(i, xs[1]), r.below(lv.codes));
        if (r.below(2)) m(h.at(i, xs[2]), h.right(i));
      }
    });
    add('answers before the first prompt are ignored (no_prompt), then a clean run', (m, lv, h) => {
      const k = 1 + r.below(4);
      const ts = [];
      for (let j = 0; j < k; j++) ts.push(r.below(lv.appear[0]));
      ts.sort((a, b) => a - b);
      for (const t of ts) m(t, r.below(lv.codes));
      m(lv.appear[0] - 1, h.right(0));
      for (let i = 0; i < N; i++) m(h.at(i, h.rt()), h.right(i));
    });
    add('all but the last prompt answered, then answers at and after end_ms', (m, lv, h) => {
      for (let i = 0; i < N - 1; i++) m(h.at(i, h.rt()), h.right(i));
      m(lv.end, h.right(N - 1));
      m(lv.end + 1 + r.below(5000), r.below(lv.codes));
      m(lv.end - 100, lv.codes);
      m(MAXF, 255);
    });
    const kw = 1 + r.below(3);
    add(`every prompt answered once (${kw} wrong), then an out-of-range answer, a backwards time and t = 2^31-1`, (m, lv, h) => {
      const bad = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, kw));
      for (let i = 0; i < N; i++) m(h.at(i, h.rt()), bad.has(i) ? h.wrongOf(i) : h.right(i));
      const last = lv.appear[N - 1] + lv.window - 1;
      m(last, lv.codes + r.below(256 - lv.codes));
      m(last - 500, 0);
      m(MAXF, 0);
    });
    add('exactly half the prompts correct, the rest wrong or missed: completed', (m, lv, h) => {
      const good = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, N / 2));
      for (let i = 0; i < N; i++) {
        if (good.has(i)) m(h.at(i, h.rt()), h.right(i));
        else if (r.below(2)) m(h.at(i, h.rt()), h.wrongOf(i));
      }
    });
    add('one correct answer fewer than half: not completed', (m, lv, h) => {
      const good = new Set(r.shuffle(Array.from({ length: N }, (_, i) => i)).slice(0, N / 2 - 1));
      for (let i = 0; i < N; i++) {
        if (good.has(i)) m(h.at(i, h.rt()), h.right(i));
        else if (r.below(2)) m(h.at(i, h.rt()), h.wrongOf(i));
      }
    });
    add('unfinished: the first prompts answered, then nothing', (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), r.below(4) ? h.right(i) : h.wrongOf(i));
    });
    add('no moves at all', () => {});
    add('time going backwards is rejected', (m, lv, h) => {
      const k = 1 + r.below(N - 1);
      let t = 0;
      for (let i = 0; i < k; i++) {
        t = h.at(i, h.rt());
        m(t, h.right(i));
      }
      m(t - 1 - r.below(300), h.right(k - 1));
    });
    add('an answer that is not a button of the level is rejected', (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), h.right(i));
      m(h.at(k, h.rt()), [lv.codes, lv.codes + 1 + r.below(254 - lv.codes), 255][r.below(3)]);
    });
    add('an out-of-range answer below the floor is answer_out_of_range (rule 2 before rule 8)', (m, lv, h) => {
      const k = r.below(N);
      for (let i = 0; i < k; i++) m(h.at(i, h.rt()), h.right(i));
      m(h.at(k, r.below(F)), lv.codes + r.below(256 - lv.codes));
    });
    add('an out-of-range answer at end_ms is rejected (the range check comes before the end)', (m, lv, h) => {
      m(h.at(0, h.rt()), h.right(0));
      m(lv.end + r.below(3), lv.codes + r.below(256 - lv.codes));
    });
    add('an out-of-range answer before the first prompt is rejected', (m, lv) => {
      m(r.below(lv.appear[0]), lv.codes + r.below(256 - lv.codes));
    });
    add('the very first move comes at end_ms: nothing counts', (m, lv, h) => {
      m(lv.end, h.right(N - 1));
      m(lv.end + 10, h.right(0));
    });
    add('random legal answers at random times (never below the floor)', (m, lv, h) => {
      let t = 0;
      const k = N + r.below(2 * N);
      for (let j = 0; j < k; j++) {
        t += r.below(Math.floor((lv.end + 1000) / k) * 2);
        // the answer belongs to the last prompt shown; nudge a moment below the floor up to it
        let p = -1;
        for (let i = 0; i < N; i++) if (lv.appear[i] <= t) p = i;
        if (p >= 0 && t - lv.appear[p] < h.MIN) t = lv.appear[p] + h.MIN;
        m(t, r.below(3) === 0 && p >= 0 ? lv.prompt[p] ^ 1 : r.below(lv.codes));
      }
    });
    add('random moves, legal and illegal', (m, lv) => {
      let t = 0;
      const k = N + r.below(2 * N);
      for (let j = 0; j < k; j++) {
        t = r.below(30) === 0 ? Math.max(0, t - 1 - r.below(200)) : t + r.below(Math.floor((lv.end + 1000) / k) * 2);
        m(t, r.below(30) === 0 ? lv.codes + r.below(256 - lv.codes) : r.below(lv.codes));
      }
    });
  }
  return out;
}

// ---- level cases --------------------------------------------------------------

// `extra(level, version)` may add [seed, note] pairs; every board is written under
// each of `versions`; `prefixed`: the name starts with the version ("version 2
// level ..."; the first cases of a game that then had one version are unprefixed).
// The seeds come from `r` alone, so a pass over new versions with a fresh stream of
// the same label writes the same boards as the first pass.
function levelCases(game, r, describe, extra = () => [], versions = [1], prefixed = false) {
  const out = [];
  for (let level = 1; level <= game.levels; level++) {
    const seeds = [];
    for (let s = 0; s < 10; s++) seeds.push(s);
    seeds.push(42, 2 ** 31, 2 ** 32 - 1);
    while (seeds.length < 19) {
      const s = r.next();
      if (!seeds.includes(s)) seeds.push(s);
    }
    const byVersion = new Map();
    for (const v of versions) {
      const notes = new Map(seeds.map((s) => [s, '']));
      for (const [s, note] of extra(level, v)) {
        if (!notes.has(s)) notes.set(s, `, ${note}`);
      }
      byVersion.set(v, notes);
    }
    // every seed of any version's list, in the order the lists name them
    const order = [];
    for (const notes of byVersion.values()) for (const s of notes.keys()) if (!order.includes(s)) order.push(s);
    for (const seed of order) {
      for (const v of versions) {
        const note = byVersion.get(v).get(seed);
        if (note === undefined) continue;
        const lv = game.generate(v, level, seed);
        const vname = prefixed ? `version ${v} ` : '';
        out.push({
          name: `${G}${vname}level ${level} seed ${seed} (${describe(lv)}${note})`,
          version: v,
          level,
          seed,
          expect: game.describeLevel(lv),
        });
      }
    }
  }
  return out;
}

// ---- generation parameters: generated twins ---------------------------------------

const paramText = (params) => Object.keys(params).map((k) => `${k} ${params[k]}`).join(', ');

/**
 * The `generated:` twins (docs/VECTORS.md: the `levels` cases with `params` "stay
 * `hand:` cases until the port's `generated:` twins reproduce them"; Contraption
 * 12: "the independent port's `generated:` twins check them"): for every hand
 * `levels` case with `params` and an `expect` (the refused ones aside), the same
 * (version, level, seed, params) with the port's whole `gen` output, in the hand
 * cases' order; then `natural`, [version, level, seed, params?] inputs a spec names
 * (the Driftlings window and fallback seeds). No random draw: the streams of the
 * other generated cases are untouched. A twin is written once per input.
 */
function twinCases(game, json, describe, natural = []) {
  const inputs = [];
  for (const c of keepHand(json.levels)) {
    if (c.params && 'expect' in c) inputs.push({ what: 'parameters', version: c.version, level: c.level, seed: c.seed, params: c.params });
  }
  for (const [version, level, seed, params] of natural) inputs.push({ what: 'natural seed', version, level, seed, params });
  const out = [];
  const seen = new Set();
  for (const x of inputs) {
    const key = JSON.stringify([x.version, x.level, x.seed, x.params || {}]);
    if (seen.has(key)) continue;
    seen.add(key);
    const lv = game.generate(x.version, x.level, x.seed, x.params);
    const c = {
      name: `${G}${x.what}, version ${x.version} level ${x.level} seed ${x.seed}${x.params ? ` with ${paramText(x.params)}` : ''} (${describe(lv)})`,
      version: x.version,
      level: x.level,
      seed: x.seed,
    };
    if (x.params) c.params = { ...x.params };
    c.expect = game.describeLevel(lv);
    out.push(c);
  }
  return out;
}

/**
 * Writes a game file: the hand cases, then the generated cases of the versions
 * the game had before (`old`: {versions, prefixed, replays: r => cases}), then
 * those of each new version (`added`: [{versions, replays: r => cases}], every
 * name naming its version). The old cases keep their streams, so they stay as
 * they were; the new ones use streams of their own (`<game>:replays:v<N>`; the
 * boards reuse `<game>:levels`, so every version gets the same seeds).
 */
function genGame(game, file, old, added, describe, extra, layout, json = load(file), natural = []) {
  const levelsOut = levelCases(game, streamFor(`${game.name}:levels`), describe, extra, old.versions, old.prefixed);
  const replaysOut = old.replays(streamFor(`${game.name}:replays`));
  for (const a of added) {
    levelsOut.push(...levelCases(game, streamFor(`${game.name}:levels`), describe, extra, a.versions, true));
    replaysOut.push(...a.replays(streamFor(`${game.name}:replays:v${a.versions.join('-')}`)));
  }
  const twins = twinCases(game, json, describe, natural);
  levelsOut.push(...twins);
  json.levels = keepHand(json.levels).concat(levelsOut);
  json.replays = keepHand(json.replays).concat(replaysOut);
  uniqueNames(json.levels);
  uniqueNames(json.replays);
  save(file, json, layout);
  const per = (list) => {
    const o = {};
    for (const c of list) o[c.version] = (o[c.version] || 0) + 1;
    return o;
  };
  return { levels: levelsOut.length, replays: replaysOut.length, levels_by_version: per(levelsOut), replays_by_version: per(replaysOut), twins: twins.length };
}

// ---- Contraption ----------------------------------------------------------------

const CX = contraption;

/** A placement builder: applies moves on a scratch state until the first rejection. */
class Machine {
  /** `gapOf()`: from version 2, the time from one move to the next when a move names no `t`. */
  constructor(lv, gapOf = null) {
    this.lv = lv;
    this.st = CX.start(lv);
    this.moves = [];
    this.dead = false;
    this.codes = [];
    this.gapOf = gapOf;
    this.timed = CX.fieldsOf(lv.version).includes('t'); // version 2's moves carry t
    this.t = 0; // the t of the last move given (version 2)
  }
  /** Records `m` (a fresh object) and applies it unless a move was rejected already. */
  move(part, x, y, angle, t = null) {
    const m = { part, x, y, angle };
    if (this.timed) {
      m.t = t === null ? this.t + this.gapOf() : t;
      this.t = m.t;
    }
    this.moves.push(m);
    if (!this.dead) {
      const code = CX.apply(this.st, m);
      this.codes.push(code);
      if (CX.kindOf(code) === 'rejected') this.dead = true;
    }
    return this;
  }
  /** The code `m` would get now, without recording it. */
  peek(part, x, y, angle) {
    return CX.check({ part, x, y, angle }, this.lv.walls, this.st.placed, this.st.left)[0];
  }
  get left() {
    return this.st.left;
  }
  get last() {
    return this.codes[this.codes.length - 1];
  }
}

// Both versions generate the same levels, so the scan runs once per level.
const cxExtremes = new Map();
function contraptionExtremes(level) {
  if (!cxExtremes.has(level)) cxExtremes.set(level, contraptionScan(level));
  return cxExtremes.get(level);
}

function contraptionScan(level) {
  let att = [-1, 0];
  let pre = [-1, 0];
  let drop = [-1, 0];
  for (let seed = 0; seed < 100; seed++) {
    const lv = CX.generate(1, level, seed);
    if (lv.attempts > att[0]) att = [lv.attempts, seed];
    if (lv.preSolved > pre[0]) pre = [lv.preSolved, seed];
    if (lv.dropped > drop[0]) drop = [lv.dropped, seed];
  }
  return [
    [att[1], `the most attempts over seeds 0..99: ${att[0]}`],
    [pre[1], `the most pre-solved candidates over seeds 0..99: ${pre[0]}`],
    [drop[1], `the most dropped walls over seeds 0..99: ${drop[0]}`],
  ];
}

/**
 * The replay kinds of version `v`. Version 1's cases are the file's first
 * generated replays; version 2 (its own stream) plays the same kinds with every
 * placement timed (1,000..9,999 ms after the previous one, a quarter of them at
 * exactly 1,000), then the kinds of section 5.1's time rules.
 */
function contraptionReplays(r, v = 1) {
  const out = [];
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const gapOf = () => (r.below(4) === 0 ? CX.PART_GAP_MS : CX.PART_GAP_MS + r.below(9000));
  const mk = v === 1 ? replayCase : vCase;
  const pick = (list) => list[r.below(list.length)];
  const angleOf = () => (r.below(6) === 0 ? pick([0, 450, -450, 800, -800, 1400, -1400]) : r.below(2801) - 1400);
  const kinds = (mc) => [0, 1].filter((k) => mc.left[k] > 0);
  // A random legal placement of a kind still granted (null if none found).
  const legal = (mc, kind = null, tries = 400) => {
    const ks = kind === null ? kinds(mc) : [kind];
    if (!ks.length || ks.some((k) => mc.left[k] <= 0)) return null;
    for (let i = 0; i < tries; i++) {
      const m = [pick(ks), r.below(101), r.below(141), angleOf()];
      if (mc.peek(...m) === 'placed') return m;
    }
    return null;
  };
  const place = (mc, kind = null) => {
    const m = legal(mc, kind);
    if (m) mc.move(...m);
    return m !== null;
  };
  const plan = (mc) => { for (const m of mc.lv.plan) mc.move(m.part, m.x, m.y, m.angle); };
  // Finds a move with the wanted code by sampling `gen` (null if none found).
  const find = (mc, code, gen, tries = 2000) => {
    for (let i = 0; i < tries; i++) {
      const m = gen();
      if (mc.peek(...m) === code) return m;
    }
    return null;
  };
  const anyKind = (mc) => (kinds(mc).length ? pick(kinds(mc)) : 0);

  for (let level = 1; level <= CX.levels; level++) {
    // build(mc) returns false when it could not make its case on this level: another seed is tried.
    const add = (what, build) => {
      for (let k = 0; k < 50; k++) {
        const lv = CX.generate(v, level, seedFor());
        const mc = new Machine(lv, gapOf);
        if (build(mc, lv) === false) continue;
        out.push(mk(CX, lv, what, mc.moves));
        return;
      }
      throw new Error(`contraption level ${level}: no seed for "${what}"`);
    };
    const row = CX.levelRow(level);

    add(v === 1 ? 'the sweep\'s plan (the bench solution)' : 'the sweep\'s plan at t = 1000 (the bench solution): duration_ms = 1000 + 20 x ticks', (mc, lv) => {
      if (!lv.plan.length) return false;
      if (v === 1) plan(mc);
      else for (const m of CX.typicalSolution(lv)) mc.move(m.part, m.x, m.y, m.angle, m.t);
    });
    add('no moves: the bare ball', () => {});
    add('the plan plus every spare part at a random legal spot', (mc, lv) => {
      plan(mc);
      while (kinds(mc).length) if (!place(mc)) return false;
    });
    add('the plan plus one spare part at a random legal spot', (mc, lv) => {
      if (!lv.plan.length) return false;
      plan(mc);
      if (!place(mc)) return false;
    });
    add('a random legal machine: every granted part at a random legal spot', (mc) => {
      while (kinds(mc).length) if (!place(mc)) return false;
    });
    add('one random legal part', (mc) => {
      if (!place(mc)) return false;
    });
    add('the plan shifted by one unit or a few milliradians', (mc, lv) => {
      if (!lv.plan.length) return false;
      const p = lv.plan[0];
      const d = pick([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1 + r.below(30)], [0, 0, -1 - r.below(30)]]);
      if (mc.peek(0, p.x + d[0], p.y + d[1], p.angle + d[2]) !== 'placed') return false;
      mc.move(0, p.x + d[0], p.y + d[1], p.angle + d[2]);
    });
    add('another legal sweep placement (a grid point and angle of the sweep)', (mc) => {
      const m = find(mc, 'placed', () => [0, pick(CX.SWEEP_X), pick(CX.SWEEP_Y), pick(CX.SWEEP_ANGLE)], 200);
      if (!m) return false;
      mc.move(...m);
    });
    add(row.fans ? 'the plan, then a fan at a random legal spot' : 'the plan, then every ramp left',
      (mc, lv) => {
        plan(mc);
        if (row.fans) return place(mc, 1);
        while (mc.left[0] > 0) if (!place(mc, 0)) return false;
      });
    add(row.fans ? 'every fan used up, then one more: no_part_left' : 'a fan on a level without fans: no_part_left',
      (mc) => {
        for (let i = r.below(2); i > 0 && mc.left[0] > 0; i--) if (!place(mc, 0)) return false;
        while (mc.left[1] > 0) if (!place(mc, 1)) return false;
        const m = [1, r.below(101), r.below(141), angleOf()];
        mc.move(...m);
        if (mc.last !== 'no_part_left') return false;
        if (r.below(2)) place(mc);
      });
    add('every ramp used up, then one more ramp: no_part_left (checked before the angle)', (mc) => {
      while (mc.left[0] > 0) if (!place(mc, 0)) return false;
      mc.move(0, r.below(2) ? r.below(101) : -5, r.below(141), r.below(2) ? angleOf() : 5000);
      if (mc.last !== 'no_part_left') return false;
    });
    add('an angle past +-1400: bad_angle (before the field checks)', (mc) => {
      for (let i = r.below(3); i > 0; i--) if (kinds(mc).length > 1 || mc.left[0] > 1) place(mc);
      const a = pick([1401, -1401, 1401 + r.below(98600), -1401 - r.below(98600), 100000, -100000]);
      const x = r.below(3) ? r.below(101) : pick([-10000, 10000, -1, 101]);
      mc.move(anyKind(mc), x, r.below(141), a);
      if (mc.last !== 'bad_angle') return false;
      mc.move(anyKind(mc), 50, 50, 0);
    });
    add('a centre off the field: out_of_field', (mc) => {
      if (r.below(2)) place(mc);
      if (!kinds(mc).length) return false;
      const off = pick([-1, -2 - r.below(9998), 101, 102 + r.below(9898), -10000, 10000]);
      const m = r.below(2) ? [anyKind(mc), off, r.below(141), angleOf()]
        : [anyKind(mc), r.below(101), off > 0 ? Math.min(10000, off + 40) : off, angleOf()];
      mc.move(...m);
      if (mc.last !== 'out_of_field') return false;
    });
    add('a footprint past an edge (the centre inside): out_of_field', (mc) => {
      if (r.below(2)) place(mc);
      if (!kinds(mc).length) return false;
      const k = anyKind(mc);
      const m = find(mc, 'out_of_field', () => {
        const e = r.below(4);
        const near = r.below(14);
        const x = e === 0 ? near : e === 1 ? 100 - near : r.below(101);
        const y = e === 2 ? near : e === 3 ? 140 - near : r.below(141);
        return [k, x, y, angleOf()];
      });
      if (!m) return false;
      mc.move(...m);
    });
    add('a footprint touching an edge of the field is inside', (mc) => {
      const k = anyKind(mc);
      const m = find(mc, 'placed', () => {
        const a = k === 1 ? angleOf() : pick([0, 0, 450, -450, 800, -800, angleOf()]);
        const p = CX.partOf({ part: k, x: 0, y: 0, angle: a });
        const ex = p.box[2];
        const ey = p.box[3];
        const e = r.below(4);
        const ux = ex / 256;
        const uy = ey / 256;
        if ((e < 2 && !Number.isInteger(ux)) || (e >= 2 && !Number.isInteger(uy))) return [k, -1, -1, a];
        const x = e === 0 ? ux : e === 1 ? 100 - ux : r.below(101);
        const y = e === 2 ? uy : e === 3 ? 140 - uy : r.below(141);
        return [k, x, y, a];
      }, 4000);
      if (!m) return false;
      mc.move(...m);
    });
    add('a footprint on a level wall: overlaps_wall', (mc, lv) => {
      if (r.below(2)) place(mc);
      if (!kinds(mc).length) return false;
      const k = anyKind(mc);
      const m = find(mc, 'overlaps_wall', () => {
        const w = r.below(3) === 0 ? lv.walls[0] : pick(lv.walls);
        return [k, w[0] - 8 + r.below(w[2] - w[0] + 16), w[1] - 8 + r.below(w[3] - w[1] + 16), angleOf()];
      });
      if (!m) return false;
      mc.move(...m);
      if (r.below(2)) place(mc);
    });
    add(row.fans ? 'a fan footprint touching a level wall is legal' : 'a flat ramp footprint touching a level wall is legal', (mc, lv) => {
      if (mc.left[1] > 0) {
        const m = find(mc, 'placed', () => {
          const w = pick(lv.walls);
          const e = r.below(4);
          const x = e === 0 ? w[0] - 8 : e === 1 ? w[2] + 8 : w[0] + r.below(w[2] - w[0]);
          const y = e === 2 ? w[1] - 8 : e === 3 ? w[3] + 8 : w[1] + r.below(w[3] - w[1]);
          return [1, x, y, angleOf()];
        });
        if (!m) return false;
        mc.move(...m);
        return;
      }
      // no fan: a flat ramp (footprint 12 x 2 units each side) touching a wall from above or below
      const m = find(mc, 'placed', () => {
        const w = pick(lv.walls);
        const y = r.below(2) ? w[1] - 2 : w[3] + 2;
        return [0, w[0] - 11 + r.below(w[2] - w[0] + 22), y, 0];
      });
      if (!m) return false;
      mc.move(...m);
    });
    add('a part overlapping one placed earlier: overlaps_part', (mc) => {
      if (kinds(mc).length === 0) return false;
      const first = legal(mc);
      if (!first) return false;
      mc.move(...first);
      if (!kinds(mc).length) return false;
      const k = anyKind(mc);
      const m = find(mc, 'overlaps_part', () => [k, first[1] - 14 + r.below(29), first[2] - 14 + r.below(29), angleOf()]);
      if (!m) return false;
      mc.move(...m);
    });
    add('parts off the grid: the decoder\'s extremes (+-10000) and the field\'s edges (0, 100, 140)', (mc) => {
      if (r.below(2)) place(mc);
      const x = pick([-10000, 10000, 0, 100, -10000]);
      const y = pick([-10000, 10000, 0, 140, 10000]);
      mc.move(anyKind(mc), x, y, pick([0, 1400, -1400, 100000, -100000]));
      mc.move(anyKind(mc), 50, 70, 0);
    });
    add('random placements, legal and illegal', (mc) => {
      for (let i = 0; i < 8 && !mc.dead; i++) {
        const x = r.below(4) ? r.below(101) : r.below(20001) - 10000;
        const y = r.below(4) ? r.below(141) : r.below(20001) - 10000;
        const a = r.below(5) ? angleOf() : r.below(200001) - 100000;
        // version 2: a fifth of the moves at a random time near the previous one (often too fast or backwards)
        mc.move(r.below(2), x, y, a, v >= 2 && r.below(5) === 0 ? Math.max(0, mc.t + r.below(2000) - 600) : null);
      }
    });
    if (v >= 2) contraptionTimeKinds(r, add, pick, legal, place, find, angleOf);
  }
  return out;
}

/** Version 2's own kinds (section 5.1): each time rule at its edge, after the placement checks. */
function contraptionTimeKinds(r, add, pick, legal, place, find, angleOf) {
  const planAt = (mc, lv, t) => {
    const p = lv.plan[0];
    mc.move(p.part, p.x, p.y, p.angle, t);
  };
  add('the plan at t = 999, 1 ms below the part gap: too_fast', (mc, lv) => {
    if (!lv.plan.length) return false;
    planAt(mc, lv, 999);
  });
  add('a first placement before t = 1000 is too fast', (mc) => {
    const m = legal(mc);
    if (!m) return false;
    mc.move(...m, r.below(1000));
  });
  add('the plan at a later time: duration_ms counts from its t', (mc, lv) => {
    if (!lv.plan.length) return false;
    planAt(mc, lv, 1000 + r.below(60000));
  });
  for (const gap of [1000, 999, 0]) {
    const what = gap === 1000 ? 'a second part exactly 1000 ms after the first is placed'
      : gap === 999 ? 'a second part 999 ms after the first is too_fast'
        : 'a second part at the same t as the first is too_fast (not backwards)';
    add(what, (mc) => {
      if (!place(mc)) return false;
      const m = legal(mc);
      if (!m) return false;
      mc.move(...m, mc.t + gap);
    });
  }
  add('a second part 1 ms before the first is time_backwards', (mc) => {
    if (!place(mc)) return false;
    const m = legal(mc);
    if (!m) return false;
    mc.move(...m, mc.t - 1);
  });
  add('every granted part placed exactly 1000 ms apart from t = 1000', (mc) => {
    let t = 1000;
    while ([0, 1].some((k) => mc.left[k] > 0)) {
      const m = legal(mc);
      if (!m) return false;
      mc.move(...m, t);
      t += 1000;
    }
  });
  add('a placement rule failing at a time that is also too fast or backwards: the placement code', (mc, lv) => {
    if (r.below(2) && !place(mc)) return false;
    const k = [0, 1].find((q) => mc.left[q] > 0) ?? 0;
    const t = mc.moves.length ? pick([mc.t - 1 - r.below(500), mc.t + r.below(1000)]) : r.below(1000);
    const x = r.below(5);
    let m = null;
    if (x === 0) m = [k, r.below(101), r.below(141), pick([1401, -1401, 100000])];
    else if (x === 1) m = [k, pick([-1, 101, -10000]), r.below(141), angleOf()];
    else if (x === 2) m = [[0, 1].find((q) => mc.left[q] === 0) ?? 1, r.below(101), r.below(141), angleOf()];
    else if (x === 3) {
      const w = pick(lv.walls);
      m = find(mc, 'overlaps_wall', () => [k, w[0] - 4 + r.below(w[2] - w[0] + 8), w[1] - 4 + r.below(w[3] - w[1] + 8), angleOf()]);
    } else if (mc.moves.length) {
      const f = mc.moves[0];
      m = find(mc, 'overlaps_part', () => [k, f.x - 10 + r.below(21), f.y - 10 + r.below(21), angleOf()]);
    }
    if (!m || mc.peek(...m) === 'placed') return false;
    mc.move(...m, Math.max(0, t));
  });
}

const contraptionReplaysV2 = (r) => contraptionReplays(r, 2);

function contraptionTrig() {
  const out = [];
  for (let m = -1400; m <= 1400; m++) {
    const [sin, cos] = CX.trig(m);
    out.push({ name: `${G}trig(${m})`, mrad: m, sin, cos });
  }
  return out;
}

function contraptionTraces(r) {
  const out = [];
  const pick = (list) => list[r.below(list.length)];
  const SHORT = 160;
  for (let level = 1; level <= CX.levels; level++) {
    for (const kind of ['plan', 'random']) {
      for (let k = 0; k < 100; k++) {
        const seed = r.below(4) === 0 ? r.below(100) : r.next();
        const lv = CX.generate(1, level, seed);
        const st = CX.start(lv);
        if (kind === 'plan') for (const m of lv.plan) CX.apply(st, m);
        const want = kind === 'plan' ? r.below(2) : 1 + r.below(lv.inventory.ramp + lv.inventory.fan);
        for (let tries = 0; tries < 400 && st.placed.length < lv.plan.length + want; tries++) {
          const ks = [0, 1].filter((q) => st.left[q] > 0);
          if (!ks.length) break;
          CX.apply(st, { part: pick(ks), x: r.below(101), y: r.below(141), angle: r.below(2801) - 1400 });
        }
        const moves = CX.describeState(st).placed;
        const field = CX.fieldOf(lv);
        const t = CX.trace(field, moves);
        if (t.ticks.length > SHORT || t.run.end === CX.END.cap) continue;
        const ends = ['goal', 'out', 'rest', 'cap'];
        const what = kind === 'plan'
          ? `the plan${moves.length > lv.plan.length ? ' and a spare part' : ''}`
          : `${moves.length} random legal part(s)`;
        out.push({
          name: `${G}level ${level} seed ${seed}: ${what} (${ends[t.run.end]} after ${t.run.ticks} ticks)`,
          field: { ball: field.ball.slice(), goal: field.goal.slice(), walls: field.walls.map((w) => w.slice()) },
          moves,
          ticks: t.ticks,
          run: t.run,
        });
        break;
      }
    }
  }
  return out;
}

function contraptionDaily(r) {
  const out = [];
  const days = [];
  const first2 = core.dayNumber(core.SCHEDULE[1].first);
  // the first 30 Contraption days of era 2 (every fifth day from its first)
  let d0 = first2;
  while (core.daily(core.dateOfDay(d0)).game !== 'contraption') d0++;
  for (let k = 0; k < 30; k++) days.push(d0 + 5 * k);
  for (const d of ['2026-12-07', '2027-01-01', '2027-02-28', '2028-02-29', '2099-12-31', '2100-01-01',
    '2400-02-29', '9999-12-30']) days.push(core.dayNumber(d));
  const lastDay = core.dayNumber('9999-12-31');
  for (let i = 0; i < 20; i++) days.push(r.below(lastDay + 1));
  const seen = new Set();
  for (const day of days) {
    if (seen.has(day)) continue;
    seen.add(day);
    const date = core.dateOfDay(day);
    const text = CX.dailyText(date);
    const d = core.daily(date);
    const note = d && d.game === 'contraption' ? ` (the day's game, level ${d.level})` : '';
    out.push({ name: `${G}${text}${note}`, date, text, seed: CX.dailySeed(date) });
  }
  return out;
}

function genContraption() {
  const json = load('contraption.json');
  const own = {
    trig: contraptionTrig(),
    traces: contraptionTraces(streamFor('contraption:traces')),
    daily: contraptionDaily(streamFor('contraption:daily')),
  };
  for (const k of Object.keys(own)) {
    json[k] = keepHand(json[k]).concat(own[k]);
    uniqueNames(json[k]);
  }
  const counts = genGame(CX, 'contraption.json', { versions: [1], prefixed: false, replays: contraptionReplays },
    [{ versions: [2], replays: contraptionReplaysV2 }],
    (lv) => `${lv.walls.length - 1} wall${lv.walls.length === 2 ? '' : 's'}, goal ${lv.row.goalW} wide, ${lv.row.ramps} ramp(s) ${lv.row.fans} fan(s)${lv.fallback ? ', fallback' : ''}`,
    contraptionExtremes, 'inline', json);
  return { ...Object.fromEntries(Object.entries(own).map(([k, v]) => [k, v.length])), ...counts };
}

// ---- Driftlings -------------------------------------------------------------------

const DL = driftlings;

/** A move list builder: applies the moves on a scratch state until the first rejection. */
class Crowd {
  constructor(lv) {
    this.lv = lv;
    this.st = DL.start(lv);
    this.moves = [];
    this.dead = false;
    this.codes = [];
  }
  move(tick, walker, skill) {
    const m = { tick, walker, skill };
    this.moves.push(m);
    if (!this.dead) {
      const code = DL.apply(this.st, m);
      this.codes.push(code);
      if (DL.kindOf(code) === 'rejected') this.dead = true;
    }
    return this;
  }
  list(moves) {
    for (const m of moves) this.move(m.tick, m.walker, m.skill);
    return this;
  }
}

/** Walkers spawned once `tick` ticks have run. */
const spawnedAfter = (lv, tick) => (tick <= 0 ? 0 : Math.min(lv.crowd, Math.floor((tick - 1) / lv.interval) + 1));
const byTick = (moves) => moves.map((m, i) => [m, i]).sort((a, b) => a[0].tick - b[0].tick || a[1] - b[1]).map((x) => x[0]);

// The crowd gate differs between the versions, so each version scans its own levels.
function driftlingsExtremes(level, v = 1) {
  let cand = [-1, 0];
  let exp = [-1, 0];
  let plan = [-1, 0];
  for (let seed = 0; seed < 100; seed++) {
    const lv = DL.generate(v, level, seed);
    if (lv.metrics.candidates > cand[0]) cand = [lv.metrics.candidates, seed];
    if (lv.metrics.expansions > exp[0]) exp = [lv.metrics.expansions, seed];
    if (lv.plan.length > plan[0]) plan = [lv.plan.length, seed];
  }
  return [
    [cand[1], `the most candidates over seeds 0..99: ${cand[0]}`],
    [exp[1], `the most expansions over seeds 0..99: ${exp[0]}`],
    [plan[1], `the longest plan over seeds 0..99: ${plan[0]} moves`],
  ];
}

/**
 * The replay kinds of version `v` (version 2 on its own stream, over version 2's
 * levels: the moves are the same kinds; the result's duration_ms runs to the end).
 */
function driftlingsReplays(r, v = 1) {
  const out = [];
  const seedFor = () => (r.below(4) === 0 ? r.below(100) : r.next());
  const mk = v === 1 ? replayCase : vCase;
  const pick = (list) => list[r.below(list.length)];
  const stocked = (lv) => [0, 1, 2, 3, 4].filter((s) => lv.inventory[s] > 0);
  const unstocked = (lv) => [0, 1, 2, 3, 4].filter((s) => lv.inventory[s] === 0);
  const routeOf = (lv) => lv.metrics.route_ticks;
  for (let level = 1; level <= DL.levels; level++) {
    // build(c, lv) returns false when it could not make its case on this level: another seed is tried.
    const add = (what, build) => {
      for (let k = 0; k < 50; k++) {
        const lv = DL.generate(v, level, seedFor());
        const c = new Crowd(lv);
        if (build(c, lv) === false) continue;
        out.push(mk(DL, lv, what, c.moves));
        return;
      }
      throw new Error(`driftlings level ${level}: no seed for "${what}"`);
    };
    add('the crowd plan (the bench solution)', (c, lv) => { c.list(lv.plan); });
    add('no moves: the crowd walks unaided', () => {});
    add('the plan with one move a few ticks off (a wrong tick)', (c, lv) => {
      const moves = lv.plan.map((m) => ({ ...m }));
      const i = r.below(moves.length);
      moves[i].tick = Math.max(0, moves[i].tick + pick([-3, -2, -1, 1, 2, 3]));
      c.list(byTick(moves));
    });
    add('the plan with one move given to another walker (a wrong walker)', (c, lv) => {
      const moves = lv.plan.map((m) => ({ ...m }));
      const i = r.below(moves.length);
      moves[i].walker = (moves[i].walker + 1 + r.below(lv.crowd - 1)) % lv.crowd;
      c.list(moves);
    });
    add('the plan plus an extra skill of a stocked kind at a random tick (often skill_exhausted)', (c, lv) => {
      const t = 1 + r.below(routeOf(lv) + 10);
      const n = spawnedAfter(lv, t);
      c.list(byTick(lv.plan.concat([{ tick: t, walker: r.below(n), skill: pick(stocked(lv)) }])));
    });
    add('the plan with a skill the level does not stock slipped in', (c, lv) => {
      const t = 1 + r.below(routeOf(lv));
      const n = spawnedAfter(lv, t);
      c.list(byTick(lv.plan.concat([{ tick: t, walker: r.below(n), skill: pick(unstocked(lv)) }])));
      if (!c.codes.includes('skill_exhausted')) return false;
    });
    add('a move for a walker not yet spawned is rejected', (c, lv) => {
      const cut = r.below(lv.plan.length + 1);
      const prefix = lv.plan.slice(0, cut);
      const t0 = prefix.length ? prefix[prefix.length - 1].tick : 0;
      const t = t0 + r.below(3 * lv.interval);
      const n = spawnedAfter(lv, t);
      if (n >= lv.crowd) return false;
      c.list(prefix);
      c.move(t, n + r.below(lv.crowd - n), pick(stocked(lv)));
      c.list(lv.plan.slice(cut));
    });
    add('ticks going backwards are rejected', (c, lv) => {
      const cut = 1 + r.below(lv.plan.length);
      c.list(lv.plan.slice(0, cut));
      const t0 = lv.plan[cut - 1].tick;
      c.move(t0 - 1 - r.below(Math.min(t0, 20)), 0, pick([0, 1, 2, 3, 4]));
      c.list(lv.plan.slice(cut));
    });
    add(v === 1 ? 'the plan, then moves at and after the cap (after_end; the last tick is claimed)'
      : 'the plan, then moves at and after the cap (after_end; duration_ms still ends with the run)', (c, lv) => {
      c.list(lv.plan);
      c.move(lv.cap, 0, pick(stocked(lv)));
      c.move(lv.cap + 1 + r.below(500), r.below(lv.crowd), pick([0, 1, 2, 3, 4]));
    });
    add('a walker index beyond the crowd is rejected', (c, lv) => {
      const cut = r.below(lv.plan.length + 1);
      c.list(lv.plan.slice(0, cut));
      const t = (cut ? lv.plan[cut - 1].tick : 1) + r.below(5);
      c.move(t, lv.crowd + r.below(32 - lv.crowd), pick([0, 1, 2, 3, 4]));
      c.list(lv.plan.slice(cut));
    });
    add('the plan, then a skill for the saved pioneer (walker_gone) and moves after the end', (c, lv) => {
      c.list(lv.plan);
      const t = Math.max(routeOf(lv) + 1, c.st.prevTick);
      c.move(t, 0, pick(stocked(lv)));
      const rs = DL.result(c.st);
      c.move(rs.ticks + r.below(5), r.below(lv.crowd), pick(stocked(lv)));
    });
    add('every plan move given twice, the second a tick later (trait_held, busy, skill_exhausted)', (c, lv) => {
      const moves = [];
      for (const m of lv.plan) moves.push(m, { tick: m.tick + 1, walker: m.walker, skill: m.skill });
      c.list(byTick(moves));
    });
    add('a terrain skill for the falling pioneer at tick 1 (busy), then the plan', (c, lv) => {
      const ks = [3, 4].filter((s) => lv.inventory[s] > 0);
      c.move(1, 0, ks.length ? pick(ks) : 3);
      c.list(lv.plan.filter((m) => m.tick >= 1));
    });
    add('the plan without its last pioneer move', (c, lv) => {
      let last = -1;
      lv.plan.forEach((m, i) => { if (m.walker === 0) last = i; });
      c.list(lv.plan.filter((m, i) => i !== last));
    });
    add('only the pioneer\'s moves: the crowd gets no traits', (c, lv) => {
      c.list(lv.plan.filter((m) => m.walker === 0));
    });
    add('random moves, legal and illegal', (c, lv) => {
      let t = 0;
      const n = 5 + r.below(20);
      for (let i = 0; i < n; i++) {
        t = Math.max(0, t + r.below(30) - 3);
        const x = r.below(10);
        const walker = x === 0 ? r.below(32) : r.below(Math.max(1, spawnedAfter(lv, t) + (x === 1 ? 2 : 0)));
        c.move(t, walker, r.below(5));
      }
    });
    add('random stocked skills to spawned walkers, never rejected', (c, lv) => {
      let t = 1;
      const n = 3 + r.below(12);
      for (let i = 0; i < n; i++) {
        t += r.below(25);
        c.move(t, r.below(spawnedAfter(lv, t)), pick(stocked(lv)));
      }
      if (c.dead) return false;
    });
  }
  return out;
}

const driftlingsReplaysV2 = (r) => driftlingsReplays(r, 2);

/** A small random picture for a trace: earth, steel, an entrance and an exit. */
function randomPicture(r) {
  const W = 6 + r.below(9);
  const H = 5 + r.below(6);
  const rows = [];
  for (let y = 0; y < H; y++) {
    let s = '';
    for (let x = 0; x < W; x++) {
      const k = r.below(100);
      if (y === H - 1) s += k < 80 ? '=' : k < 90 ? '#' : '.';
      else if (y <= 1) s += '.';
      else s += k < 14 ? '#' : k < 22 ? '=' : '.';
    }
    rows.push(s.split(''));
  }
  const ex = r.below(W);
  rows[r.below(2)][ex] = 'E';
  for (;;) {
    const x = r.below(W);
    const y = 2 + r.below(H - 2);
    if (rows[y][x] === '.') {
      rows[y][x] = 'X';
      break;
    }
  }
  return rows.map((row) => row.join(''));
}

function traceCase(name, c) {
  const t = DL.trace(c);
  const out = { name };
  if (c.version !== undefined) out.version = c.version; // absent: version 1
  Object.assign(out, { rows: c.rows, crowd: c.crowd, quota: c.quota, interval: c.interval, cap: c.cap, inventory: c.inventory, moves: c.moves });
  out.outcomes = t.outcomes;
  out.ticks = t.record.map((walkers, tick) => ({ tick, walkers }));
  if (t.rejected) out.rejected = t.rejected;
  else {
    out.terrain_after = t.terrain_after;
    out.result = t.result;
  }
  return out;
}

/**
 * The traces of version `v`: version 1's carry no `version` (the file's first
 * generated traces); version 2's (their own stream) say `"version": 2`, so their
 * result's duration_ms runs to the end of the run.
 */
function driftlingsTraces(r, v = 1) {
  const out = [];
  const pre = v === 1 ? G : `${G}version ${v}, `;
  const ver = (c) => (v === 1 ? c : { version: v, ...c });
  const inv = (a) => ({ climber: a[0], floater: a[1], blocker: a[2], basher: a[3], digger: a[4] });
  // random moves for a trace: mostly to spawned walkers, ticks mostly forwards
  const movesFor = (c, n) => {
    const moves = [];
    let t = 0;
    const lvLike = { crowd: c.crowd, interval: c.interval };
    for (let i = 0; i < n; i++) {
      const x = r.below(20);
      t = x === 0 && t > 0 ? t - 1 - r.below(t) : t + r.below(8);
      const sp = spawnedAfter(lvLike, t);
      const walker = x === 1 ? r.below(c.crowd + 2) : r.below(Math.max(1, sp));
      moves.push({ tick: t, walker, skill: r.below(5) });
    }
    return moves;
  };
  // generated levels of one band, with the plan and with blockers added
  for (let k = 0; k < 6; k++) {
    const level = 1 + (k % 2);
    const seed = r.below(100);
    const lv = DL.generate(v, level, seed);
    const rows = DL.describeLevel(lv).terrain;
    const blockers = k < 2 ? 0 : 1 + r.below(2);
    const c = { rows, crowd: lv.crowd, quota: lv.quota, interval: lv.interval, cap: k < 2 ? lv.cap : 60 + r.below(40),
      inventory: inv([lv.inventory[0], lv.inventory[1], blockers, lv.inventory[3], lv.inventory[4]]), moves: lv.plan.map((m) => ({ ...m })) };
    let what = 'the crowd plan';
    if (blockers) {
      for (let b = 0; b < blockers + r.below(2); b++) {
        const t = 2 + r.below(30);
        c.moves.push({ tick: t, walker: r.below(spawnedAfter(lv, t)), skill: 2 });
      }
      c.moves = byTick(c.moves);
      what = `the crowd plan and blockers (cap ${c.cap})`;
    }
    out.push(traceCase(`${pre}level ${level} seed ${seed} terrain: ${what}`, ver(c)));
  }
  // small random pictures with random moves of every skill
  for (let k = 0; k < 24; k++) {
    const rows = randomPicture(r);
    const crowd = 1 + r.below(4);
    const c = { rows, crowd, quota: 1 + r.below(crowd), interval: 1 + r.below(5), cap: 30 + r.below(50),
      inventory: inv([r.below(3), r.below(3), r.below(3), r.below(3), r.below(3)]), moves: [] };
    c.moves = movesFor(c, r.below(9));
    const t = DL.trace(c);
    const codes = [...new Set(t.outcomes)].join(', ');
    out.push(traceCase(`${pre}random ${rows[0].length}x${rows.length} picture ${k + 1}, crowd ${crowd}, ${c.moves.length} move(s)${codes ? ` (${codes})` : ''}`, ver(c)));
  }
  return out;
}

// The natural seeds the Driftlings spec names ("Fallback", "Generation parameters",
// "The crowd plan"), with the defaults: the fallback of level 15 seed 7632 under both
// versions, the window seeds level 13 seed 81 and level 15 seed 336, also one
// expansion short, and level 8 seed 12235 under both versions, whose followers fall
// into the cell where the pioneer got its climber walking (the match compares act).
const DRIFTLINGS_NATURAL = [
  [1, 15, 7632], [2, 15, 7632],
  [2, 13, 81], [2, 15, 336], [2, 15, 336, { alt_window: 1999 }],
  [1, 8, 12235], [2, 8, 12235],
];
function genDriftlings() {
  const json = load('driftlings.json');
  const traces = driftlingsTraces(streamFor('driftlings:traces'));
  traces.push(...driftlingsTraces(streamFor('driftlings:traces:v2'), 2));
  json.traces = keepHand(json.traces).concat(traces);
  uniqueNames(json.traces);
  const counts = genGame(DL, 'driftlings.json', { versions: [1], prefixed: false, replays: driftlingsReplays },
    [{ versions: [2], replays: driftlingsReplaysV2 }],
    (lv) => {
      const n = lv.needs;
      const parts = DL.SKILLS.map((s, i) => (n[i] ? `${n[i]} ${s}` : '')).filter(Boolean).join(', ');
      return `${lv.width}x${lv.height}, ${lv.row.bands} band(s), needs ${parts}${lv.metrics.fallback ? ', fallback' : ''}`;
    },
    driftlingsExtremes, 'indent1nl', json, DRIFTLINGS_NATURAL);
  return { traces: traces.length, ...counts };
}

// ---- server/daily-sealed.json ----------------------------------------------

// Sealed dailies (CORE.md, "Sealed dailies") under fixed test secrets: the
// counting bytes 00..1f (the one the HTTP tests install), all ff, and one
// drawn from the stream; each over dates of both eras and the edges.
function genSealed() {
  const r = streamFor('sealed');
  const hex = (bytes) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  const keys = [
    hex([...Array(32).keys()]),
    'ff'.repeat(32),
    hex(Array.from({ length: 32 }, () => r.below(256))),
  ];
  const dates = ['2026-01-01', '2026-07-28', '2026-12-06', '2026-12-07', '2026-12-11', '2027-01-01',
    '2028-02-29', '2038-01-19', '9999-12-31'];
  const first = core.dayNumber('2026-01-01');
  for (let i = 0; i < 6; i++) dates.push(core.dateOfDay(first + r.below(4000)));
  const cases = [];
  for (const [ki, key] of keys.entries()) {
    for (const date of dates) {
      const d = sealed.sealedDaily(key, date);
      cases.push({ name: `${G}key ${ki + 1}, ${date}`, key, date, message: sealed.sealedMessage(date).toString('utf8'), ...d });
    }
  }
  uniqueNames(cases);
  const json = { about: 'Sealed daily seeds (docs/CORE.md, "Sealed dailies"): reveal = HMAC-SHA-256(key, message), seed = reveal[0..3] big-endian, commitment = SHA-256(message || reveal); hex. The keys are test secrets, never a deployment\'s.', sealed: cases };
  save('server/daily-sealed.json', json, 'indent1nl');
  return cases.length;
}

const counts = {
  'prng.json': genPrng(),
  'server/daily-sealed.json': genSealed(),
  'schulte.json': genGame(schulte, 'schulte.json', { versions: [1], prefixed: false, replays: schulteReplays },
    [{ versions: [2], replays: schulteReplaysV2 }],
    (lv) => `${lv.side}x${lv.side} ${lv.order}${lv.reshuffle ? ', reshuffle' : ''}${lv.version >= 2 ? `, finish floor ${lv.finishFloor} ms` : ''}`),
  'pipes.json': genGame(pipes, 'pipes.json', { versions: [1], prefixed: false, replays: pipesReplays },
    [{ versions: [2], replays: pipesReplaysV2 }],
    (lv) => `${lv.width}x${lv.height}${lv.wrap ? ' wrapping' : ''}${lv.version >= 2 ? `, finish floor ${lv.finishFloor} ms` : ''}`),
  'target-sums.json': genGame(targetSums, 'target-sums.json', { versions: [1], prefixed: false, replays: targetSumsReplays },
    [{ versions: [2], replays: targetSumsReplaysV2 }],
    (lv) => `${lv.rows}x${lv.cols}, values ${lv.minValue}..${lv.maxValue}, keep ${lv.keepPercent}%${lv.version >= 2 ? `, finish floor ${lv.finishFloor} ms` : ''}`,
    targetSumsExtremes, 'lines'),
  'opposites.json': genGame(opposites, 'opposites.json', { versions: [1, 2], prefixed: true, replays: oppositesReplays },
    [{ versions: [3], replays: oppositesReplaysV3 }],
    (lv) => `${lv.count} prompts over ${lv.codes} codes${lv.version >= 3 ? `, reaction floor ${lv.minReaction} ms` : ''}`, undefined, 'lines'),
  'contraption.json': genContraption(),
  'driftlings.json': genDriftlings(),
};
console.log(JSON.stringify(counts));
if (stale) process.exit(1);
