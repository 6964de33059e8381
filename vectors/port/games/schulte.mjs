// Schulte, from games/schulte/spec.md (versions 1 and 2; 2 is current).
// Version 2 adds the human floors: a tap gap of 100 ms on the same cell and
// 150 ms on another (rule 6), and the finish floor (rule 9, `finish_below_floor`).
import { Rng, checkGenerate, decodes } from '../core.mjs';

export const name = 'schulte';
export const version = 2;
export const versions = [1, 2];
/** The move fields of a version (both versions take the same). */
export function fieldsOf(v) {
  if (!versions.includes(v)) throw new RangeError(`schulte: unknown version ${v}`);
  return ['t', 'cell'];
}
export const fields = fieldsOf(version);
export const MISTAKE_LIMIT = 5;
export const MAX_MOVES = 1000;
// version 1: one gap for every counted tap
export const GAP_V1 = 100;
// version 2 ("Human floors")
export const GAP_SAME = 100;
export const GAP_OTHER = 150;
export const FINISH_PER_NUMBER = 200;
export const FINISH_PER_NUMBER_RESHUFFLE = 300;

// level: [side, order, reshuffle, limit_ms]
const TABLE = [
  null,
  [3, 'up', false, 30000],
  [3, 'down', false, 30000],
  [4, 'up', false, 60000],
  [4, 'down', false, 60000],
  [5, 'up', false, 90000],
  [5, 'down', false, 90000],
  [4, 'up', true, 60000],
  [6, 'up', false, 120000],
  [6, 'down', false, 120000],
  [5, 'up', true, 100000],
  [7, 'up', false, 150000],
  [7, 'down', false, 150000],
  [6, 'down', true, 140000],
  [7, 'up', true, 180000],
  [7, 'down', true, 180000],
];

export const levels = TABLE.length - 1;

export const OUTCOMES = {
  found: 'applied',
  mistake: 'applied',
  already_found: 'ignored',
  after_end: 'ignored',
  cell_out_of_range: 'rejected',
  time_backwards: 'rejected',
  too_fast: 'rejected',
  finish_below_floor: 'rejected', // version 2 only
};

export function kindOf(code) {
  const k = OUTCOMES[code];
  if (!k) throw new RangeError(`unknown outcome ${code}`);
  return k;
}

/** The game takes no generation parameters: any name given is `bad_params`. */
export const PARAMS = {};

function checkArgs(v, level, seed, params) {
  return checkGenerate('schulte', versions, levels, v, level, seed, PARAMS, params);
}

export function generate(v, level, seed, params = undefined) {
  checkArgs(v, level, seed, params);
  const [side, order, reshuffle, limit] = TABLE[level];
  const n = side * side;
  const rng = new Rng(seed);
  const list = [];
  for (let i = 1; i <= n; i++) list.push(i);
  rng.shuffle(list);
  return {
    version: v, level, seed, side, n, order, reshuffle, limit,
    mistakeLimit: MISTAKE_LIMIT, grid: list, rngState: rng.state,
    // version 2: the finish floor (N x 200 ms, N x 300 ms on a reshuffle level)
    finishFloor: v >= 2 ? n * (reshuffle ? FINISH_PER_NUMBER_RESHUFFLE : FINISH_PER_NUMBER) : 0,
  };
}

function rows(flat, side) {
  const out = [];
  for (let r = 0; r < side; r++) out.push(flat.slice(r * side, (r + 1) * side));
  return out;
}

export function describeLevel(lv) {
  const d = {
    size: lv.side,
    order: lv.order,
    reshuffle: lv.reshuffle,
    limit_ms: lv.limit,
    mistake_limit: lv.mistakeLimit,
    grid: rows(lv.grid, lv.side),
  };
  if (lv.version >= 2) {
    d.gap_same_ms = GAP_SAME;
    d.gap_other_ms = GAP_OTHER;
    d.finish_floor_ms = lv.finishFloor;
  }
  return d;
}

export function start(lv) {
  return {
    lv,
    grid: lv.grid.slice(),
    expected: lv.order === 'up' ? 1 : lv.n,
    found: 0,
    mistakes: 0,
    prev_t: 0,
    last_tap_t: 0,
    last_tap_cell: -1, // none (version 2 only)
    ended: false,
    completed: false,
    finish_t: -1,
    rng: new Rng(lv.rngState),
  };
}


/** The decoder: exactly {t, cell} (every version takes the same fields), each an integer in its range. */
export function validMove(move, v = version) {
  return decodes(move, MOVE_RANGES);
}
const MOVE_RANGES = { t: [0, 0x7fffffff], cell: [0, 0x7fffffff] };

/** Applies one move, mutating `st`; returns the outcome code. */
export function apply(st, move) {
  if (!validMove(move)) throw new TypeError(`schulte: malformed move ${JSON.stringify(move)}`);
  const { t, cell } = move;
  const lv = st.lv;
  if (st.ended) return 'after_end'; // 1
  if (cell >= lv.n) return 'cell_out_of_range'; // 2
  if (t < st.prev_t) return 'time_backwards'; // 3
  st.prev_t = t; // 4
  if (t > lv.limit) {
    st.ended = true;
    return 'after_end';
  }
  if (st.grid[cell] === 0) return 'already_found'; // 5
  // 6: the tap gap
  const gap = lv.version === 1 ? GAP_V1 : cell === st.last_tap_cell ? GAP_SAME : GAP_OTHER;
  if (t - st.last_tap_t < gap) return 'too_fast';
  st.last_tap_t = t; // 7
  st.last_tap_cell = cell;
  if (st.grid[cell] !== st.expected) { // 8
    st.mistakes += 1;
    if (st.mistakes >= MISTAKE_LIMIT) st.ended = true;
    return 'mistake';
  }
  // 9 (version 2): the tap that finds the last number, below the finish floor
  if (lv.version >= 2 && st.found + 1 === lv.n && t < lv.finishFloor) return 'finish_below_floor';
  // 10
  st.grid[cell] = 0;
  st.found += 1;
  st.expected += lv.order === 'up' ? 1 : -1;
  if (st.found === lv.n) {
    st.ended = true;
    st.completed = true;
    st.finish_t = t;
  } else if (lv.reshuffle && lv.n - st.found >= 2) {
    const cells = [];
    const nums = [];
    for (let i = 0; i < lv.n; i++) {
      if (st.grid[i] !== 0) {
        cells.push(i);
        nums.push(st.grid[i]);
      }
    }
    st.rng.shuffle(nums);
    for (let k = 0; k < cells.length; k++) st.grid[cells[k]] = nums[k];
  }
  return 'found';
}

export function describeState(st) {
  return {
    grid: rows(st.grid, st.lv.side),
    next: st.found === st.lv.n ? 0 : st.expected,
  };
}

export function result(st) {
  const lv = st.lv;
  const score = st.completed
    ? 1000 + Math.max(0, Math.floor((lv.limit - st.finish_t) / 100) - 10 * st.mistakes)
    : st.found;
  return {
    completed: st.completed,
    score,
    duration_ms: st.last_tap_t,
    found: st.found,
    mistakes: st.mistakes,
    finish_ms: st.finish_t,
  };
}

/** The typical full solution (docs/BENCH.md): each number where it is at that moment, 300 ms apart from t = 300. */
export function typicalSolution(lv) {
  const st = start(lv);
  const moves = [];
  let t = 300;
  while (!st.ended) {
    const cell = st.grid.indexOf(st.expected);
    const mv = { t, cell };
    moves.push(mv);
    apply(st, mv);
    t += 300;
  }
  return moves;
}
