// Opposites, from games/opposites/spec.md (versions 1, 2 and 3; 3 is current).
// Version 2: a wrong answer costs 50 points and the prompt stays open. Version 3:
// version 2's rules with the Hick's-law reaction floor (rule 8, `reaction_below_floor`).
import { Rng, checkGenerate, decodes } from '../core.mjs';

export const name = 'opposites';
export const version = 3;
export const versions = [1, 2, 3];
/** The move fields of a version (every version takes the same). */
export function fieldsOf(v) {
  if (!versions.includes(v)) throw new RangeError(`opposites: unknown version ${v}`);
  return ['t', 'answer'];
}
export const fields = fieldsOf(version);
/** The reaction floor of versions 1 and 2 (`too_fast`). */
export const MIN_REACTION_MS = 150;
export const WRONG_PENALTY = 50;
export const MAX_MOVES = 500;

// level: [prompts, codes, gap_ms, jitter_ms, window_ms]
const TABLE = [
  null,
  [8, 4, 2500, 500, 2000],
  [10, 4, 2200, 500, 1800],
  [12, 4, 2000, 400, 1500],
  [12, 8, 2200, 500, 1800],
  [14, 8, 2000, 400, 1500],
  [16, 8, 1800, 400, 1300],
  [16, 12, 2000, 400, 1600],
  [18, 12, 1800, 400, 1400],
  [20, 12, 1600, 400, 1200],
  [20, 12, 1500, 600, 1100],
  [22, 12, 1400, 600, 1000],
  [24, 12, 1300, 600, 900],
  [26, 12, 1200, 600, 800],
  [28, 12, 1100, 600, 700],
  [30, 12, 1000, 600, 600],
];

export const levels = TABLE.length - 1;

export const OUTCOMES = {
  correct: 'applied',
  wrong: 'applied',
  late: 'applied',
  repeated: 'ignored',
  no_prompt: 'ignored',
  after_end: 'ignored',
  answer_out_of_range: 'rejected',
  time_backwards: 'rejected',
  too_fast: 'rejected',
  reaction_below_floor: 'rejected', // version 3 only
};

export function kindOf(code) {
  const k = OUTCOMES[code];
  if (!k) throw new RangeError(`unknown outcome ${code}`);
  return k;
}

/** bits(x): the number of binary digits of x (bits(0) = 0). */
export function bits(x) {
  let b = 0;
  while (x > 0) {
    b++;
    x = Math.floor(x / 2);
  }
  return b;
}

/** The level's reaction floor: 150 ms in versions 1 and 2, 150 + 50 x bits(codes - 1) in version 3. */
export function minReaction(v, codes) {
  return v >= 3 ? 150 + 50 * bits(codes - 1) : MIN_REACTION_MS;
}

/** The game takes no generation parameters: any name given is `bad_params`. */
export const PARAMS = {};

function checkArgs(v, level, seed, params) {
  return checkGenerate('opposites', versions, levels, v, level, seed, PARAMS, params);
}

/** Generation is the same under every version; the version is kept in the level for the rules. */
export function generate(v, level, seed, params = undefined) {
  checkArgs(v, level, seed, params);
  const [count, codes, gap, jitter, window] = TABLE[level];
  const rng = new Rng(seed);
  const prompt = new Array(count);
  const appear = new Array(count);
  for (let i = 0; i < count; i++) {
    prompt[i] = rng.below(codes);
    const delay = rng.below(jitter + 1);
    appear[i] = i === 0 ? 1000 + delay : appear[i - 1] + gap + delay;
  }
  return {
    version: v, level, seed, count, codes, gap, jitter, window,
    prompt, appear, end: appear[count - 1] + window,
    minReaction: minReaction(v, codes),
  };
}

export function describeLevel(lv) {
  return {
    codes: lv.codes,
    window_ms: lv.window,
    min_reaction_ms: lv.minReaction,
    end_ms: lv.end,
    prompts: lv.prompt.slice(),
    answers: lv.prompt.map((p) => p ^ 1),
    appear_ms: lv.appear.slice(),
  };
}

// ---- play -----------------------------------------------------------------------

export function start(lv) {
  return {
    lv,
    status: new Array(lv.count).fill(0),
    closed: new Array(lv.count).fill(false),
    open: lv.count,
    correct: 0,
    wrong: 0,
    late: 0,
    points: 0,
    prev_t: 0,
    ended: false,
    finish_t: -1,
  };
}


/** The decoder: exactly {t, answer} (every version takes the same fields), each an integer in its range. */
export function validMove(move, v = version) {
  return decodes(move, MOVE_RANGES);
}
const MOVE_RANGES = { t: [0, 0x7fffffff], answer: [0, 255] };

function close(st, p, t) {
  st.closed[p] = true;
  st.open -= 1;
  if (st.open === 0) {
    st.ended = true;
    st.finish_t = t;
  }
}

/** Applies one move, mutating `st`; returns the outcome code. */
export function apply(st, move) {
  if (!validMove(move)) throw new TypeError(`opposites: malformed move ${JSON.stringify(move)}`);
  const { t, answer } = move;
  const lv = st.lv;
  if (st.ended) return 'after_end'; // 1
  if (answer >= lv.codes) return 'answer_out_of_range'; // 2
  if (t < st.prev_t) return 'time_backwards'; // 3
  st.prev_t = t;
  if (t >= lv.end) { // 4
    st.ended = true;
    return 'after_end';
  }
  // 5: the last prompt shown
  let p = -1;
  for (let i = lv.count - 1; i >= 0; i--) {
    if (lv.appear[i] <= t) {
      p = i;
      break;
    }
  }
  if (p < 0) return 'no_prompt';
  const r = t - lv.appear[p];
  if (r >= lv.window) { // 6
    st.late += 1;
    return 'late';
  }
  if (st.closed[p]) return 'repeated'; // 7
  if (r < lv.minReaction) return lv.version >= 3 ? 'reaction_below_floor' : 'too_fast'; // 8
  if (answer === (lv.prompt[p] ^ 1)) { // 9
    st.correct += 1;
    st.points += 100 + Math.floor((lv.window - r) / 10);
    st.status[p] = 1;
    close(st, p, t);
    return 'correct';
  }
  // 10
  st.wrong += 1;
  st.status[p] = 2;
  if (lv.version === 1) close(st, p, t);
  return 'wrong';
}

export function describeState(st) {
  return { status: st.status.slice(), points: st.points };
}

export function result(st) {
  const lv = st.lv;
  const score = lv.version === 1 ? st.points : Math.max(0, st.points - WRONG_PENALTY * st.wrong);
  const allClosed = st.open === 0;
  return {
    completed: 2 * st.correct >= lv.count,
    score,
    duration_ms: allClosed ? st.finish_t : lv.end,
    correct: st.correct,
    wrong: st.wrong,
    late: st.late,
    missed: lv.count - st.correct,
    finish_ms: allClosed ? st.finish_t : -1,
  };
}

/** The typical full solution (docs/BENCH.md): every prompt answered with its opposite 400 ms after it appears. */
export function typicalSolution(lv) {
  return lv.prompt.map((p, i) => ({ t: lv.appear[i] + 400, answer: p ^ 1 }));
}
