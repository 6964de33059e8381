// Pipes, from games/pipes/spec.md (versions 1 and 2; 2 is current).
// Version 2 adds the human floors: a turn gap of 100 ms on the same tile and
// 150 ms on another (rule 5), and the finish floor from min_turns and
// tiles_to_turn (rule 6, `finish_below_floor`).
import { Rng, checkGenerate, decodes } from '../core.mjs';

export const name = 'pipes';
export const version = 2;
export const versions = [1, 2];
/** The move fields of a version (both versions take the same). */
export function fieldsOf(v) {
  if (!versions.includes(v)) throw new RangeError(`pipes: unknown version ${v}`);
  return ['t', 'cell'];
}
export const fields = fieldsOf(version);
export const MAX_MOVES = 2000;
// version 1: one gap for every rotation
export const GAP_V1 = 50;
// version 2 ("Human floors")
export const GAP_SAME = 100;
export const GAP_OTHER = 150;
export const FINISH_PER_TILE = 300;
export const FINISH_PER_EXTRA_TURN = 100;

// level: [side, wrap, limit_ms]
const TABLE = [
  null,
  [3, false, 60000],
  [4, false, 90000],
  [4, false, 75000],
  [5, false, 120000],
  [5, false, 100000],
  [6, false, 150000],
  [3, true, 60000],
  [6, false, 130000],
  [7, false, 180000],
  [7, false, 160000],
  [4, true, 120000],
  [5, true, 180000],
  [6, true, 240000],
  [6, true, 210000],
  [7, true, 300000],
];

export const levels = TABLE.length - 1;
export const NODE_CAP = 20000;
export const TREE_LIMIT = 200;
export const MAX_OPENINGS = 3;

export const OUTCOMES = {
  rotated: 'applied',
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

// ---- masks ------------------------------------------------------------------

export const rot = (m) => ((m << 1) | (m >> 3)) & 15;
const opp = (d) => (d + 2) & 3;

const POP = new Uint8Array(16);
for (let m = 0; m < 16; m++) POP[m] = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);

// For a 16-bit set of masks: OR / AND of its members, size, single member.
const ANY = new Uint8Array(65536);
const ALL = new Uint8Array(65536);
const SIZE = new Uint8Array(65536);
const ONLY = new Int8Array(65536).fill(-1);
for (let s = 1; s < 65536; s++) {
  let a = 0;
  let l = 15;
  let c = 0;
  for (let m = 0; m < 16; m++) {
    if (s & (1 << m)) {
      a |= m;
      l &= m;
      c++;
    }
  }
  ANY[s] = a;
  ALL[s] = l;
  SIZE[s] = c;
  if (c === 1) ONLY[s] = Math.log2(s);
}
// WITH[d]: the set of masks opening toward d; WITHOUT[d]: its complement.
const WITH = [0, 0, 0, 0];
for (let m = 0; m < 16; m++) for (let d = 0; d < 4; d++) if (m & (1 << d)) WITH[d] |= 1 << m;
const WITHOUT = WITH.map((w) => ~w & 0xffff);

function domainOf(m) {
  let s = 0;
  let x = m;
  for (let k = 0; k < 4; k++) {
    s |= 1 << x;
    x = rot(x);
  }
  return s;
}

// ---- geometry ---------------------------------------------------------------

const DR = [-1, 0, 1, 0];
const DC = [0, 1, 0, -1];

const geoCache = new Map();
/** Neighbour table: nb[c*4+d] = neighbour index or -1 (the border). */
function geometry(w, h, wrap) {
  const key = `${w}x${h}${wrap ? 'w' : ''}`;
  let g = geoCache.get(key);
  if (g) return g;
  const n = w * h;
  const nb = new Int32Array(n * 4);
  for (let c = 0; c < n; c++) {
    const r = Math.floor(c / w);
    const col = c % w;
    for (let d = 0; d < 4; d++) {
      let rr = r + DR[d];
      let cc = col + DC[d];
      if (wrap) {
        rr = (rr + h) % h;
        cc = (cc + w) % w;
        nb[c * 4 + d] = rr * w + cc;
      } else {
        nb[c * 4 + d] = rr < 0 || rr >= h || cc < 0 || cc >= w ? -1 : rr * w + cc;
      }
    }
  }
  g = { w, h, n, wrap, nb, source: Math.floor(h / 2) * w + Math.floor(w / 2) };
  geoCache.set(key, g);
  return g;
}

// ---- solved -----------------------------------------------------------------

/** Every cell reachable from the source through openings met from both sides. */
function connected(g, tiles) {
  const n = g.n;
  const nb = g.nb;
  const seen = new Uint8Array(n);
  const stack = [g.source];
  seen[g.source] = 1;
  let count = 1;
  while (stack.length) {
    const c = stack.pop();
    const m = tiles[c];
    for (let d = 0; d < 4; d++) {
      if (!(m & (1 << d))) continue;
      const x = nb[c * 4 + d];
      if (x < 0 || seen[x] || !(tiles[x] & (1 << opp(d)))) continue;
      seen[x] = 1;
      count++;
      stack.push(x);
    }
  }
  return count === n;
}

export function isSolved(g, tiles) {
  const nb = g.nb;
  for (let c = 0; c < g.n; c++) {
    const m = tiles[c];
    for (let d = 0; d < 4; d++) {
      if (!(m & (1 << d))) continue;
      const x = nb[c * 4 + d];
      if (x < 0 || !(tiles[x] & (1 << opp(d)))) return false;
    }
  }
  return connected(g, tiles);
}

// ---- countSolutions ---------------------------------------------------------

/** Propagates `dom` in place to the fixpoint; false if a domain became empty. */
function propagate(g, dom) {
  const n = g.n;
  const nb = g.nb;
  let changed = true;
  while (changed) {
    changed = false;
    for (let c = 0; c < n; c++) {
      const cur = dom[c];
      let keep = cur;
      for (let d = 0; d < 4; d++) {
        const x = nb[c * 4 + d];
        if (x < 0) {
          keep &= WITHOUT[d];
        } else {
          const o = 1 << opp(d);
          const dx = dom[x];
          if (!(ANY[dx] & o)) keep &= WITHOUT[d];
          if (ALL[dx] & o) keep &= WITH[d];
        }
      }
      if (keep !== cur) {
        dom[c] = keep;
        changed = true;
        if (keep === 0) return false;
      }
    }
  }
  return true;
}

/** Returns { solutions, nodes, capped, unique }. */
export function countSolutions(g, tiles, nodeCap = NODE_CAP) {
  const n = g.n;
  const ctx = { solutions: 0, nodes: 0, capped: false };
  const leaf = new Uint8Array(n);
  const search = (dom) => {
    if (ctx.nodes === nodeCap) {
      ctx.capped = true;
      return;
    }
    ctx.nodes += 1;
    if (!propagate(g, dom)) return;
    let best = -1;
    let bestSize = 99;
    for (let c = 0; c < n; c++) {
      const s = SIZE[dom[c]];
      if (s > 1 && s < bestSize) {
        best = c;
        bestSize = s;
      }
    }
    if (best < 0) {
      for (let c = 0; c < n; c++) leaf[c] = ONLY[dom[c]];
      if (connected(g, leaf)) ctx.solutions += 1;
      return;
    }
    const set = dom[best];
    for (let m = 0; m < 16; m++) {
      if (!(set & (1 << m))) continue;
      const child = dom.slice();
      child[best] = 1 << m;
      search(child);
      if (ctx.solutions >= 2 || ctx.capped) return;
    }
  };
  const dom = new Uint16Array(n);
  for (let c = 0; c < n; c++) dom[c] = domainOf(tiles[c]);
  search(dom);
  return { ...ctx, unique: ctx.solutions === 1 && !ctx.capped };
}

// ---- generation -------------------------------------------------------------

/** Grows one random spanning tree; returns the tiles, or null if the frontier ran dry. */
function growTree(g, rng, maxOpenings = MAX_OPENINGS) {
  const n = g.n;
  const nb = g.nb;
  const tiles = new Uint8Array(n);
  const inTree = new Uint8Array(n);
  const fc = []; // frontier: cell, d, neighbour (flat triples)
  const fd = [];
  const fx = [];
  const addEdges = (c) => {
    for (let d = 0; d < 4; d++) {
      const x = nb[c * 4 + d];
      if (x >= 0 && !inTree[x]) {
        fc.push(c);
        fd.push(d);
        fx.push(x);
      }
    }
  };
  inTree[g.source] = 1;
  let count = 1;
  addEdges(g.source);
  while (count < n) {
    if (fc.length === 0) return null;
    const i = rng.next() % fc.length;
    const c = fc[i];
    const d = fd[i];
    const x = fx[i];
    const last = fc.length - 1;
    fc[i] = fc[last];
    fd[i] = fd[last];
    fx[i] = fx[last];
    fc.pop();
    fd.pop();
    fx.pop();
    if (inTree[x] || POP[tiles[c]] >= maxOpenings) continue;
    tiles[c] |= 1 << d;
    tiles[x] |= 1 << opp(d);
    inTree[x] = 1;
    count++;
    addEdges(x);
  }
  return tiles;
}

function boustrophedon(g) {
  const { w, h } = g;
  const tiles = new Uint8Array(g.n);
  const link = (a, b, d) => {
    tiles[a] |= 1 << d;
    tiles[b] |= 1 << opp(d);
  };
  for (let r = 0; r < h; r++) {
    const ltr = r % 2 === 0;
    for (let k = 0; k + 1 < w; k++) {
      const a = r * w + (ltr ? k : w - 1 - k);
      const b = r * w + (ltr ? k + 1 : w - 2 - k);
      link(a, b, ltr ? 1 : 3);
    }
    if (r + 1 < h) {
      const lastCol = ltr ? w - 1 : 0;
      link(r * w + lastCol, (r + 1) * w + lastCol, 2);
    }
  }
  return tiles;
}

/**
 * "Generation parameters": name -> {def, min, max}. The server always uses the
 * defaults; a vector case may set smaller values to reach a fallback.
 */
export const PARAMS = {
  tree_cap: { def: TREE_LIMIT, min: 1, max: TREE_LIMIT },
  node_cap: { def: NODE_CAP, min: 1, max: NODE_CAP },
  max_openings: { def: MAX_OPENINGS, min: 1, max: MAX_OPENINGS },
};

/** generate(version, level, seed, params?): `params` by name (the defaults when absent). */
export function generate(v, level, seed, params = undefined) {
  const P = checkGenerate('pipes', versions, levels, v, level, seed, PARAMS, params);
  const [side, wrap, limit] = TABLE[level];
  const g = geometry(side, side, wrap);
  const rng = new Rng(seed);
  let solution = null;
  let nodes = 0;
  let rejected = 0;
  let unique = false;
  let lastSpanning = null;
  let lastNodes = 0;
  for (let tree = 0; tree < P.tree_cap; tree++) {
    const tiles = growTree(g, rng, P.max_openings);
    if (tiles) {
      const cs = countSolutions(g, tiles, P.node_cap);
      if (cs.unique) {
        solution = tiles;
        nodes = cs.nodes;
        unique = true;
        break;
      }
      lastSpanning = tiles;
      lastNodes = cs.nodes;
    }
    rejected += 1;
  }
  if (!solution) {
    // The fallbacks of step 4 (never seen with the defaults; the vectors reach them through PARAMS).
    if (lastSpanning) {
      solution = lastSpanning;
      nodes = lastNodes;
    } else {
      solution = boustrophedon(g);
      nodes = 0;
    }
    unique = false;
  }
  const startTiles = Uint8Array.from(solution);
  for (;;) {
    for (let c = 0; c < g.n; c++) {
      const k = rng.next() % 4;
      for (let j = 0; j < k; j++) startTiles[c] = rot(startTiles[c]);
    }
    if (!isSolved(g, startTiles)) break;
  }
  let minTurns = 0;
  let tilesToTurn = 0;
  for (let c = 0; c < g.n; c++) {
    const k = turnsBetween(startTiles[c], solution[c]);
    minTurns += k;
    if (k >= 1) tilesToTurn += 1;
  }
  return {
    version: v, level, seed, g, width: side, height: side, wrap, limit,
    source: g.source, start: Array.from(startTiles), solution: Array.from(solution),
    nodes, rejected, unique, minTurns, tilesToTurn,
    // version 2: 300 ms per tile to turn, 100 ms per further quarter turn
    finishFloor: v >= 2 ? FINISH_PER_TILE * tilesToTurn + FINISH_PER_EXTRA_TURN * (minTurns - tilesToTurn) : 0,
  };
}

/** The smallest k in 0..3 with rot^k(from) == to (-1 if none). */
export function turnsBetween(from, to) {
  let x = from;
  for (let k = 0; k < 4; k++) {
    if (x === to) return k;
    x = rot(x);
  }
  return -1;
}

function rows(flat, w, h) {
  const out = [];
  for (let r = 0; r < h; r++) out.push(Array.from(flat.slice(r * w, (r + 1) * w)));
  return out;
}

export function describeLevel(lv) {
  const d = {
    width: lv.width,
    height: lv.height,
    wrap: lv.wrap,
    source: lv.source,
    limit_ms: lv.limit,
    start: rows(lv.start, lv.width, lv.height),
    solution: rows(lv.solution, lv.width, lv.height),
    nodes: lv.nodes,
    rejected: lv.rejected,
    unique: lv.unique,
    min_turns: lv.minTurns,
  };
  if (lv.version >= 2) {
    d.tiles_to_turn = lv.tilesToTurn;
    d.gap_same_ms = GAP_SAME;
    d.gap_other_ms = GAP_OTHER;
    d.finish_floor_ms = lv.finishFloor;
  }
  return d;
}

// ---- play -------------------------------------------------------------------

export function start(lv) {
  return {
    lv,
    tiles: Uint8Array.from(lv.start),
    prev_t: 0,
    last_turn_t: 0,
    last_turn_cell: -1, // none (version 2 only)
    turns: 0,
    ended: false,
    completed: false,
    finish_t: -1,
  };
}


/** The decoder: exactly {t, cell}, both integers 0..2^31-1 (every version). */
export function validMove(move, v = version) {
  return decodes(move, MOVE_RANGES);
}
const MOVE_RANGES = { t: [0, 0x7fffffff], cell: [0, 0x7fffffff] };

export function apply(st, move) {
  if (!validMove(move)) throw new TypeError(`pipes: malformed move ${JSON.stringify(move)}`);
  const { t, cell } = move;
  const lv = st.lv;
  if (st.ended) return 'after_end'; // 1
  if (cell >= lv.g.n) return 'cell_out_of_range'; // 2
  if (t < st.prev_t) return 'time_backwards'; // 3
  st.prev_t = t; // 4
  if (t > lv.limit) {
    st.ended = true;
    return 'after_end';
  }
  // 5: the turn gap
  const gap = lv.version === 1 ? GAP_V1 : cell === st.last_turn_cell ? GAP_SAME : GAP_OTHER;
  if (t - st.last_turn_t < gap) return 'too_fast';
  // 6
  st.tiles[cell] = rot(st.tiles[cell]);
  st.turns += 1;
  st.last_turn_t = t;
  st.last_turn_cell = cell;
  if (isSolved(lv.g, st.tiles)) {
    // version 2: the rotation that solves the board, below the finish floor
    if (lv.version >= 2 && t < lv.finishFloor) return 'finish_below_floor';
    st.ended = true;
    st.completed = true;
    st.finish_t = t;
  }
  return 'rotated';
}

export function describeState(st) {
  return { tiles: rows(st.tiles, st.lv.width, st.lv.height) };
}

export function result(st) {
  const lv = st.lv;
  const wasted = Math.max(0, st.turns - lv.minTurns);
  const score = st.completed
    ? 1000 + Math.max(0, Math.floor((lv.limit - st.finish_t) / 100) - 5 * wasted)
    : 0;
  return {
    completed: st.completed,
    score,
    duration_ms: st.last_turn_t,
    turns: st.turns,
    min_turns: lv.minTurns,
    finish_ms: st.finish_t,
  };
}

/** The typical full solution (docs/BENCH.md): row-major, fewest turns, 300 ms apart from t = 300. */
export function typicalSolution(lv) {
  const moves = [];
  let t = 300;
  for (let c = 0; c < lv.start.length; c++) {
    const k = turnsBetween(lv.start[c], lv.solution[c]);
    for (let j = 0; j < k; j++) {
      moves.push({ t, cell: c });
      t += 300;
    }
  }
  return moves;
}
