// Contraption, from games/contraption/spec.md (versions 1 and 2; 2 is current).
// Version 2 (section 5.1): every placement carries its time `t` (so the move
// fields depend on the version), placements at least 1,000 ms apart
// (`time_backwards`, `too_fast`, checked after the placement checks), and
// `duration_ms` = the last placement's t + 20 ms per simulated tick.
//
// Integer fixed point only. JavaScript numbers are doubles: every intermediate
// here stays an exact integer below 2^53 in magnitude (the spec bounds them by
// 2^43), every division is the spec's floor division fdiv (Math.floor of the
// double quotient, exact for such integers), and no 32-bit operator (| >> ~)
// is ever applied to a physics value. `+ 0` turns a possible -0 into 0 so that
// results compare equal to the vectors' integers under strict deep equality.
import { Rng, dayNumber, contraptionDailyText, GAME_DAILY_SEEDS, checkGenerate } from '../core.mjs';

export const name = 'contraption';
export const version = 2;
export const versions = [1, 2];
const FIELDS_V1 = ['part', 'x', 'y', 'angle'];
const FIELDS_V2 = ['part', 'x', 'y', 'angle', 't'];
/** The move fields of a version: version 2 adds `t` (section 5: a v1 move with `t` or a v2 move without it is malformed). */
export function fieldsOf(v) {
  if (v === 1) return FIELDS_V1.slice();
  if (v === 2) return FIELDS_V2.slice();
  throw new RangeError(`contraption: unknown version ${v}`);
}
export const fields = fieldsOf(version);
export const MAX_MOVES = 8;
export const MAX_PARTS = 8;
// version 2 (section 5.1)
export const PART_GAP_MS = 1000;
export const TICK_MS = 20;
export const PLAN_T = 1000; // the plan's placement time in version 2 (section 10)

// ---- section 1: arithmetic --------------------------------------------------

/** Floor division, b > 0. Never returns -0. */
export function fdiv(a, b) {
  return Math.floor(a / b) + 0;
}

export function bounce(v) {
  return v >= 0 ? 0 - fdiv(v, 4) : fdiv(-v, 4);
}

export function friction(v) {
  if (v > 0) return Math.max(0, v - 2);
  if (v < 0) return Math.min(0, v + 2);
  return 0;
}

export function clamp(v) {
  return Math.min(384, Math.max(-384, v));
}

// ---- section 2: units --------------------------------------------------------

export const UNIT = 256;
export const WIDTH = 100;
export const HEIGHT = 140;
export const FIELD_X1 = WIDTH * UNIT; // 25600
export const FIELD_Y1 = HEIGHT * UNIT; // 35840
export const ONE = 16384;
const ONE2 = ONE * ONE; // 2^28

// ---- section 3: trig ---------------------------------------------------------

const Q = 1048576;

/** [sin, cos] of `m` milliradians (|m| <= 1400), scaled by 16384. */
export function trig(m) {
  if (!Number.isInteger(m) || m < -1400 || m > 1400) throw new RangeError(`trig(${m})`);
  const t = Math.abs(m);
  const x = fdiv(t * Q, 1000);
  const x2 = fdiv(x * x, Q);
  let r = Q - fdiv(x2, 110);
  r = Q - fdiv(fdiv(x2 * r, Q), 72);
  r = Q - fdiv(fdiv(x2 * r, Q), 42);
  r = Q - fdiv(fdiv(x2 * r, Q), 20);
  r = Q - fdiv(fdiv(x2 * r, Q), 6);
  const s20 = fdiv(x * r, Q);
  r = Q - fdiv(x2, 132);
  r = Q - fdiv(fdiv(x2 * r, Q), 90);
  r = Q - fdiv(fdiv(x2 * r, Q), 56);
  r = Q - fdiv(fdiv(x2 * r, Q), 30);
  r = Q - fdiv(fdiv(x2 * r, Q), 12);
  r = Q - fdiv(fdiv(x2 * r, Q), 2);
  const c20 = r;
  let sin = fdiv(s20 + 32, 64);
  const cos = fdiv(c20 + 32, 64);
  if (m < 0) sin = 0 - sin;
  return [sin, cos];
}

const TRIG = new Map();
function trigCached(m) {
  let v = TRIG.get(m);
  if (v === undefined) {
    v = trig(m);
    TRIG.set(m, v);
  }
  return v;
}

// ---- section 4: parts ----------------------------------------------------------

export const RAMP = 0;
export const FAN = 1;
export const HALF = 2560;
export const THICK = 256;
export const FAN_R = 2048;
export const FAN_PUSH = 24;

/** A placement {part, x, y, angle} (units, milliradians) in subunits, with its trig and footprint. */
export function partOf(move) {
  const [s, c] = trigCached(move.angle);
  const cx = UNIT * move.x;
  const cy = UNIT * move.y;
  let ex;
  let ey;
  if (move.part === RAMP) {
    ex = fdiv(2560 * Math.abs(c), 16384) + 512;
    ey = fdiv(2560 * Math.abs(s), 16384) + 512;
  } else {
    ex = 2048;
    ey = 2048;
  }
  return { part: move.part, x: move.x, y: move.y, angle: move.angle, cx, cy, s, c,
    box: [cx - ex, cy - ey, cx + ex, cy + ey] };
}

/** Half-open boxes [x0, y0, x1, y1]: touching is not overlapping. */
export function overlaps(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

const inside = (w, x, y) => w[0] <= x && x < w[2] && w[1] <= y && y < w[3];

// ---- section 6: the simulation ---------------------------------------------------

// The three boundary walls, in subunits, in collision order (left, right, top).
const BOUNDARY = [
  [-8, -8, 0, 148],
  [100, -8, 108, 148],
  [-8, -8, 108, 0],
].map((w) => w.map((v) => v * UNIT));

export const END = { goal: 0, out: 1, rest: 2, cap: 3 };
export const CAP = 600;

/**
 * One simulation. `field` = {ball: [bx, by, bvx], goal: [x0, y0, x1, y1], walls: [[...], ...]}
 * in units (the level walls: the shelf first, then the generated walls);
 * `parts` = partOf(...) objects in placement order. If `ticks` is an array, the
 * state [x, y, vx, vy] after every tick is pushed to it.
 * Returns {reached, arrival_tick, ticks, end}.
 */
export function simulate(field, parts, ticks = null) {
  const walls = BOUNDARY.concat(field.walls.map((w) => w.map((v) => v * UNIT)));
  const nw = walls.length;
  const goal = field.goal.map((v) => v * UNIT);
  const fans = parts.filter((p) => p.part === FAN);
  const ramps = parts.filter((p) => p.part === RAMP);
  let x = UNIT * field.ball[0];
  let y = UNIT * field.ball[1];
  let vx = field.ball[2];
  let vy = 0;
  const BAND = 256 * 16384;
  const LEN = 2560 * 16384;
  const R2 = FAN_R * FAN_R;
  for (let t = 1; ; t++) {
    // 1
    const px = x;
    const py = y;
    const pvx = vx;
    const pvy = vy;
    // 2
    vy += 16;
    // 3
    for (let i = 0; i < fans.length; i++) {
      const f = fans[i];
      const dx = px - f.cx;
      const dy = py - f.cy;
      if (dx * dx + dy * dy < R2) {
        vx += fdiv(FAN_PUSH * f.s, 16384);
        vy += fdiv(-FAN_PUSH * f.c, 16384);
      }
    }
    // 4
    vx = clamp(vx);
    vy = clamp(vy);
    // 5
    let nx = x + vx;
    let hit = false;
    for (let i = 0; i < nw; i++) {
      const w = walls[i];
      if (inside(w, nx, y)) {
        hit = true;
        nx = vx > 0 ? w[0] - 1 : w[2];
      }
    }
    x = nx;
    if (hit) vx = bounce(vx);
    // 6
    let ny = y + vy;
    hit = false;
    for (let i = 0; i < nw; i++) {
      const w = walls[i];
      if (inside(w, x, ny)) {
        hit = true;
        ny = vy > 0 ? w[1] - 1 : w[3];
      }
    }
    y = ny;
    if (hit) {
      vy = bounce(vy);
      vx = friction(vx);
    }
    // 7
    for (let i = 0; i < ramps.length; i++) {
      const p = ramps[i];
      const s = p.s;
      const c = p.c;
      const sOld = -(px - p.cx) * s + (py - p.cy) * c;
      const rx = x - p.cx;
      const ry = y - p.cy;
      const along = rx * c + ry * s;
      const across = -rx * s + ry * c;
      const side = sOld >= 0 ? 1 : -1;
      if (-LEN <= along && along <= LEN && side * across < BAND) {
        const push = side * BAND - across;
        x = x + fdiv(push * -s, ONE2);
        y = y + fdiv(push * c, ONE2);
        let vn = -vx * s + vy * c;
        if (side * vn < 0) {
          const vt = vx * c + vy * s;
          vn = bounce(vn);
          vx = fdiv(vt * c - vn * s, ONE2);
          vy = fdiv(vt * s + vn * c, ONE2);
        }
      }
    }
    if (ticks) ticks.push([x + 0, y + 0, vx + 0, vy + 0]);
    // 8
    if (inside(goal, x, y)) return { reached: true, arrival_tick: t, ticks: t, end: END.goal };
    if (y >= FIELD_Y1) return { reached: false, arrival_tick: -1, ticks: t, end: END.out };
    if (x === px && y === py && vx === pvx && vy === pvy) return { reached: false, arrival_tick: -1, ticks: t, end: END.rest };
    if (t === CAP) return { reached: false, arrival_tick: -1, ticks: t, end: END.cap };
  }
}

// ---- section 5: rules -------------------------------------------------------------

export const OUTCOMES = {
  placed: 'applied',
  no_part_left: 'rejected',
  bad_angle: 'rejected',
  out_of_field: 'rejected',
  overlaps_wall: 'rejected',
  overlaps_part: 'rejected',
  time_backwards: 'rejected', // version 2 only
  too_fast: 'rejected', // version 2 only
};

export function kindOf(code) {
  const k = OUTCOMES[code];
  if (!k) throw new RangeError(`unknown outcome ${code}`);
  return k;
}

const inRange = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

/**
 * The move decoder of version `v`: exactly the version's fields (a missing or
 * extra field is malformed), part 0..1, x and y -10000..10000, angle
 * -100000..100000, and in version 2 t 0..2^31-1.
 */
export function validMove(move, v = 1) {
  if (move === null || typeof move !== 'object' || Array.isArray(move)) return false;
  const want = fieldsOf(v);
  const keys = Object.keys(move);
  if (keys.length !== want.length || !want.every((k) => Object.prototype.hasOwnProperty.call(move, k))) return false;
  return inRange(move.part, 0, 1)
    && inRange(move.x, -10000, 10000) && inRange(move.y, -10000, 10000)
    && inRange(move.angle, -100000, 100000)
    && (v === 1 || inRange(move.t, 0, 0x7fffffff));
}

/**
 * The checks of section 5 for `move` against `walls` (in units: the level walls,
 * compared with the footprint in subunits after multiplying by 256),
 * the parts placed so far and the parts left of each kind ([ramps, fans]).
 * Returns [code, part] (part is the partOf() object when placed).
 */
export function check(move, walls, placed, left) {
  if (left[move.part] <= 0 || placed.length >= MAX_PARTS) return ['no_part_left', null];
  if (move.angle < -1400 || move.angle > 1400) return ['bad_angle', null];
  if (move.x < 0 || move.x > WIDTH || move.y < 0 || move.y > HEIGHT) return ['out_of_field', null];
  const p = partOf(move);
  const b = p.box;
  if (b[0] < 0 || b[1] < 0 || b[2] > FIELD_X1 || b[3] > FIELD_Y1) return ['out_of_field', null];
  for (const w of walls) {
    if (overlaps(b, [w[0] * UNIT, w[1] * UNIT, w[2] * UNIT, w[3] * UNIT])) return ['overlaps_wall', null];
  }
  for (const q of placed) {
    if (overlaps(b, q.box)) return ['overlaps_part', null];
  }
  return ['placed', p];
}

// ---- section 9: the level table ------------------------------------------------------

// level: [walls_min, walls_max, goal_w, goal_y_min, ramps, fans]
const TABLE = [
  null,
  [0, 1, 16, 110, 3, 0],
  [1, 2, 14, 105, 3, 0],
  [1, 3, 14, 100, 2, 0],
  [2, 3, 12, 100, 2, 1],
  [2, 4, 12, 95, 2, 1],
  [3, 4, 12, 95, 2, 0],
  [3, 5, 10, 95, 2, 1],
  [3, 5, 10, 90, 1, 1],
  [4, 5, 10, 90, 2, 2],
  [4, 6, 10, 90, 1, 1],
  [4, 7, 8, 90, 2, 1],
  [5, 7, 8, 90, 1, 1],
  [6, 8, 8, 90, 1, 2],
  [7, 9, 8, 90, 1, 1],
  [8, 10, 8, 90, 1, 1],
];

export const levels = TABLE.length - 1;

export function levelRow(level) {
  const [wallsMin, wallsMax, goalW, goalYMin, ramps, fans] = TABLE[level];
  return { wallsMin, wallsMax, goalW, goalYMin, ramps, fans };
}

// ---- section 8: generation -----------------------------------------------------------

export const MAX_ATTEMPTS = 1000;
export const FALLBACK_AFTER = 40;
export const SWEEP_X = [15, 29, 43, 57, 71, 85];
export const SWEEP_Y = [30, 48, 66, 84, 102, 120];
export const SWEEP_ANGLE = [450, -450, 800, -800];

/** 8.3 "Generation parameters": name -> {def, min, max} (the server uses the defaults). */
export const PARAMS = {
  attempt_cap: { def: MAX_ATTEMPTS, min: 1, max: MAX_ATTEMPTS },
  fallback_after: { def: FALLBACK_AFTER, min: 1, max: MAX_ATTEMPTS },
};

function checkArgs(v, level, seed, params) {
  return checkGenerate('contraption', versions, levels, v, level, seed, PARAMS, params);
}

/** 8.1: one candidate, every draw in order. */
export function candidate(rng, row) {
  const bx = 10 + rng.below(81);
  const by = 4 + rng.below(9);
  const bvx = rng.below(161) - 80;
  const gx = 4 + rng.below(93 - row.goalW);
  const gy = row.goalYMin + rng.below(129 - row.goalYMin);
  const n = row.wallsMin + rng.below(row.wallsMax - row.wallsMin + 1);
  const goal = [gx, gy, gx + row.goalW, gy + 6];
  const shelf = [gx - 2, gy + 6, gx + row.goalW + 2, gy + 9];
  const reserve = [gx - 2, gy - 6, gx + row.goalW + 2, gy + 9];
  const walls = [shelf];
  let dropped = 0;
  for (let i = 0; i < n; i++) {
    const kind = rng.below(3);
    const len = 10 + rng.below(21);
    const w = kind < 2 ? len : 3;
    const h = kind < 2 ? 3 : len;
    const wx = rng.below(101 - w);
    const wy = 18 + rng.below(108 - h);
    const box = [wx, wy, wx + w, wy + h];
    if (overlaps(box, reserve)) dropped++;
    else walls.push(box);
  }
  return { ball: [bx, by, bvx], goal, walls, dropped };
}

/** generate(version, level, seed, params?): `params` by name (8.3; the defaults when absent). */
export function generate(v, level, seed, params = undefined) {
  const P = checkArgs(v, level, seed, params);
  const row = levelRow(level);
  const rng = new Rng(seed);
  const left = [row.ramps, row.fans];
  let sims = 0;
  let preSolved = 0;
  let noSweep = 0;
  let fallback = null;
  let issued = null;
  let plan = null;
  let attempt = 0;
  let cand = null;
  search: for (attempt = 1; attempt <= P.attempt_cap; attempt++) {
    cand = candidate(rng, row);
    cand.attempt = attempt;
    sims++;
    if (simulate(cand, []).reached) {
      preSolved++;
    } else {
      for (const x of SWEEP_X) {
        for (const y of SWEEP_Y) {
          for (const angle of SWEEP_ANGLE) {
            const move = { part: RAMP, x, y, angle };
            const [code, p] = check(move, cand.walls, [], left);
            if (code !== 'placed') continue;
            sims++;
            const run = simulate(cand, [p]);
            if (run.reached) {
              issued = cand;
              plan = { move, arrival: run.arrival_tick };
              break search;
            }
          }
        }
      }
      noSweep++;
      if (fallback === null) fallback = cand;
    }
    // step 4: a fallback in hand is issued from fallback_after on, or at the attempt cap
    if (fallback !== null && (attempt >= P.fallback_after || attempt === P.attempt_cap)) {
      issued = fallback;
      break;
    }
  }
  let trivial = false;
  if (issued === null) {
    // every candidate was pre-solved: the last one, with an empty plan
    attempt = P.attempt_cap;
    issued = cand;
    trivial = true;
  }
  return {
    version: v, level, seed, row,
    ball: issued.ball, goal: issued.goal, walls: issued.walls, dropped: issued.dropped,
    inventory: { ramp: row.ramps, fan: row.fans },
    attempts: attempt, issued: issued.attempt,
    preSolved, noSweep, sims,
    fallback: plan === null, trivial,
    plan: plan ? [plan.move] : [],
    planArrival: plan ? plan.arrival : -1,
  };
}

/** The field of a level (the `gen` format's ball, goal and walls). */
export function fieldOf(lv) {
  return { ball: lv.ball, goal: lv.goal, walls: lv.walls };
}

/** A placement as a move of version `v` (with `t` in version 2). */
const copyMove = (m, v, t = m.t) => (v >= 2 ? { part: m.part, x: m.x, y: m.y, angle: m.angle, t } : { part: m.part, x: m.x, y: m.y, angle: m.angle });

export function describeLevel(lv) {
  const d = {
    width: WIDTH,
    height: HEIGHT,
    ball: lv.ball.slice(),
    goal: lv.goal.slice(),
    walls: lv.walls.map((w) => w.slice()),
    dropped_walls: lv.dropped,
    inventory: { ramp: lv.inventory.ramp, fan: lv.inventory.fan },
    attempts: lv.attempts,
    issued: lv.issued,
    discarded: { pre_solved: lv.preSolved, no_sweep_solution: lv.noSweep },
    sims: lv.sims,
    fallback: lv.fallback,
  };
  if (lv.trivial) d.trivial = true;
  d.plan = lv.plan.map((m) => copyMove(m, lv.version, PLAN_T));
  d.plan_arrival_tick = lv.planArrival;
  if (lv.version >= 2) {
    d.part_gap_ms = PART_GAP_MS;
    d.tick_ms = TICK_MS;
  }
  return d;
}

// ---- play ------------------------------------------------------------------------------

export function start(lv) {
  // prev_t: the t of the previous placed part, 0 before the first (version 2)
  return { lv, placed: [], left: [lv.inventory.ramp, lv.inventory.fan], run: null, prev_t: 0 };
}

/** Applies one placement, mutating `st`; returns the outcome code (throws TypeError if malformed). */
export function apply(st, move) {
  const v = st.lv.version;
  if (!validMove(move, v)) throw new TypeError(`contraption: malformed move ${JSON.stringify(move)}`);
  const [code, p] = check(move, st.lv.walls, st.placed, st.left);
  if (code !== 'placed') return code;
  if (v >= 2) {
    // 5.1: after the placement checks, in this order
    if (move.t < st.prev_t) return 'time_backwards';
    if (move.t - st.prev_t < PART_GAP_MS) return 'too_fast';
    p.t = move.t;
    st.prev_t = move.t;
  }
  st.placed.push(p);
  st.left[move.part] -= 1;
  st.run = null;
  return code;
}

export function describeState(st) {
  return { placed: st.placed.map((p) => copyMove(p, st.lv.version)), left: { ramp: st.left[0], fan: st.left[1] } };
}

/** Runs the one simulation (once per state; placing another part invalidates it). */
export function run(st) {
  if (st.run === null) st.run = simulate(fieldOf(st.lv), st.placed);
  return st.run;
}

export function result(st) {
  const r = run(st);
  const parts = st.placed.length;
  return {
    completed: r.reached,
    score: r.reached ? 100000 - 10000 * parts - r.arrival_tick : 0,
    // version 1: untimed; version 2: the last placement's t (0 with none) + 20 ms a tick
    duration_ms: st.lv.version >= 2 ? (parts ? st.placed[parts - 1].t : 0) + TICK_MS * r.ticks : -1,
    arrival_tick: r.arrival_tick,
    parts_used: parts,
    ticks: r.ticks,
    end: r.end,
  };
}

/** The typical full solution (docs/BENCH.md): the level's plan (empty after a fallback), at t = 1000 from version 2. */
export function typicalSolution(lv) {
  return lv.plan.map((m) => copyMove(m, lv.version, PLAN_T));
}

// ---- section 11: the daily seed -------------------------------------------------------------

/** The text hashed for the daily seed of `date` ("YYYY-MM-DD"). */
export function dailyText(date) {
  return contraptionDailyText(dayNumber(date));
}

/** FNV-1a 32 of dailyText(date). */
export function dailySeed(date) {
  return GAME_DAILY_SEEDS.contraption(dayNumber(date));
}

// ---- section 12: the game's own vector sections ------------------------------------------------

/**
 * A trace over an explicit field: the placements (version 1 moves: traces carry
 * no time) are checked (section 5, with no inventory limit) and simulated;
 * returns {ticks, run} or throws if a placement is illegal.
 */
export function trace(field, moves) {
  const placed = [];
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    if (!validMove(m, 1)) throw new TypeError(`trace move ${i} malformed`);
    const [code, p] = check(m, field.walls, placed, [Infinity, Infinity]);
    if (code !== 'placed') throw new Error(`trace move ${i} is not legal: ${code}`);
    placed.push(p);
  }
  const ticks = [];
  const r = simulate(field, placed, ticks);
  return { ticks, run: r };
}
