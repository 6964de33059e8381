// The vector runner: checks every case of vectors/prng.json or vectors/<game>.json
// against a port. Usable as a library (runFile / checkCase) or from the command line:
//   node vectors/port/vectors.mjs vectors/prng.json vectors/schulte.json vectors/pipes.json \
//     vectors/target-sums.json vectors/opposites.json vectors/contraption.json vectors/driftlings.json
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as core from './core.mjs';
import * as schulte from './games/schulte.mjs';
import * as pipes from './games/pipes.mjs';
import * as targetSums from './games/target-sums.mjs';
import * as opposites from './games/opposites.mjs';
import * as contraption from './games/contraption.mjs';
import * as driftlings from './games/driftlings.mjs';

export const GAMES = { schulte, pipes, 'target-sums': targetSums, opposites, contraption, driftlings };

export const PRNG_SECTIONS = ['mulberry32', 'shuffle', 'below', 'fnv1a32', 'days', 'daily'];

function eq(what, got, want) {
  if (!isDeepStrictEqual(got, want)) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

// ---- prng.json --------------------------------------------------------------

export function checkPrngCase(section, c, impl = core) {
  switch (section) {
    case 'mulberry32':
      eq('first', impl.firstValues(c.seed, c.first.length), c.first);
      break;
    case 'shuffle':
      eq('output', impl.shuffled(c.seed, c.input), c.output);
      break;
    case 'below':
      eq('first', impl.belowDraws(c.seed, c.n, c.first.length), c.first);
      break;
    case 'fnv1a32':
      eq('hash', impl.fnv1a32(c.text), c.hash);
      break;
    case 'days':
      eq('day', impl.dayNumber(c.date), c.day);
      eq('date of day', impl.dateOfDay(c.day), c.date);
      break;
    case 'daily': {
      const d = impl.daily(c.date);
      if (d === null) throw new Error(`no daily for ${c.date}`);
      const want = {};
      const got = {};
      for (const k of ['game', 'level', 'seed', 'schedule']) {
        if (k in c) {
          want[k] = c[k];
          got[k] = d[k];
        }
      }
      eq('daily', got, want);
      break;
    }
    default:
      throw new Error(`unknown prng section ${section}`);
  }
}

// ---- game files -------------------------------------------------------------

/** The code of a refusal (core.mjs Refusal, or anything with a string `code`), else rethrows. */
function refusalCode(e) {
  if (e && typeof e.code === 'string') return e.code;
  throw e;
}

export function checkLevelCase(game, c) {
  if (('expect' in c) === ('refused' in c)) throw new Error('a level case needs exactly one of expect / refused');
  if ('refused' in c) {
    let code = null;
    try {
      game.generate(c.version, c.level, c.seed, c.params);
    } catch (e) {
      code = refusalCode(e);
    }
    if (code === null) throw new Error(`generated, want refused ${c.refused}`);
    eq('refused', code, c.refused);
    return;
  }
  const lv = game.generate(c.version, c.level, c.seed, c.params);
  const desc = game.describeLevel(lv);
  for (const k of Object.keys(c.expect)) {
    if (!(k in desc)) throw new Error(`level key ${k} is not in the port's gen output`);
    eq(`level.${k}`, desc[k], c.expect[k]);
  }
  for (const k of c.absent || []) {
    if (k in desc) throw new Error(`level key ${k} must be absent, got ${JSON.stringify(desc[k])}`);
  }
}

/** The move cap of a game's version (`maxMovesOf(v)` if the game has one, else `MAX_MOVES`). */
export function moveCap(game, v) {
  return typeof game.maxMovesOf === 'function' ? game.maxMovesOf(v) : game.MAX_MOVES;
}

/**
 * The checks before a replay runs (docs/VECTORS.md, `refused`): the count first
 * (`too_many_moves`, whatever the moves hold), then every move through the
 * version's decoder (`bad_moves`). Returns the code, or null.
 */
export function refusalOf(game, v, moves) {
  if (!Array.isArray(moves)) return 'bad_moves';
  if (moves.length > moveCap(game, v)) return 'too_many_moves';
  for (const m of moves) if (!game.validMove(m, v)) return 'bad_moves';
  return null;
}

/**
 * Replays `moves` on a fresh start; stops at the first rejected move. A list the
 * game refuses before it runs gives `refused` (and nothing else but the start board).
 */
export function replay(game, lv, moves) {
  const st = game.start(lv);
  const before = game.describeState(st);
  const refused = refusalOf(game, lv.version, moves);
  if (refused) return { board_before: before, refused, outcomes: null, rejected: null, board_after: null, result: null };
  const outcomes = [];
  let rejected = null;
  for (let i = 0; i < moves.length; i++) {
    const code = game.apply(st, moves[i]);
    outcomes.push(code);
    if (game.kindOf(code) === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  return {
    board_before: before,
    refused: null,
    outcomes,
    rejected,
    board_after: rejected ? null : game.describeState(st),
    result: rejected ? null : game.result(st),
  };
}

export function checkReplayCase(game, c) {
  const forms = ['result', 'rejected', 'refused'].filter((k) => k in c);
  if (forms.length !== 1) throw new Error('a replay case needs exactly one of result / rejected / refused');
  const lv = game.generate(c.version, c.level, c.seed, c.params);
  const r = replay(game, lv, c.moves);
  eq('board_before', r.board_before, c.board_before);
  if ('refused' in c) {
    if ('outcomes' in c || 'board_after' in c) throw new Error('a refused case carries no outcomes / board_after');
    eq('refused', r.refused, c.refused);
    return;
  }
  if (r.refused) throw new Error(`the replay was refused (${r.refused})`);
  eq('outcomes', r.outcomes, c.outcomes);
  if ('rejected' in c) {
    eq('rejected', r.rejected, c.rejected);
    if ('board_after' in c) throw new Error('a rejected case carries no board_after');
  } else {
    if (r.rejected) throw new Error(`move ${r.rejected.move} was rejected (${r.rejected.reason})`);
    eq('board_after', r.board_after, c.board_after);
    for (const k of Object.keys(c.result)) {
      if (!(k in r.result)) throw new Error(`result key ${k} is not in the port's result`);
      eq(`result.${k}`, r.result[k], c.result[k]);
    }
  }
}

// ---- a game's own sections (docs/VECTORS.md: "its spec.md says what they hold") ----

/** games/contraption/spec.md, section 12: trig, traces and daily. */
export const CONTRAPTION_SECTIONS = {
  trig(game, c) {
    const [sin, cos] = game.trig(c.mrad);
    eq('trig', { sin, cos }, { sin: c.sin, cos: c.cos });
  },
  traces(game, c) {
    const t = game.trace(c.field, c.moves);
    eq('ticks.length', t.ticks.length, c.ticks.length);
    for (let i = 0; i < c.ticks.length; i++) eq(`tick ${i + 1}`, t.ticks[i], c.ticks[i]);
    eq('run', t.run, c.run);
  },
  daily(game, c) {
    eq('text', game.dailyText(c.date), c.text);
    eq('seed', game.dailySeed(c.date), c.seed);
    eq('fnv1a32(text)', core.fnv1a32(c.text), c.seed);
  },
};

/**
 * games/driftlings/spec.md, "Vectors": traces over hand-made ASCII levels. Every
 * listed tick's walkers (the world after T ticks, before the moves of tick T), the
 * outcomes, then `rejected` or every key of `result`, and `terrain_after` if given.
 */
export const DRIFTLINGS_SECTIONS = {
  traces(game, c) {
    if (('result' in c) === ('rejected' in c)) throw new Error('a trace needs exactly one of result / rejected');
    const t = game.trace(c);
    eq('outcomes', t.outcomes, c.outcomes);
    for (const k of c.ticks) {
      if (!(k.tick in t.record)) throw new Error(`tick ${k.tick} was never reached`);
      eq(`tick ${k.tick}`, t.record[k.tick], k.walkers);
    }
    if ('rejected' in c) {
      eq('rejected', t.rejected, c.rejected);
      if ('terrain_after' in c) throw new Error('a rejected trace carries no terrain_after');
      return;
    }
    if (t.rejected) throw new Error(`move ${t.rejected.move} was rejected (${t.rejected.reason})`);
    for (const k of Object.keys(c.result)) {
      if (!(k in t.result)) throw new Error(`result key ${k} is not in the port's result`);
      eq(`result.${k}`, t.result[k], c.result[k]);
    }
    if ('terrain_after' in c) eq('terrain_after', t.terrain_after, c.terrain_after);
  },
};

/** Game name -> { section: (game, case) => void } for the sections besides levels and replays. */
export const GAME_SECTIONS = { contraption: CONTRAPTION_SECTIONS, driftlings: DRIFTLINGS_SECTIONS };

// ---- whole files ------------------------------------------------------------

/** Every case of a parsed vector file as { kind, name, run() }. */
export function casesOf(json, games = GAMES, sections = GAME_SECTIONS) {
  const out = [];
  if ('game' in json) {
    const game = games[json.game];
    if (!game) throw new Error(`no port of game ${json.game}`);
    const own = sections[json.game] || {};
    for (const k of Object.keys(json)) {
      if (Array.isArray(json[k]) && k !== 'levels' && k !== 'replays' && !(k in own)) {
        throw new Error(`${json.game}: no checker for the section ${k}`);
      }
    }
    for (const k of Object.keys(own)) {
      for (const c of json[k] || []) out.push({ kind: k, name: c.name, run: () => own[k](game, c) });
    }
    for (const c of json.levels || []) out.push({ kind: 'levels', name: c.name, run: () => checkLevelCase(game, c) });
    for (const c of json.replays || []) out.push({ kind: 'replays', name: c.name, run: () => checkReplayCase(game, c) });
  } else {
    for (const s of PRNG_SECTIONS) {
      for (const c of json[s] || []) out.push({ kind: s, name: c.name, run: () => checkPrngCase(s, c) });
    }
  }
  return out;
}

export function runFile(path, games = GAMES, sections = GAME_SECTIONS) {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  const failures = [];
  let passed = 0;
  for (const c of casesOf(json, games, sections)) {
    try {
      c.run();
      passed++;
    } catch (e) {
      failures.push({ kind: c.kind, name: c.name, error: e.message });
    }
  }
  return { path, passed, failures };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const paths = process.argv.slice(2);
  if (paths.length === 0) {
    console.error('usage: node vectors/port/vectors.mjs FILE.json...');
    process.exit(2);
  }
  let bad = 0;
  for (const p of paths) {
    const r = runFile(p);
    for (const f of r.failures) console.log(`FAIL ${p} [${f.kind}] ${f.name}: ${f.error}`);
    console.log(`${p}: ${r.passed} passed, ${r.failures.length} failed`);
    bad += r.failures.length;
  }
  process.exit(bad ? 1 : 0);
}
