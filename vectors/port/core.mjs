// The shared core (docs/CORE.md): mulberry32, draws, shuffle, FNV-1a 32,
// day numbers and the catalogue daily. Pure JavaScript, no dependencies.

// ---- mulberry32 -----------------------------------------------------------

/** Pure step: returns [value, nextState], both unsigned 32-bit. */
export function next(state) {
  const s = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s) >>> 0;
  t = ((t + Math.imul(t ^ (t >>> 7), 61 | t)) >>> 0) ^ t;
  t >>>= 0;
  return [(t ^ (t >>> 14)) >>> 0, s];
}

/** A mutable stream: `state` is the whole state (uint32). */
export class Rng {
  constructor(seed) {
    this.state = seed >>> 0;
  }
  next() {
    const s = (this.state + 0x6d2b79f5) >>> 0;
    this.state = s;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** next() mod n, n >= 1; the modulo bias is part of the spec. */
  below(n) {
    if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`below(${n})`);
    return this.next() % n;
  }
  /** Fisher–Yates from the last index down, in place; returns the list. */
  shuffle(list) {
    for (let i = list.length - 1; i >= 1; i--) {
      const j = this.next() % (i + 1);
      const tmp = list[i];
      list[i] = list[j];
      list[j] = tmp;
    }
    return list;
  }
  clone() {
    return new Rng(this.state);
  }
}

export function rng(seed) {
  return new Rng(seed);
}

/** The first `count` values of mulberry32 from `seed`. */
export function firstValues(seed, count) {
  const r = new Rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) out.push(r.next());
  return out;
}

/** `count` draws of below(n) from `seed`. */
export function belowDraws(seed, n, count) {
  const r = new Rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) out.push(r.below(n));
  return out;
}

/** A shuffled copy of `input` with a fresh stream from `seed`. */
export function shuffled(seed, input) {
  return new Rng(seed).shuffle(input.slice());
}

// ---- FNV-1a 32 ------------------------------------------------------------

const encoder = new TextEncoder();

/** FNV-1a 32 over the UTF-8 bytes of `text` (or over a Uint8Array). */
export function fnv1a32(text) {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  }
  return h >>> 0;
}

// ---- Day numbers ----------------------------------------------------------
// Proleptic Gregorian, day 0 = 1970-01-01; integer arithmetic only.

const fdiv = (a, b) => Math.floor(a / b);

export function isLeap(y) {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y, m) {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

export function dayFromYMD(y, m, d) {
  const yy = m <= 2 ? y - 1 : y;
  const era = fdiv(yy, 400);
  const yoe = yy - era * 400;
  const doy = fdiv(153 * (m > 2 ? m - 3 : m + 9) + 2, 5) + d - 1;
  const doe = yoe * 365 + fdiv(yoe, 4) - fdiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}

export function ymdFromDay(day) {
  const z = day + 719468;
  const era = fdiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = fdiv(doe - fdiv(doe, 1460) + fdiv(doe, 36524) - fdiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + fdiv(yoe, 4) - fdiv(yoe, 100));
  const mp = fdiv(5 * doy + 2, 153);
  const d = doy - fdiv(153 * mp + 2, 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d];
}

/** Parses "YYYY-MM-DD" (years 1970..9999); throws on anything else. */
export function parseDate(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) throw new RangeError(`bad date ${JSON.stringify(text)}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) {
    throw new RangeError(`bad date ${JSON.stringify(text)}`);
  }
  return [y, mo, d];
}

export function dayNumber(text) {
  const [y, m, d] = parseDate(text);
  return dayFromYMD(y, m, d);
}

const pad = (n, w) => String(n).padStart(w, '0');

export function dateOfDay(day) {
  const [y, m, d] = ymdFromDay(day);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

// ---- The catalogue daily --------------------------------------------------

export const SCHEDULE = [
  { era: 1, first: '2026-01-01', games: ['schulte', 'pipes'], level_lo: 3, level_hi: 12 },
  { era: 2, first: '2026-12-07', games: ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption'], level_lo: 3, level_hi: 12 },
];

/**
 * The text of Contraption's own daily seed (games/contraption/spec.md, section 11):
 * "contraption:" + year + "-" + month + "-" + day, decimal, no zero padding.
 */
export function contraptionDailyText(day) {
  const [y, m, d] = ymdFromDay(day);
  return `contraption:${y}-${m}-${d}`;
}

/**
 * The games that define their own daily seed: name -> (dayNumber) -> seed.
 * Only Contraption does (FNV-1a 32 of its daily text); the others use the
 * catalogue seed (the first value of the `state = dayNumber` stream).
 */
export const GAME_DAILY_SEEDS = {
  contraption: (day) => fnv1a32(contraptionDailyText(day)),
};

/** The era of the schedule with the latest first day on or before `day`, or null. */
export function eraOf(day) {
  let era = null;
  let eraFirst = 0;
  for (const e of SCHEDULE) {
    const f = dayNumber(e.first);
    if (f <= day && (era === null || f > eraFirst)) {
      era = e;
      eraFirst = f;
    }
  }
  return era === null ? null : { era, first: eraFirst };
}

/**
 * The day's game, level and seed, or null before the first era.
 * `gameSeeds` maps a game name to its own daily-seed function
 * (dayNumber) -> seed; by default GAME_DAILY_SEEDS (Contraption's).
 * The level always comes from the catalogue stream (its second value).
 */
export function daily(date, gameSeeds = GAME_DAILY_SEEDS) {
  const day = dayNumber(date);
  const found = eraOf(day);
  if (found === null) return null;
  const { era, first } = found;
  const r = new Rng(day >>> 0);
  let seed = r.next();
  const level = era.level_lo + (r.next() % (era.level_hi - era.level_lo + 1));
  const game = era.games[(day - first) % era.games.length];
  if (gameSeeds[game]) seed = gameSeeds[game](day) >>> 0;
  return { game, level, seed, schedule: era.era };
}

// ---- refusals (docs/VECTORS.md: `refused`) -----------------------------------------------

/**
 * A refusal before a game runs: generation (`bad_version`, `bad_level`, `bad_params`)
 * or a replay (`too_many_moves`, `bad_moves`). A RangeError, so older callers that
 * expect one still get it; `code` is the vector form's code.
 */
export class Refusal extends RangeError {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** An integer in lo..hi. */
export const inRange = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

/**
 * The decoder every game shares: `move` is a plain object holding exactly the
 * fields of `ranges` (name -> [lo, hi]), each an integer in its range. A field
 * missing or extra is malformed (PORTING.md question 60).
 */
export function decodes(move, ranges) {
  if (move === null || typeof move !== 'object' || Array.isArray(move)) return false;
  const names = Object.keys(ranges);
  const keys = Object.keys(move);
  if (keys.length !== names.length) return false;
  for (const k of names) {
    if (!Object.prototype.hasOwnProperty.call(move, k)) return false;
    const [lo, hi] = ranges[k];
    if (!inRange(move[k], lo, hi)) return false;
  }
  return true;
}

/**
 * The named generation parameters of a game spec's "Generation parameters":
 * `table` maps name -> {def, min, max}. Returns every parameter's value (the
 * defaults for those not given); throws Refusal('bad_params') on a name the game
 * does not take or a value outside its range (an integer in min..max).
 */
export function resolveParams(game, table, params) {
  const out = {};
  for (const k of Object.keys(table)) out[k] = table[k].def;
  if (params === undefined || params === null) return out;
  if (typeof params !== 'object' || Array.isArray(params)) throw new Refusal('bad_params', `${game}: params must be an object`);
  for (const k of Object.keys(params)) {
    if (!Object.prototype.hasOwnProperty.call(table, k)) throw new Refusal('bad_params', `${game}: no parameter ${k}`);
    const { min, max } = table[k];
    if (!inRange(params[k], min, max)) throw new Refusal('bad_params', `${game}: ${k} = ${params[k]} is outside ${min}..${max}`);
    out[k] = params[k];
  }
  return out;
}

/**
 * The checks before generation, in the order of the vector form: the version,
 * the level, the seed, then the parameters. Returns the resolved parameters.
 */
export function checkGenerate(game, versions, levels, v, level, seed, table = {}, params = undefined) {
  if (!versions.includes(v)) throw new Refusal('bad_version', `${game}: unknown version ${v}`);
  if (!Number.isInteger(level) || level < 1 || level > levels) throw new Refusal('bad_level', `${game}: no level ${level}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`${game}: bad seed ${seed}`);
  return resolveParams(game, table, params);
}
