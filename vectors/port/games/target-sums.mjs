// Target Sums, from games/target-sums/spec.md (versions 1 and 2; 2 is current).
// Version 2 adds the human floors: a toggle gap of 100 ms on the same cell and
// 150 ms on another (rule 5), and the finish floor of 500 ms per needed toggle
// (rule 6, `finish_below_floor`).
import { Rng, checkGenerate, decodes } from '../core.mjs';

export const name = 'target-sums';
export const version = 2;
export const versions = [1, 2];
/** The move fields of a version (both versions take the same). */
export function fieldsOf(v) {
  if (!versions.includes(v)) throw new RangeError(`target-sums: unknown version ${v}`);
  return ['t', 'cell'];
}
export const fields = fieldsOf(version);
// version 1: one gap for every toggle
export const GAP_V1 = 100;
// version 2 ("Human floors")
export const GAP_SAME = 100;
export const GAP_OTHER = 150;
export const FINISH_PER_TOGGLE = 500;
export const CANDIDATE_CAP = 500;
export const NODE_CAP = 200000;
export const MAX_MOVES = 2000;

// level: [rows, cols, min_value, max_value, keep_percent, limit_ms]
const TABLE = [
  null,
  [3, 3, 1, 5, 70, 60000],
  [3, 3, 1, 9, 60, 60000],
  [4, 3, 1, 9, 60, 90000],
  [4, 4, 1, 9, 65, 90000],
  [4, 4, 1, 9, 50, 120000],
  [5, 4, 1, 9, 55, 150000],
  [5, 5, 1, 9, 60, 180000],
  [5, 5, 1, 9, 50, 210000],
  [6, 5, 1, 9, 55, 240000],
  [6, 6, 1, 9, 60, 270000],
  [6, 6, 1, 9, 50, 300000],
  [7, 6, 1, 9, 55, 330000],
  [7, 7, 1, 9, 60, 360000],
  [7, 7, 1, 9, 50, 420000],
  [7, 7, 1, 19, 50, 480000],
];

export const levels = TABLE.length - 1;

export const OUTCOMES = {
  removed: 'applied',
  restored: 'applied',
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

/** "Generation parameters": name -> {def, min, max} (the server uses the defaults). */
export const PARAMS = {
  candidate_cap: { def: CANDIDATE_CAP, min: 1, max: CANDIDATE_CAP },
  node_cap: { def: NODE_CAP, min: 1, max: NODE_CAP },
};

function checkArgs(v, level, seed, params) {
  return checkGenerate('target-sums', versions, levels, v, level, seed, PARAMS, params);
}

// ---- the solution counter -----------------------------------------------------

/**
 * countSolutions (spec "countSolutions"): exhaustive DFS over the cells in
 * row-major order, kept first. Returns { solutions (0, 1 or 2 = two or more), nodes, capped }.
 */
export function countSolutions(rows, cols, value, rowTarget, colTarget, nodeCap = NODE_CAP) {
  const n = rows * cols;
  const rowKept = new Int32Array(rows);
  const colKept = new Int32Array(cols);
  const rowLeft = new Int32Array(rows);
  const colLeft = new Int32Array(cols);
  for (let i = 0; i < n; i++) {
    rowLeft[(i / cols) | 0] += value[i];
    colLeft[i % cols] += value[i];
  }
  let nodes = 0;
  let solutions = 0;
  let capped = false;
  const search = (k) => {
    if (nodes >= nodeCap) {
      capped = true;
      return;
    }
    nodes += 1;
    if (k === n) {
      solutions += 1;
      return;
    }
    const r = (k / cols) | 0;
    const c = k % cols;
    const v = value[k];
    rowLeft[r] -= v;
    colLeft[c] -= v;
    for (let choice = 0; choice < 2; choice++) {
      const add = choice === 0 ? v : 0; // kept first, then removed
      const rk = rowKept[r] + add;
      const ck = colKept[c] + add;
      if (rk <= rowTarget[r] && rowTarget[r] <= rk + rowLeft[r]
        && ck <= colTarget[c] && colTarget[c] <= ck + colLeft[c]) {
        rowKept[r] += add;
        colKept[c] += add;
        search(k + 1);
        rowKept[r] -= add;
        colKept[c] -= add;
        if (solutions >= 2 || capped) break;
      }
    }
    rowLeft[r] += v;
    colLeft[c] += v;
  };
  search(0);
  return { solutions: Math.min(solutions, 2), nodes, capped };
}

function targetsOf(rows, cols, value, kept) {
  const rowTarget = new Array(rows).fill(0);
  const colTarget = new Array(cols).fill(0);
  for (let i = 0; i < rows * cols; i++) {
    if (kept[i]) {
      rowTarget[(i / cols) | 0] += value[i];
      colTarget[i % cols] += value[i];
    }
  }
  return [rowTarget, colTarget];
}

// ---- generation -------------------------------------------------------------------

export function generate(v, level, seed, params = undefined) {
  const P = checkArgs(v, level, seed, params);
  const [rows, cols, minValue, maxValue, keepPercent, limit] = TABLE[level];
  const n = rows * cols;
  const rng = new Rng(seed);
  const span = maxValue - minValue + 1;
  let value = null;
  let solution = null;
  let rowTarget = null;
  let colTarget = null;
  let nodes = 0;
  let searchNodes = 0;
  let rejected = 0;
  let fallback = false;
  for (let k = 0; k < P.candidate_cap; k++) {
    const vals = new Array(n);
    for (let i = 0; i < n; i++) vals[i] = minValue + rng.below(span);
    const kept = new Array(n);
    let all = true;
    for (let i = 0; i < n; i++) {
      kept[i] = rng.below(100) < keepPercent ? 1 : 0;
      if (!kept[i]) all = false;
    }
    value = vals;
    if (all) {
      rejected += 1;
      continue;
    }
    const [rt, ct] = targetsOf(rows, cols, vals, kept);
    const cs = countSolutions(rows, cols, vals, rt, ct, P.node_cap);
    searchNodes += cs.nodes;
    if (cs.solutions === 1 && !cs.capped) {
      solution = kept;
      rowTarget = rt;
      colTarget = ct;
      nodes = cs.nodes;
      break;
    }
    rejected += 1;
  }
  if (solution === null) {
    // Fallback: the last candidate's values, every cell kept except cell 0.
    solution = new Array(n).fill(1);
    solution[0] = 0;
    [rowTarget, colTarget] = targetsOf(rows, cols, value, solution);
    const cs = countSolutions(rows, cols, value, rowTarget, colTarget, P.node_cap);
    nodes = cs.nodes;
    searchNodes += cs.nodes;
    rejected = P.candidate_cap;
    fallback = true;
  }
  let minToggles = 0;
  for (let i = 0; i < n; i++) if (!solution[i]) minToggles++;
  return {
    version: v, level, seed, rows, cols, n, minValue, maxValue, keepPercent, limit,
    value, rowTarget, colTarget, solution, nodes, searchNodes, rejected, fallback, minToggles,
    finishFloor: v >= 2 ? FINISH_PER_TOGGLE * minToggles : 0, // version 2
  };
}

function grid(flat, rows, cols) {
  const out = [];
  for (let r = 0; r < rows; r++) out.push(Array.from(flat.slice(r * cols, (r + 1) * cols)));
  return out;
}

export function describeLevel(lv) {
  const d = {
    rows: lv.rows,
    cols: lv.cols,
    min_value: lv.minValue,
    max_value: lv.maxValue,
    keep_percent: lv.keepPercent,
    limit_ms: lv.limit,
    grid: grid(lv.value, lv.rows, lv.cols),
    row_targets: lv.rowTarget.slice(),
    col_targets: lv.colTarget.slice(),
    solution: grid(lv.solution, lv.rows, lv.cols),
    nodes: lv.nodes,
    search_nodes: lv.searchNodes,
    rejected: lv.rejected,
    fallback: lv.fallback,
    min_toggles: lv.minToggles,
  };
  if (lv.version >= 2) {
    d.gap_same_ms = GAP_SAME;
    d.gap_other_ms = GAP_OTHER;
    d.finish_floor_ms = lv.finishFloor;
  }
  return d;
}

// ---- play -----------------------------------------------------------------------

export function start(lv) {
  const rowSum = new Array(lv.rows).fill(0);
  const colSum = new Array(lv.cols).fill(0);
  for (let i = 0; i < lv.n; i++) {
    rowSum[(i / lv.cols) | 0] += lv.value[i];
    colSum[i % lv.cols] += lv.value[i];
  }
  return {
    lv,
    kept: new Uint8Array(lv.n).fill(1),
    rowSum,
    colSum,
    prev_t: 0,
    last_toggle_t: 0,
    last_toggle_cell: -1, // none (version 2 only)
    toggles: 0,
    ended: false,
    completed: false,
    finish_t: -1,
  };
}


/** The decoder: exactly {t, cell} (every version takes the same fields), each an integer in its range. */
export function validMove(move, v = version) {
  return decodes(move, MOVE_RANGES);
}
const MOVE_RANGES = { t: [0, 0x7fffffff], cell: [0, 0x7fffffff] };

function solved(st) {
  const lv = st.lv;
  for (let r = 0; r < lv.rows; r++) if (st.rowSum[r] !== lv.rowTarget[r]) return false;
  for (let c = 0; c < lv.cols; c++) if (st.colSum[c] !== lv.colTarget[c]) return false;
  return true;
}

/** Applies one move, mutating `st`; returns the outcome code. */
export function apply(st, move) {
  if (!validMove(move)) throw new TypeError(`target-sums: malformed move ${JSON.stringify(move)}`);
  const { t, cell } = move;
  const lv = st.lv;
  if (st.ended) return 'after_end'; // 1
  if (cell >= lv.n) return 'cell_out_of_range'; // 2
  if (t < st.prev_t) return 'time_backwards'; // 3
  st.prev_t = t;
  if (t > lv.limit) { // 4
    st.ended = true;
    return 'after_end';
  }
  // 5: the toggle gap
  const gap = lv.version === 1 ? GAP_V1 : cell === st.last_toggle_cell ? GAP_SAME : GAP_OTHER;
  if (t - st.last_toggle_t < gap) return 'too_fast';
  // 6
  const r = (cell / lv.cols) | 0;
  const c = cell % lv.cols;
  const v = lv.value[cell];
  let code;
  if (st.kept[cell]) {
    st.kept[cell] = 0;
    st.rowSum[r] -= v;
    st.colSum[c] -= v;
    code = 'removed';
  } else {
    st.kept[cell] = 1;
    st.rowSum[r] += v;
    st.colSum[c] += v;
    code = 'restored';
  }
  st.toggles += 1;
  st.last_toggle_t = t;
  st.last_toggle_cell = cell;
  if (solved(st)) {
    // version 2: the toggle that completes the level, below the finish floor
    if (lv.version >= 2 && t < lv.finishFloor) return 'finish_below_floor';
    st.ended = true;
    st.completed = true;
    st.finish_t = t;
  }
  return code;
}

export function describeState(st) {
  return {
    kept: grid(st.kept, st.lv.rows, st.lv.cols),
    row_sums: st.rowSum.slice(),
    col_sums: st.colSum.slice(),
  };
}

export function result(st) {
  const lv = st.lv;
  const score = st.completed
    ? 1000 + Math.max(0, Math.floor((lv.limit - st.finish_t) / 100) - 5 * (st.toggles - lv.minToggles))
    : 0;
  return {
    completed: st.completed,
    score,
    duration_ms: st.last_toggle_t,
    toggles: st.toggles,
    min_toggles: lv.minToggles,
    finish_ms: st.finish_t,
  };
}

/** The typical full solution (docs/BENCH.md): toggle every removed cell of the solution, row-major, 500 ms apart from t = 500. */
export function typicalSolution(lv) {
  const moves = [];
  let t = 500;
  for (let i = 0; i < lv.n; i++) {
    if (!lv.solution[i]) {
      moves.push({ t, cell: i });
      t += 500;
    }
  }
  return moves;
}
