// Writes the `generated:` cases of vectors/prng.json, vectors/schulte.json and
// vectors/pipes.json from this port. Every `hand:` case is kept as it is (and
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
import { replay, PRNG_SECTIONS } from './vectors.mjs';

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

function save(file, json) {
  const text = JSON.stringify(json, null, 1);
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

  const first = core.dayNumber(core.SCHEDULE[0].first);
  const dailyDays = [];
  for (let k = 0; k < 45; k++) dailyDays.push(first + k);
  for (const d of ['2026-07-28', '2026-12-02', '2026-12-31', '2027-01-01', '2028-02-29', '2030-06-30',
    '2038-01-19', '2100-03-01', '2400-02-29', '9999-12-31']) dailyDays.push(core.dayNumber(d));
  for (let i = 0; i < 25; i++) dailyDays.push(first + r.below(lastDay - first + 1));
  const seenDaily = new Set();
  for (const day of dailyDays) {
    if (seenDaily.has(day)) continue;
    seenDaily.add(day);
    const date = core.dateOfDay(day);
    const d = core.daily(date);
    const note = day === first ? ' (the first era\'s first day)' : '';
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
  }
  get ended() {
    return this.dead || this.st.ended;
  }
  move(t, cell) {
    const mv = { t, cell };
    this.moves.push(mv);
    if (!this.dead) {
      const code = this.game.apply(this.st, mv);
      if (this.game.kindOf(code) === 'rejected') this.dead = true;
    }
    this.t = t;
    return this;
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
    outcomes: r.outcomes,
  };
  if (r.rejected) c.rejected = r.rejected;
  else {
    c.board_after = r.board_after;
    c.result = r.result;
  }
  return c;
}

const MAXF = 0x7fffffff;

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

    add('the fewest turns, row-major, 100 ms apart (the bench solution)', (p, lv) => {
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

// ---- level cases --------------------------------------------------------------

function levelCases(game, r, describe) {
  const out = [];
  for (let level = 1; level <= game.levels; level++) {
    const seeds = [];
    for (let s = 0; s < 10; s++) seeds.push(s);
    seeds.push(42, 2 ** 31, 2 ** 32 - 1);
    while (seeds.length < 19) {
      const s = r.next();
      if (!seeds.includes(s)) seeds.push(s);
    }
    for (const seed of seeds) {
      const lv = game.generate(1, level, seed);
      out.push({
        name: `${G}level ${level} seed ${seed} (${describe(lv)})`,
        version: 1,
        level,
        seed,
        expect: game.describeLevel(lv),
      });
    }
  }
  return out;
}

function genGame(game, file, replaysOf, describe) {
  const json = load(file);
  const levelsOut = levelCases(game, streamFor(`${game.name}:levels`), describe);
  const replaysOut = replaysOf(streamFor(`${game.name}:replays`));
  json.levels = keepHand(json.levels).concat(levelsOut);
  json.replays = keepHand(json.replays).concat(replaysOut);
  uniqueNames(json.levels);
  uniqueNames(json.replays);
  save(file, json);
  return { levels: levelsOut.length, replays: replaysOut.length };
}

const counts = {
  'prng.json': genPrng(),
  'schulte.json': genGame(schulte, 'schulte.json', schulteReplays,
    (lv) => `${lv.side}x${lv.side} ${lv.order}${lv.reshuffle ? ', reshuffle' : ''}`),
  'pipes.json': genGame(pipes, 'pipes.json', pipesReplays,
    (lv) => `${lv.width}x${lv.height}${lv.wrap ? ' wrapping' : ''}`),
};
console.log(JSON.stringify(counts));
if (stale) process.exit(1);
