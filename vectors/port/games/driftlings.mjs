// Driftlings, from games/driftlings/spec.md (versions 1 and 2; 2 is current).
// Version 2: `duration_ms` is 25 ms times the tick the run was over (version 1:
// the tick of the last move), and the generator's crowd gate asks the crowd
// plan to save the whole crowd (version 1: the quota).
//
// A tick-driven crowd simulation on a byte terrain (`.` air 46, `#` earth 35,
// `=` steel 61), skills as moves, and generation: a candidate route design, the
// single-walker uniform-cost solver with its node accounting, the gates, the
// crowd plan and the fallback. Integer arithmetic only.
import { Rng, fnv1a32, checkGenerate, decodes } from '../core.mjs';

export const name = 'driftlings';
export const version = 2;
export const versions = [1, 2];
/** The move fields of a version (both versions take the same). */
export function fieldsOf(v) {
  if (!versions.includes(v)) throw new RangeError(`driftlings: unknown version ${v}`);
  return ['tick', 'walker', 'skill'];
}
export const fields = fieldsOf(version);
export const TICK_MS = 25;
export const MAX_MOVES = 2000;

export const AIR = 46;
export const EARTH = 35;
export const STEEL = 61;

// acts
export const WALK = 0;
export const FALL = 1;
export const CLIMB = 2;
export const BLOCK = 3;
export const BASH = 4;
export const DIG = 5;
export const SAVED = 6;
export const DEAD = 7;
export const ACTIVE = [true, true, true, false, true, true, false, false];

// skills
export const CLIMBER = 0;
export const FLOATER = 1;
export const BLOCKER = 2;
export const BASHER = 3;
export const DIGGER = 4;
export const SKILLS = ['climber', 'floater', 'blocker', 'basher', 'digger'];
const SKILL_ACT = [-1, -1, BLOCK, BASH, DIG];

// ---- the level table ------------------------------------------------------------

// level: [W, bands, demands, crowd, quota, interval]
const TABLE = [
  null,
  [16, 1, 1, 5, 4, 4],
  [20, 1, 2, 5, 4, 4],
  [20, 2, 2, 6, 5, 4],
  [24, 2, 2, 6, 5, 4],
  [24, 2, 3, 8, 6, 4],
  [28, 2, 3, 8, 6, 4],
  [28, 3, 3, 8, 7, 4],
  [28, 3, 4, 10, 8, 4],
  [32, 3, 4, 10, 8, 4],
  [32, 3, 5, 10, 8, 4],
  [36, 3, 5, 12, 10, 4],
  [36, 4, 5, 12, 10, 4],
  [36, 4, 6, 12, 10, 4],
  [40, 4, 6, 14, 12, 4],
  [40, 4, 7, 14, 12, 4],
];

export const levels = TABLE.length - 1;

export function levelRow(level) {
  const [W, bands, demands, crowd, quota, interval] = TABLE[level];
  return { W, bands, demands, crowd, quota, interval };
}

// ---- outcomes -----------------------------------------------------------------------

export const OUTCOMES = {
  assigned: 'applied',
  after_end: 'ignored',
  walker_gone: 'ignored',
  skill_exhausted: 'ignored',
  trait_held: 'ignored',
  busy: 'ignored',
  no_such_walker: 'rejected',
  time_backwards: 'rejected',
  not_spawned: 'rejected',
};

export function kindOf(code) {
  const k = OUTCOMES[code];
  if (!k) throw new RangeError(`unknown outcome ${code}`);
  return k;
}

/** The decoder: exactly {tick, walker, skill} (every version), tick 0..2^31-1, walker 0..31, skill 0..4. */
export function validMove(m, v = version) {
  return decodes(m, MOVE_RANGES);
}
const MOVE_RANGES = { tick: [0, 0x7fffffff], walker: [0, 31], skill: [0, 4] };

// ---- one walker's step -----------------------------------------------------------------

/**
 * One step of walker `w` ({x, y, dir, act, traits, fall}, mutated) on terrain `T`
 * (Uint8Array, W x H) with the exit at (exX, exY). `blockerAt(x, y)` (or null: no
 * blockers) tells whether another walker blocks there. Returns the index of the
 * cell carved in this step, or -1.
 */
export function step(T, W, H, exX, exY, w, blockerAt) {
  const solid = (x, y) => x < 0 || y < 0 || x >= W || y >= H || T[y * W + x] !== AIR;
  const earth = (x, y) => x >= 0 && y >= 0 && x < W && y < H && T[y * W + x] === EARTH;
  const blk = blockerAt === null ? () => false : blockerAt;
  let carved = -1;
  const { x, y, dir } = w;
  switch (w.act) {
    case WALK: {
      if (!solid(x, y + 1)) {
        w.act = FALL;
        w.fall = 1;
        w.y = y + 1;
        break;
      }
      const nx = x + dir;
      if (blk(nx, y)) w.dir = -dir;
      else if (!solid(nx, y)) w.x = nx;
      else if (!solid(nx, y - 1) && !solid(x, y - 1) && !blk(nx, y - 1)) {
        w.x = nx;
        w.y = y - 1;
      } else if (w.traits & 1) w.act = CLIMB;
      else w.dir = -dir;
      break;
    }
    case FALL:
      if (solid(x, y + 1)) {
        if (w.fall > 6 && !(w.traits & 2)) w.act = DEAD;
        else {
          w.act = WALK;
          w.fall = 0;
        }
      } else {
        w.y = y + 1;
        if (w.fall < 7) w.fall += 1;
      }
      break;
    case CLIMB:
      if (!solid(x + dir, y)) w.act = WALK;
      else if (solid(x, y - 1)) {
        w.dir = -dir;
        w.act = FALL;
        w.fall = 0;
      } else {
        w.y = y - 1;
        if (!solid(x + dir, w.y)) {
          w.x = x + dir;
          w.act = WALK;
        }
      }
      break;
    case BLOCK:
      if (!solid(x, y + 1)) {
        w.act = FALL;
        w.fall = 1;
        w.y = y + 1;
      }
      break;
    case BASH:
      if (!solid(x, y + 1)) {
        w.act = FALL;
        w.fall = 1;
        w.y = y + 1;
      } else if (blk(x + dir, y)) {
        w.dir = -dir;
        w.act = WALK;
      } else if (earth(x + dir, y)) {
        carved = y * W + x + dir;
        T[carved] = AIR;
        w.x = x + dir;
      } else w.act = WALK;
      break;
    case DIG:
      if (earth(x, y + 1)) {
        carved = (y + 1) * W + x;
        T[carved] = AIR;
        w.y = y + 1;
      } else if (!solid(x, y + 1)) {
        w.act = FALL;
        w.fall = 0;
      } else w.act = WALK;
      break;
    default:
      break; // saved, dead
  }
  if (w.act !== DEAD && w.x === exX && w.y === exY) w.act = SAVED;
  return carved;
}

// ---- the world -------------------------------------------------------------------------------

/**
 * A fresh world for `lv` (a level record or any object with width, height,
 * terrain (bytes), entrance [x, y], exit [x, y], crowd, quota, interval, cap,
 * inventory [5] and optionally version (1 when absent): the rules' version,
 * which only `result`'s duration_ms reads).
 */
export function start(lv) {
  return {
    lv,
    T: Uint8Array.from(lv.terrain),
    tick: 0,
    spawned: 0,
    walkers: [],
    left: lv.inventory.slice(),
    prevTick: -1, // the tick of the previous move that got past step 2
    used: 0,
    record: null, // optional: an array that gets the walkers after every tick
  };
}

export function isOver(st) {
  if (st.tick >= st.lv.cap) return true;
  if (st.spawned < st.lv.crowd) return false;
  for (const w of st.walkers) if (ACTIVE[w.act]) return false;
  return true;
}

const rowOf = (w) => [w.x, w.y, w.dir, w.act, w.traits, w.fall];

/** One tick: spawn, every spawned walker's step in index order, tick += 1. */
export function runTick(st) {
  const lv = st.lv;
  if (st.spawned < lv.crowd && st.tick === st.spawned * lv.interval) {
    st.walkers.push({ x: lv.entrance[0], y: lv.entrance[1], dir: 1, act: FALL, traits: 0, fall: 0 });
    st.spawned++;
  }
  const ws = st.walkers;
  const n = ws.length;
  let anyBlock = false;
  for (let i = 0; i < n; i++) if (ws[i].act === BLOCK) anyBlock = true;
  for (let i = 0; i < n; i++) {
    let blk = null;
    if (anyBlock) {
      blk = (x, y) => {
        for (let j = 0; j < n; j++) {
          if (j !== i && ws[j].act === BLOCK && ws[j].x === x && ws[j].y === y) return true;
        }
        return false;
      };
    }
    step(st.T, lv.width, lv.height, lv.exit[0], lv.exit[1], ws[i], blk);
    if (ws[i].act === BLOCK) anyBlock = true;
  }
  st.tick++;
  if (st.record) st.record[st.tick] = ws.map(rowOf);
}

/** Applies one move, mutating `st`; returns the outcome code (throws TypeError if malformed). */
export function apply(st, move) {
  if (!validMove(move)) throw new TypeError(`driftlings: malformed move ${JSON.stringify(move)}`);
  const lv = st.lv;
  if (move.walker >= lv.crowd) return 'no_such_walker';
  if (move.tick < st.prevTick) return 'time_backwards';
  st.prevTick = move.tick;
  while (!isOver(st) && st.tick < move.tick) runTick(st);
  if (isOver(st)) return 'after_end';
  if (move.walker >= st.spawned) return 'not_spawned';
  const w = st.walkers[move.walker];
  if (w.act === SAVED || w.act === DEAD) return 'walker_gone';
  const s = move.skill;
  if (st.left[s] <= 0) return 'skill_exhausted';
  if ((s === CLIMBER && (w.traits & 1)) || (s === FLOATER && (w.traits & 2))) return 'trait_held';
  if (s >= BLOCKER && ((w.act !== WALK && w.act !== BASH && w.act !== DIG) || w.act === SKILL_ACT[s])) return 'busy';
  st.left[s]--;
  st.used++;
  give(w, s);
  return 'assigned';
}

function give(w, s) {
  if (s === CLIMBER) w.traits |= 1;
  else if (s === FLOATER) w.traits |= 2;
  else w.act = SKILL_ACT[s];
}

/** Would giving skill `s` to `w` pass steps 5, 7 and 8 of "Moves"? */
function passes578(w, s) {
  if (w.act === SAVED || w.act === DEAD) return false;
  if ((s === CLIMBER && (w.traits & 1)) || (s === FLOATER && (w.traits & 2))) return false;
  if (s >= BLOCKER && ((w.act !== WALK && w.act !== BASH && w.act !== DIG) || w.act === SKILL_ACT[s])) return false;
  return true;
}

const byName = (v) => ({ climber: v[0], floater: v[1], blocker: v[2], basher: v[3], digger: v[4] });

/** The terrain rows as printed: `.#=` with `E` and `X` at the entrance and exit. */
export function printRows(T, lv) {
  const W = lv.width;
  const rows = [];
  for (let y = 0; y < lv.height; y++) {
    let s = '';
    for (let x = 0; x < W; x++) {
      if (x === lv.entrance[0] && y === lv.entrance[1]) s += 'E';
      else if (x === lv.exit[0] && y === lv.exit[1]) s += 'X';
      else s += String.fromCharCode(T[y * W + x]);
    }
    rows.push(s);
  }
  return rows;
}

export function stateHash(st) {
  const bytes = new Uint8Array(st.T.length + 6 * st.walkers.length);
  bytes.set(st.T, 0);
  let i = st.T.length;
  for (const w of st.walkers) {
    bytes[i++] = w.x;
    bytes[i++] = w.y;
    bytes[i++] = w.dir & 255;
    bytes[i++] = w.act;
    bytes[i++] = w.traits;
    bytes[i++] = w.fall;
  }
  return fnv1a32(bytes);
}

export function describeState(st) {
  return {
    tick: st.tick,
    ended: isOver(st),
    hash: stateHash(st),
    left: byName(st.left),
    walkers: st.walkers.map((w) => ({ x: w.x, y: w.y, dir: w.dir, act: w.act, traits: w.traits, fall: w.fall })),
    terrain: printRows(st.T, st.lv),
  };
}

function cloneState(st) {
  return {
    lv: st.lv,
    T: Uint8Array.from(st.T),
    tick: st.tick,
    spawned: st.spawned,
    walkers: st.walkers.map((w) => ({ ...w })),
    left: st.left.slice(),
    prevTick: st.prevTick,
    used: st.used,
    record: null,
  };
}

/** Runs the world on until the run is over (mutating `st`). */
export function runOut(st) {
  while (!isOver(st)) runTick(st);
  return st;
}

/** The result: the world is run on (on a copy) until the run is over. */
export function result(st, inPlace = false) {
  const w = inPlace ? st : cloneState(st);
  runOut(w);
  let saved = 0;
  let dead = 0;
  for (const x of w.walkers) {
    if (x.act === SAVED) saved++;
    else if (x.act === DEAD) dead++;
  }
  const completed = saved >= st.lv.quota;
  const v = st.lv.version === undefined ? 1 : st.lv.version;
  return {
    completed,
    score: completed ? 1000000 * saved - 1000 * st.used - w.tick : 0,
    // version 1: the tick of the last move that got past step 2 (0 with none);
    // version 2: the tick at which the run was over
    duration_ms: TICK_MS * (v >= 2 ? w.tick : Math.max(0, st.prevTick)),
    saved,
    dead,
    crowd: st.lv.crowd,
    quota: st.lv.quota,
    ticks: w.tick,
    skills_used: st.used,
  };
}

// ---- the solver ----------------------------------------------------------------------------------

/** Test hook: called with every solver result (and whether it counted alternatives). */
let solveHook = null;
export function setSolveHook(f) {
  solveHook = f;
}

export const PUSH_CAP = 65536;
export const STORE_CAP = 262144;
export const AFTER_GOAL = 2000;

// Binary min-heap of numbers (the priority encodes used, t and push number).
class Heap {
  constructor() {
    this.a = [];
  }
  get size() {
    return this.a.length;
  }
  push(v) {
    const a = this.a;
    let i = a.length;
    a.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= v) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = v;
  }
  pop() {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    const n = a.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && a[r] < a[l] ? r : l;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

const PUSH_SPACE = 131072; // > PUSH_CAP
// the packed skills left in a solver key: climber 1 bit, floater 1, basher 3, digger 2 (no blockers)
const LSHIFT = [0, 1, -1, 2, 5];
const LMASK = [1, 1, 0, 7, 3];
const T_SPACE = 4096; // > any cap

/**
 * The uniform-cost search for the pioneer with inventory `inv` ([5]).
 * Returns {status: 'solved'|'unsolvable'|'capped', capped, moves: [{tick, skill}],
 * route_ticks, expansions, alternatives, pushed}.
 *
 * The node cap (spec, Solver): a child that passes the dead, cap and closed checks is
 * pushed, unless `pushCap` nodes have been pushed already (the root is the first of
 * them), in which case the search stops as capped without pushing it; so a search
 * holds at most `pushCap` nodes. A search that holds its goal when it stops this way
 * (or on the carved-list store) is solved, with `capped: true`; only a search capped
 * before any goal has status `capped`. `pushCap` (`node_cap`), `carveCap` (`carve_cap`)
 * and `altWindow` (`alt_window`) are the spec's generation parameters; their defaults
 * are PUSH_CAP (65,536), STORE_CAP (262,144) and AFTER_GOAL (2,000).
 */
export function solve(lv, inv, countAlternatives, pushCap = PUSH_CAP, carveCap = STORE_CAP, altWindow = AFTER_GOAL) {
  if (!Number.isInteger(pushCap) || pushCap < 1 || pushCap > PUSH_CAP) throw new RangeError('solver push cap out of range');
  if (!Number.isInteger(carveCap) || carveCap < 0 || carveCap > STORE_CAP) throw new RangeError('solver carve cap out of range');
  if (!Number.isInteger(altWindow) || altWindow < 0 || altWindow > AFTER_GOAL) throw new RangeError('solver window out of range');
  const W = lv.width;
  const H = lv.height;
  const cap = lv.cap;
  const exX = lv.exit[0];
  const exY = lv.exit[1];
  const T = Uint8Array.from(lv.terrain);
  const base = lv.terrain;
  if (inv[0] > 1 || inv[1] > 1 || inv[2] !== 0 || inv[3] > 7 || inv[4] > 3 || inv.some((v) => v < 0)) throw new RangeError('solver inventory out of range');
  const out = (status, extra = {}) => {
    const r = { status, capped: false, moves: [], route_ticks: -1, expansions, alternatives, pushed, ...extra };
    if (solveHook) solveHook(r, countAlternatives);
    return r;
  };
  let expansions = 0;
  let alternatives = 0;
  let pushed = 0;

  // node store
  const NX = new Int16Array(PUSH_CAP);
  const NY = new Int16Array(PUSH_CAP);
  const ND = new Int8Array(PUSH_CAP);
  const NA = new Int8Array(PUSH_CAP);
  const NTR = new Int8Array(PUSH_CAP);
  const NF = new Int8Array(PUSH_CAP);
  const NL = new Int32Array(PUSH_CAP); // left, 4 bits a skill
  const NU = new Int16Array(PUSH_CAP);
  const NT = new Int32Array(PUSH_CAP);
  const NLIST = new Int32Array(PUSH_CAP);
  const NPAR = new Int32Array(PUSH_CAP);
  const NSK = new Int8Array(PUSH_CAP);
  const NKEY = new Float64Array(PUSH_CAP);

  const lists = [[]];
  const listIds = new Map([['', 0]]);
  let store = 0;

  const keyOf = (x, y, dir, act, traits, fall, left, listId) =>
    (x | (y << 6) | ((dir > 0 ? 1 : 0) << 12) | (act << 13) | (traits << 16) | (fall << 18))
    + left * 2097152 + listId * 268435456; // 2^21, 2^28 (left < 2^7)

  const packLeft = (l) => l[0] | (l[1] << 1) | (l[3] << 2) | (l[4] << 5);

  const heap = new Heap();
  const closed = new Set();
  const w = { x: lv.entrance[0], y: lv.entrance[1], dir: 1, act: FALL, traits: 0, fall: 0 };
  step(T, W, H, exX, exY, w, null);
  if (w.act === DEAD) return out('unsolvable');
  const addNode = (w, left, used, t, listId, parent, skill, key) => {
    const n = pushed++;
    NX[n] = w.x; NY[n] = w.y; ND[n] = w.dir; NA[n] = w.act; NTR[n] = w.traits; NF[n] = w.fall;
    NL[n] = left; NU[n] = used; NT[n] = t; NLIST[n] = listId; NPAR[n] = parent; NSK[n] = skill; NKEY[n] = key;
    heap.push((used * T_SPACE + t) * PUSH_SPACE + n);
    return n;
  };
  const rootLeft = packLeft(inv);
  addNode(w, rootLeft, 0, 1, 0, -1, -1, keyOf(w.x, w.y, w.dir, w.act, w.traits, w.fall, rootLeft, 0));

  let goal = -1;
  let expAtGoal = 0;
  let capped = false;
  const c = { x: 0, y: 0, dir: 0, act: 0, traits: 0, fall: 0 };
  const OPTIONS = [-1, CLIMBER, FLOATER, BASHER, DIGGER];

  search: while (heap.size > 0) {
    const n = heap.pop() % PUSH_SPACE;
    if (goal >= 0 && (NU[n] > NU[goal] || expansions - expAtGoal >= altWindow)) break;
    const key = NKEY[n];
    if (closed.has(key)) continue;
    closed.add(key);
    expansions++;
    if (NA[n] === SAVED) {
      if (goal < 0) {
        goal = n;
        expAtGoal = expansions;
      }
      alternatives++;
      if (!countAlternatives) break;
      continue;
    }
    // expand: the node's terrain
    const list = lists[NLIST[n]];
    for (let i = 0; i < list.length; i++) T[list[i]] = AIR;
    const x = NX[n];
    const y = NY[n];
    const dir = ND[n];
    const act = NA[n];
    const traits = NTR[n];
    const left = NL[n];
    const t1 = NT[n] + 1;
    for (let oi = 0; oi < 5; oi++) {
      const s = OPTIONS[oi];
      let cleft = left;
      let cused = NU[n];
      c.x = x; c.y = y; c.dir = dir; c.act = act; c.traits = traits; c.fall = NF[n];
      if (s >= 0) {
        if (((left >> LSHIFT[s]) & LMASK[s]) === 0) continue;
        if (s === CLIMBER) {
          if (traits & 1) continue;
          c.traits |= 1;
        } else if (s === FLOATER) {
          if (traits & 2) continue;
          c.traits |= 2;
        } else {
          if ((act !== WALK && act !== BASH && act !== DIG) || act === SKILL_ACT[s]) continue;
          if (s === BASHER) {
            const xx = x + dir;
            if (!(xx >= 0 && xx < W && T[y * W + xx] === EARTH)) continue;
          } else {
            const yy = y + 1;
            if (!(yy < H && T[yy * W + x] === EARTH)) continue;
          }
          c.act = SKILL_ACT[s];
        }
        cleft -= 1 << LSHIFT[s];
        cused++;
      }
      const cut = step(T, W, H, exX, exY, c, null);
      let listId = NLIST[n];
      if (cut >= 0) {
        T[cut] = base[cut];
        // insert in order
        const nl = [];
        let ins = false;
        for (let i = 0; i < list.length; i++) {
          if (!ins && cut < list[i]) {
            nl.push(cut);
            ins = true;
          }
          nl.push(list[i]);
        }
        if (!ins) nl.push(cut);
        if (store + nl.length > carveCap) {
          capped = true;
          break search;
        }
        store += nl.length;
        if (c.act === DEAD || t1 > cap) continue;
        const ks = nl.join(',');
        let id = listIds.get(ks);
        if (id === undefined) {
          id = lists.length;
          lists.push(nl);
          listIds.set(ks, id);
        }
        listId = id;
      } else if (c.act === DEAD || t1 > cap) continue;
      const ckey = keyOf(c.x, c.y, c.dir, c.act, c.traits, c.fall, cleft, listId);
      if (closed.has(ckey)) continue;
      if (pushed >= pushCap) {
        // pushCap nodes (the root included) are held: stop without pushing this one
        capped = true;
        break search;
      }
      addNode(c, cleft, cused, t1, listId, n, s, ckey);
    }
    for (let i = 0; i < list.length; i++) T[list[i]] = base[list[i]];
  }
  if (goal < 0) return out(capped ? 'capped' : 'unsolvable', { capped, store });
  const moves = [];
  for (let n = goal; NPAR[n] >= 0; n = NPAR[n]) {
    if (NSK[n] >= 0) moves.push({ tick: NT[NPAR[n]], skill: NSK[n] });
  }
  moves.reverse();
  return out('solved', { capped, moves, route_ticks: NT[goal], alternatives: countAlternatives ? alternatives : 1, afterGoal: expansions - expAtGoal, store });
}

// ---- generation ---------------------------------------------------------------------------------

export const MAX_CANDIDATES = 16;
export const GATES = ['unsolvable', 'slack', 'shortcut', 'thin', 'back_loaded', 'crowd'];
export const PLAN_MAX = 96;
export const BACK_LOADED_AT = 500;

/**
 * "Generation parameters": name -> {def, min, max}. `shortcut_bands` and
 * `thin_demands` default to the level row's `bands` and `demands` (def null here,
 * filled in by paramsOf); the server always uses the defaults.
 */
export const PARAMS = {
  candidate_cap: { def: MAX_CANDIDATES, min: 1, max: MAX_CANDIDATES },
  node_cap: { def: PUSH_CAP, min: 1, max: PUSH_CAP },
  carve_cap: { def: STORE_CAP, min: 0, max: STORE_CAP },
  alt_window: { def: AFTER_GOAL, min: 0, max: AFTER_GOAL },
  shortcut_bands: { def: null, min: 1, max: 8 },
  thin_demands: { def: null, min: 0, max: 64 },
  back_loaded_at: { def: BACK_LOADED_AT, min: 0, max: 1000 },
};

/** Every parameter's value for `row` (the defaults where `given` has none). */
export function paramsOf(row, given = {}) {
  const P = {};
  for (const k of Object.keys(PARAMS)) P[k] = PARAMS[k].def;
  P.shortcut_bands = row.bands;
  P.thin_demands = row.demands;
  return Object.assign(P, given);
}

function checkArgs(v, level, seed, params) {
  checkGenerate('driftlings', versions, levels, v, level, seed, PARAMS, params);
  return paramsOf(levelRow(level), params || {});
}

/** The slots of a design, in route order: {kind: 'in'|'tr', band, o}. */
function slotsOf(row) {
  const per = Math.trunc((row.W - 13) / 6) + 1;
  const slots = [];
  for (let b = 0; b < row.bands; b++) {
    for (let j = 0; j < per; j++) slots.push({ kind: 'in', band: b, o: 5 + 6 * j, beat: null });
    if (b < row.bands - 1) slots.push({ kind: 'tr', band: b, o: 0, beat: 'ledge' });
  }
  return slots;
}

/** One candidate design, every draw in order. */
export function drawDesign(rng, row) {
  const { W, bands, demands } = row;
  const spacing = [];
  for (let b = 0; b < bands - 1; b++) spacing.push(9 + rng.below(4));
  const slots = slotsOf(row);
  const S = slots.length;
  const n = Math.min(demands, S);
  const order = [];
  for (let i = 1; i < S; i++) order.push(i);
  rng.shuffle(order);
  const chosen = new Set([0, ...order.slice(0, n - 1)]);
  let climbPlaced = false;
  let floatPlaced = false;
  for (let i = 0; i < S; i++) {
    const sl = slots[i];
    if (sl.kind === 'in') {
      sl.o += rng.below(2);
      if (chosen.has(i)) {
        let climb = false;
        if (!climbPlaced) climb = rng.below(2) === 0;
        if (climb) {
          climbPlaced = true;
          sl.beat = 'climb';
          sl.h = 3 + rng.below(2);
        } else {
          sl.beat = 'bash';
          sl.w = 1 + rng.below(2);
        }
        sl.soft = rng.below(3) === 0;
      }
    } else if (chosen.has(i)) {
      if (!floatPlaced) {
        if (rng.below(2) === 0) {
          sl.beat = 'float';
          floatPlaced = true;
        } else sl.beat = 'dig';
      } else sl.beat = 'dig';
    }
  }
  const soft = [];
  for (let b = 0; b < bands - 1; b++) soft.push(rng.below(3) === 0 ? 3 + rng.below(W - 8) : -1);
  return { spacing, slots, soft };
}

/** The fallback design (no draws). */
export function fallbackDesign(row) {
  const spacing = [];
  for (let b = 0; b < row.bands - 1; b++) spacing.push(10);
  const slots = slotsOf(row);
  const seen = new Set();
  for (const sl of slots) {
    if (sl.kind === 'in' && !seen.has(sl.band)) {
      seen.add(sl.band);
      sl.beat = 'bash';
      sl.w = 1;
      sl.soft = false;
    }
  }
  const soft = spacing.map(() => -1);
  return { spacing, slots, soft };
}

/** Builds the level record (terrain, needs, inventory, cap) of a design, for the rules of version `v`. */
export function buildLevel(row, design, v = 1) {
  const { W, bands } = row;
  const { spacing, slots, soft } = design;
  const F = [6];
  for (let b = 1; b < bands; b++) F.push(F[b - 1] + spacing[b - 1]);
  const H = F[bands - 1] + 1;
  const T = new Uint8Array(W * H).fill(AIR);
  const col = (b, o) => (b % 2 === 0 ? o : W - 1 - o);
  const set = (x, y, v) => { T[y * W + x] = v; };
  for (let b = 0; b < bands; b++) {
    for (let x = 0; x < W; x++) set(x, F[b], STEEL);
    set(0, F[b] - 3, STEEL);
    set(W - 1, F[b] - 3, STEEL);
    if (b < bands - 1 && soft[b] >= 0) {
      set(col(b, soft[b]), F[b], EARTH);
      set(col(b, soft[b] + 1), F[b], EARTH);
    }
  }
  const needs = [0, 0, 0, 0, 0];
  for (const sl of slots) {
    const b = sl.band;
    if (sl.beat === 'climb') {
      needs[CLIMBER] = 1;
      for (let y = F[b] - sl.h; y <= F[b] - 1; y++) set(col(b, sl.o), y, sl.soft ? EARTH : STEEL);
    } else if (sl.beat === 'bash') {
      needs[BASHER]++;
      const top = (b === 0 ? 0 : F[b - 1] + 1) + (sl.soft ? 1 : 0);
      for (let k = 0; k < sl.w; k++) for (let y = top; y <= F[b] - 1; y++) set(col(b, sl.o + k), y, EARTH);
    } else if (sl.kind === 'tr') {
      if (sl.beat === 'float') needs[FLOATER] = 1;
      if (sl.beat === 'dig') needs[DIGGER]++;
      set(col(b, W - 2), F[b], sl.beat === 'dig' ? EARTH : AIR);
      if (sl.beat !== 'float') {
        const L = F[b] + Math.trunc(spacing[b] / 2);
        set(col(b, W - 1), L, STEEL);
        set(col(b, W - 2), L, STEEL);
        set(col(b, W - 3), L, STEEL);
      }
    }
  }
  const last = bands - 1;
  return {
    version: v,
    width: W,
    height: H,
    terrain: T,
    F,
    entrance: [1, 1],
    exit: [col(last, W - 2), F[last] - 1],
    crowd: row.crowd,
    quota: row.quota,
    interval: row.interval,
    cap: 6 * W * bands + row.crowd * row.interval + 200,
    needs,
    inventory: [needs[0] * row.crowd, needs[1] * row.crowd, 0, needs[3], needs[4]],
  };
}

/**
 * Re-walks `moves` ({tick, skill} for walker 0) through the real tick with a crowd
 * of one and inventory `inv`, until `route_ticks`. Returns {ok, pre, visited}:
 * `pre[i]` the pioneer's [x, y, dir, act] just before move i, `visited[b]` for the
 * shortcut gate.
 */
export function rewalk(lv, inv, moves, routeTicks) {
  const solo = { ...lv, crowd: 1, inventory: inv.slice() };
  const st = start(solo);
  const visited = lv.F.map(() => false);
  const pre = [];
  let ok = true;
  let mi = 0;
  while (st.tick < routeTicks && !isOver(st)) {
    while (mi < moves.length && moves[mi].tick === st.tick) {
      const w = st.walkers[0];
      pre.push(w ? [w.x, w.y, w.dir, w.act] : null);
      if (apply(st, { tick: moves[mi].tick, walker: 0, skill: moves[mi].skill }) !== 'assigned') ok = false;
      mi++;
    }
    runTick(st);
    const w = st.walkers[0];
    if (w.act === WALK) for (let b = 0; b < lv.F.length; b++) if (w.y === lv.F[b] - 1) visited[b] = true;
  }
  if (mi < moves.length) ok = false;
  if (st.tick !== routeTicks || st.walkers.length === 0 || st.walkers[0].act !== SAVED) ok = false;
  return { ok, pre, visited };
}

/** The crowd plan (null when a give fails or the plan passes 96 moves). */
export function crowdPlan(lv, moves, pre) {
  const st = start(lv);
  const plan = [];
  const traitIdx = [];
  for (let i = 0; i < moves.length; i++) if (moves[i].skill === CLIMBER || moves[i].skill === FLOATER) traitIdx.push(i);
  const ptr = new Array(lv.crowd).fill(0);
  let mi = 0;
  while (st.tick < lv.cap && !isOver(st)) {
    while (mi < moves.length && moves[mi].tick === st.tick) {
      if (plan.length >= PLAN_MAX) return null; // a 97th move, the pioneer's too (never reached)
      give(st.walkers[0], moves[mi].skill);
      plan.push({ tick: st.tick, walker: 0, skill: moves[mi].skill });
      mi++;
    }
    for (let k = 1; k < st.spawned; k++) {
      if (ptr[k] >= traitIdx.length) continue;
      const i = traitIdx[ptr[k]];
      const p = pre[i];
      const w = st.walkers[k];
      if (w.x === p[0] && w.y === p[1] && w.dir === p[2] && w.act === p[3]) {
        if (!passes578(w, moves[i].skill)) return null;
        give(w, moves[i].skill);
        plan.push({ tick: st.tick, walker: k, skill: moves[i].skill });
        if (plan.length > PLAN_MAX) return null;
        ptr[k]++;
      }
    }
    runTick(st);
  }
  return plan;
}

/**
 * Runs the gates on a built level; returns {gate: null|name, metrics, plan}.
 * The crowd gate replays the plan at the level's version (`lv.version`, 1 when
 * absent): version 1 asks for a completed result (the quota), version 2 for the
 * whole crowd saved.
 */
export function gates(lv, row, P = paramsOf(row)) {
  const v = lv.version === undefined ? 1 : lv.version;
  const solveP = (inv, alt) => solve(lv, inv, alt, P.node_cap, P.carve_cap, P.alt_window);
  const needs = lv.needs;
  const demands = needs.reduce((a, b) => a + b, 0);
  const m = { demands, route_ticks: -1, alternatives: 0, first_decision_at: 1000, critical: 0, slack: 0, expansions: 0 };
  const sol = solveP(needs, true);
  m.expansions = sol.expansions;
  m.alternatives = sol.alternatives;
  m.route_ticks = sol.route_ticks;
  if (sol.status !== 'solved') return { gate: 'unsolvable', metrics: m };
  const walk = rewalk(lv, needs, sol.moves, sol.route_ticks);
  if (!walk.ok) return { gate: 'unsolvable', metrics: m };
  m.first_decision_at = sol.moves.length ? Math.trunc((1000 * sol.moves[0].tick) / sol.route_ticks) : 1000;
  for (let k = 0; k < 5; k++) {
    if (needs[k] <= 0) continue;
    const usedK = sol.moves.filter((x) => x.skill === k).length;
    if (usedK < needs[k]) m.slack++;
    else {
      const inv = needs.slice();
      inv[k]--;
      const r = solveP(inv, false);
      if (r.status === 'unsolvable') m.critical++;
      else m.slack++;
    }
    if (m.slack) return { gate: 'slack', metrics: m };
  }
  // gate 3: bands 0 .. shortcut_bands - 1 visited (a band the level does not have never is)
  for (let b = 0; b < P.shortcut_bands; b++) if (!walk.visited[b]) return { gate: 'shortcut', metrics: m };
  if (2 * sol.moves.length < P.thin_demands) return { gate: 'thin', metrics: m };
  if (m.first_decision_at > P.back_loaded_at) return { gate: 'back_loaded', metrics: m };
  const plan = crowdPlan(lv, sol.moves, walk.pre);
  if (plan === null) return { gate: 'crowd', metrics: m };
  const st = start(lv);
  for (const mv of plan) if (apply(st, mv) !== 'assigned') return { gate: 'crowd', metrics: m };
  const res = result(st, true);
  if (v >= 2 ? res.saved !== lv.crowd : !res.completed) return { gate: 'crowd', metrics: m };
  return { gate: null, metrics: m, plan, solution: sol.moves };
}

/** generate(version, level, seed, params?): `params` by name (the defaults when absent). */
export function generate(v, level, seed, params = undefined) {
  const P = checkArgs(v, level, seed, params);
  const row = levelRow(level);
  const rng = new Rng(seed);
  const rejected = Object.fromEntries(GATES.map((g) => [g, 0]));
  let lv = null;
  let g = null;
  let candidates = 0;
  for (let i = 0; i < P.candidate_cap; i++) {
    candidates++;
    const c = buildLevel(row, drawDesign(rng, row), v);
    const r = gates(c, row, P);
    if (r.gate === null) {
      lv = c;
      g = r;
      break;
    }
    rejected[r.gate]++;
  }
  let fallback = false;
  if (lv === null) {
    fallback = true;
    // judged with the default parameters, whatever the candidates had
    lv = buildLevel(row, fallbackDesign(row), v);
    g = gates(lv, row);
    if (g.gate !== null) throw new Error(`driftlings level ${level}: the fallback fails the ${g.gate} gate`);
  }
  return {
    ...lv, version: v, level, seed, row,
    plan: g.plan, solution: g.solution,
    metrics: { ...g.metrics, candidates, fallback, rejected },
  };
}

const copyMove = (m) => ({ tick: m.tick, walker: m.walker, skill: m.skill });

export function describeLevel(lv) {
  const terrain = printRows(lv.terrain, lv);
  const m = lv.metrics;
  return {
    width: lv.width,
    height: lv.height,
    terrain,
    terrain_hash: fnv1a32(terrain.join('')),
    crowd: lv.crowd,
    quota: lv.quota,
    interval: lv.interval,
    cap: lv.cap,
    inventory: byName(lv.inventory),
    needs: byName(lv.needs),
    plan: lv.plan.map(copyMove),
    demands: m.demands,
    route_ticks: m.route_ticks,
    alternatives: m.alternatives,
    first_decision_at: m.first_decision_at,
    critical: m.critical,
    slack: m.slack,
    expansions: m.expansions,
    candidates: m.candidates,
    fallback: m.fallback,
    rejected: { ...m.rejected },
  };
}

/** The typical full solution (docs/BENCH.md): the level's crowd plan. */
export function typicalSolution(lv) {
  return lv.plan.map(copyMove);
}

// ---- the game's own vector section: traces ----------------------------------------------------

/** A level-like object from a trace case's picture and numbers. */
export function traceLevel(c) {
  const H = c.rows.length;
  const W = c.rows[0].length;
  const T = new Uint8Array(W * H);
  let entrance = null;
  let exit = null;
  for (let y = 0; y < H; y++) {
    if (c.rows[y].length !== W) throw new Error('trace rows differ in length');
    for (let x = 0; x < W; x++) {
      const ch = c.rows[y][x];
      if (ch === 'E') entrance = [x, y];
      else if (ch === 'X') exit = [x, y];
      else if (ch !== '.' && ch !== '#' && ch !== '=') throw new Error(`trace cell ${ch}`);
      T[y * W + x] = ch === 'E' || ch === 'X' ? AIR : ch.charCodeAt(0);
    }
  }
  if (!entrance || !exit) throw new Error('a trace needs an E and an X');
  const inv = c.inventory;
  const v = c.version === undefined ? 1 : c.version;
  if (!versions.includes(v)) throw new RangeError(`driftlings: a trace of unknown version ${v}`);
  return {
    version: v,
    width: W, height: H, terrain: T, entrance, exit,
    crowd: c.crowd, quota: c.quota, interval: c.interval, cap: c.cap,
    inventory: [inv.climber, inv.floater, inv.blocker, inv.basher, inv.digger],
  };
}

/**
 * Runs a trace: the moves through start/apply, the walkers recorded after every
 * tick (record[T] = the world after T ticks, before the moves of tick T), run on
 * past the end to the last listed tick.
 * Returns {record, outcomes, rejected, result, terrain_after}.
 */
export function trace(c) {
  const lv = traceLevel(c);
  const st = start(lv);
  st.record = [[]];
  const outcomes = [];
  let rejected = null;
  for (let i = 0; i < c.moves.length; i++) {
    const code = apply(st, c.moves[i]);
    outcomes.push(code);
    if (kindOf(code) === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  if (rejected) return { record: st.record, outcomes, rejected, result: null, terrain_after: null };
  const r = result(st, true);
  const terrainAfter = printRows(st.T, lv);
  // A listed tick past the run's end (spec, "Vectors"): the tick rules run the
  // world on, with no moves, though the game itself never does.
  const last = (c.ticks || []).reduce((m, k) => Math.max(m, k.tick), 0);
  while (st.tick < last) runTick(st);
  return { record: st.record, outcomes, rejected: null, result: r, terrain_after: terrainAfter };
}
