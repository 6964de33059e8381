// replay.mjs: loads libreplay built for wasm32 (make wasm -> replay.wasm) and
// wraps its C ABI (include/replay.h) for JavaScript. No dependencies; Node 18+
// and browsers.
//
//   import { load } from './replay.mjs';
//   const rp = await load();                       // replay.wasm beside this file
//   const g = rp.game('schulte');
//   const level = g.generate(g.version, 1, 42);   // params: g.generate(v, l, s, { name: value })
//   level.describe();                              // the object `replayd gen` prints
//   const st = level.start();
//   st.apply({ t: 400, cell: 8 });                 // 'found' (an outcome code)
//   st.result();                                   // { completed, score, duration_ms, ...extras }
//   st.describe();                                 // the board
//   st.free(); level.free();                       // or leave them to the garbage collector
//
// Memory: every Level and State owns a block of the instance's memory (the
// library's caller-owned buffers); free() returns it at once, and a
// FinalizationRegistry returns it when the object is collected. A state
// keeps its level alive. One instance is single-threaded, as JavaScript is.
//
// portGame(rp, name) adapts a game to the interface of vectors/port/games/*.mjs
// (generate / describeLevel / start / apply / describeState / result / kindOf),
// so the same runners and apps can use either implementation.

const RP_EBADLEVEL = -1;
const RP_EBADVERSION = -2;
const RP_EBADPARAMS = -3;
const RP_EBADMOVE = -6;
const RP_ESTOPPED = -7;
const RP_ETOOMANY = -8;
const KINDS = ['applied', 'ignored', 'rejected'];
const ALIGN = 16;

/** Why a generation was refused, as the vectors name it. */
export class GenerateError extends RangeError {
  constructor(reason, message) {
    super(message);
    this.reason = reason; // 'bad_level' | 'bad_version' | 'bad_params'
  }
}

async function wasmBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source ?? new URL('./replay.wasm', import.meta.url);
  const isFile = (typeof url === 'string' && !/^[a-z]+:/i.test(url)) || (url instanceof URL && url.protocol === 'file:');
  if (isFile && typeof process !== 'undefined' && process.versions?.node) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`replay.wasm: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/** Loads the module: source is bytes, a path or a URL (default: replay.wasm beside this file). */
export async function load(source) {
  const { instance } = await WebAssembly.instantiate(await wasmBytes(source), {});
  return new Replay(instance.exports);
}

/** The same from bytes already in hand, synchronously (small modules only in browsers). */
export function loadSync(bytes) {
  return new Replay(new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports);
}

export class Replay {
  constructor(x) {
    this.x = x;
    if (x.rp_abi_version() !== 1) throw new Error(`libreplay ABI ${x.rp_abi_version()}, this module speaks 1`);
    this.dec = new TextDecoder();
    this.enc = new TextEncoder();
    this.scratchSize = 1 << 16;
    this.scratch = this.alloc(this.scratchSize);
    this.words = this.alloc(64); // move values and out-parameters
    this.freer = new FinalizationRegistry((ptr) => x.rp_wasm_free(ptr));
    this.byName = new Map();
    for (let i = 0; i < x.rp_game_count(); i++) {
      const g = new Game(this, x.rp_game_at(i));
      this.byName.set(g.name, g);
    }
  }

  alloc(n) {
    const p = this.x.rp_wasm_alloc(n);
    if (!p) throw new Error('replay.wasm: out of memory');
    if (p % ALIGN) throw new Error('replay.wasm: misaligned block');
    return p;
  }

  cstr(p) {
    if (!p) return null;
    const m = new Uint8Array(this.x.memory.buffer);
    let e = p;
    while (m[e]) e++;
    return this.dec.decode(m.subarray(p, e));
  }

  /** Runs fn(buf, cap) -> needed length, growing the scratch buffer until the text fits. */
  text(fn) {
    for (;;) {
      const n = fn(this.scratch, this.scratchSize);
      if (n < 0) return null;
      if (n < this.scratchSize) return this.dec.decode(new Uint8Array(this.x.memory.buffer, this.scratch, n));
      this.x.rp_wasm_free(this.scratch);
      this.scratchSize = 2 ** Math.ceil(Math.log2(n + 1));
      this.scratch = this.alloc(this.scratchSize);
    }
  }

  /** Every game: name, versions, levels, move fields, parameters, outcomes, result extras. */
  games() {
    return [...this.byName.values()];
  }

  game(name) {
    const g = this.byName.get(name);
    if (!g) throw new RangeError(`no game ${name}`);
    return g;
  }

  // The shared core (vectors/prng.json).
  rngFirst(seed, n) {
    const x = this.x;
    const st = this.words;
    new Uint32Array(x.memory.buffer, st, 1)[0] = seed >>> 0;
    const out = [];
    for (let i = 0; i < n; i++) out.push(x.rp_rng_next(st) >>> 0);
    return out;
  }

  rngBelow(seed, bound, n) {
    const x = this.x;
    const st = this.words;
    new Uint32Array(x.memory.buffer, st, 1)[0] = seed >>> 0;
    const out = [];
    for (let i = 0; i < n; i++) out.push(x.rp_rng_below(st, bound >>> 0) >>> 0);
    return out;
  }

  shuffle(seed, values) {
    const x = this.x;
    const p = this.alloc(4 * values.length + 4);
    try {
      new Int32Array(x.memory.buffer, p, values.length).set(values);
      new Uint32Array(x.memory.buffer, this.words, 1)[0] = seed >>> 0;
      x.rp_rng_shuffle(this.words, p, values.length);
      return [...new Int32Array(x.memory.buffer, p, values.length)];
    } finally {
      x.rp_wasm_free(p);
    }
  }

  fnv1a32(text) {
    const bytes = typeof text === 'string' ? this.enc.encode(text) : text;
    const p = this.alloc(bytes.length + 1);
    try {
      new Uint8Array(this.x.memory.buffer, p, bytes.length).set(bytes);
      return this.x.rp_fnv1a32(p, bytes.length) >>> 0;
    } finally {
      this.x.rp_wasm_free(p);
    }
  }

  dayNumber(date) {
    const [y, m, d] = date.split('-').map(Number);
    return Number(this.x.rp_days_from_civil(y, m, d));
  }

  dateOfDay(day) {
    const w = this.words;
    this.x.rp_civil_from_days(BigInt(day), w, w + 4, w + 8);
    const [y, m, d] = new Int32Array(this.x.memory.buffer, w, 3);
    return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }

  /** The daily challenge of a UTC date, or null before the first one. */
  daily(date) {
    const [y, m, d] = date.split('-').map(Number);
    const w = this.words;
    if (this.x.rp_daily(y, m, d, w, w + 4, w + 8, w + 12) !== 0) return null;
    const v = new Uint32Array(this.x.memory.buffer, w, 4);
    const game = [...this.byName.values()].find((g) => g.ptr === v[0]);
    return { game: game.name, level: v[1], seed: v[2], schedule: v[3] };
  }
}

export class Game {
  constructor(rp, ptr) {
    const x = rp.x;
    this.rp = rp;
    this.ptr = ptr;
    this.name = rp.cstr(x.rp_game_name(ptr));
    this.version = x.rp_game_version(ptr);
    this.minVersion = x.rp_game_min_version(ptr);
    this.levels = x.rp_game_levels(ptr);
    this.maxMoves = x.rp_game_max_moves(ptr);
    this.versions = [];
    for (let v = this.minVersion; v <= this.version; v++) this.versions.push(v);
    this.allFields = [];
    for (let i = 0; i < x.rp_field_count(ptr); i++) {
      this.allFields.push({
        name: rp.cstr(x.rp_field_name(ptr, i)),
        min: x.rp_field_min(ptr, i),
        max: x.rp_field_max(ptr, i),
        since: x.rp_field_since(ptr, i),
      });
    }
    this.params = [];
    for (let i = 0; i < x.rp_param_count(ptr); i++) {
      this.params.push({ name: rp.cstr(x.rp_param_name(ptr, i)), min: x.rp_param_min(ptr, i), max: x.rp_param_max(ptr, i) });
    }
    this.outcomes = [];
    for (let i = 0; i < x.rp_outcome_count(ptr); i++) {
      this.outcomes.push({ code: rp.cstr(x.rp_outcome_code(ptr, i)), kind: KINDS[x.rp_outcome_kind(ptr, i)] });
    }
    this.extras = [];
    for (let i = 0; i < x.rp_extra_count(ptr); i++) this.extras.push(rp.cstr(x.rp_extra_name(ptr, i)));
    this.kinds = new Map(this.outcomes.map((o) => [o.code, o.kind]));
    this.levelSize = x.rp_level_size(ptr);
    this.stateSize = x.rp_state_size(ptr);
  }

  /** The move fields of a version (a field added later names its first version in since). */
  fieldsOf(version) {
    if (!this.versions.includes(version)) throw new RangeError(`${this.name} has no version ${version}`);
    return this.allFields.filter((f) => f.since <= version).map((f) => f.name);
  }

  /** The current version's move fields. */
  get fields() {
    return this.fieldsOf(this.version);
  }

  kindOf(code) {
    return this.kinds.get(code);
  }

  /** A level; params maps generation parameter names to values (vectors only). */
  generate(version, level, seed, params = {}) {
    const { rp } = this;
    const x = rp.x;
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new GenerateError('bad_seed', `seed ${seed} is not a uint32`);
    if (!Number.isInteger(version)) throw new GenerateError('bad_version', `version ${version}`);
    if (!Number.isInteger(level)) throw new GenerateError('bad_level', `level ${level}`);
    const names = Object.keys(params);
    const buf = rp.alloc(this.levelSize);
    const idx = names.length ? rp.alloc(8 * names.length) : 0;
    let rc;
    try {
      if (names.length) {
        const mem = new Int32Array(x.memory.buffer);
        names.forEach((n, k) => {
          const i = this.params.findIndex((p) => p.name === n);
          const v = params[n];
          if (i < 0 || !Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) {
            throw new GenerateError('bad_params', `${this.name} takes no parameter ${n} = ${v}`);
          }
          mem[idx / 4 + k] = i;
          mem[idx / 4 + names.length + k] = v;
        });
      }
      rc = x.rp_generate_with(this.ptr, buf, this.levelSize, version, level, seed >>> 0, idx, idx + 4 * names.length, names.length, rp.words);
    } catch (e) {
      x.rp_wasm_free(buf);
      throw e;
    } finally {
      if (idx) x.rp_wasm_free(idx);
    }
    if (rc !== 0) {
      x.rp_wasm_free(buf);
      const reason = { [RP_EBADLEVEL]: 'bad_level', [RP_EBADVERSION]: 'bad_version', [RP_EBADPARAMS]: 'bad_params' }[rc] ?? `error ${rc}`;
      throw new GenerateError(reason, `${this.name} version ${version} level ${level}: ${reason}`);
    }
    return new Level(this, buf, version);
  }
}

export class Level {
  constructor(game, ptr, version) {
    this.game = game;
    this.ptr = ptr;
    this.version = version;
    this.token = {};
    game.rp.freer.register(this, ptr, this.token);
  }

  /** The level as `replayd gen` prints it. */
  describe() {
    return JSON.parse(this.json());
  }

  /** The same as the compact JSON text, byte for byte. */
  json() {
    const x = this.game.rp.x;
    return this.game.rp.text((b, c) => x.rp_level_json(this.ptr, b, c));
  }

  get minMoves() {
    return this.game.rp.x.rp_level_min_moves(this.ptr);
  }

  start() {
    const { rp } = this.game;
    const buf = rp.alloc(this.game.stateSize);
    if (rp.x.rp_start(this.ptr, buf, this.game.stateSize, rp.words) !== 0) {
      rp.x.rp_wasm_free(buf);
      throw new Error('rp_start failed');
    }
    return new State(this, buf);
  }

  free() {
    if (!this.ptr) return;
    this.game.rp.freer.unregister(this.token);
    this.game.rp.x.rp_wasm_free(this.ptr);
    this.ptr = 0;
  }
}

export class State {
  constructor(level, ptr) {
    this.level = level; // keeps the level's buffer alive as long as the state
    this.ptr = ptr;
    this.token = {};
    this.fields = level.game.allFields.filter((f) => f.since <= level.version);
    level.game.rp.freer.register(this, ptr, this.token);
  }

  /**
   * Applies a move object holding exactly the version's fields, each an
   * integer in range (else TypeError, as the server's 400 bad_moves); returns
   * the outcome code. After a rejected outcome the replay is over.
   */
  apply(move) {
    const { game } = this.level;
    const { rp } = game;
    if (move === null || typeof move !== 'object' || Array.isArray(move)) throw new TypeError('a move is an object');
    const keys = Object.keys(move);
    if (keys.length !== this.fields.length) throw new TypeError(`a ${game.name} version ${this.level.version} move has exactly the fields ${this.fields.map((f) => f.name)}`);
    const mem = new Int32Array(rp.x.memory.buffer, rp.words, this.fields.length);
    this.fields.forEach((f, i) => {
      const v = move[f.name];
      if (!Number.isInteger(v) || v < f.min || v > f.max) throw new TypeError(`move field ${f.name} must be an integer in ${f.min}..${f.max}`);
      mem[i] = v;
    });
    const o = rp.x.rp_apply(this.ptr, rp.words, this.fields.length);
    if (o === RP_EBADMOVE) throw new TypeError('malformed move');
    if (o === RP_ETOOMANY) throw new RangeError(`more than ${game.maxMoves} moves`);
    if (o === RP_ESTOPPED) throw new Error('the replay already ended at a rejected move');
    if (o < 0) throw new Error(`rp_apply: ${o}`);
    return game.outcomes[o].code;
  }

  get stopped() {
    return this.level.game.rp.x.rp_state_stopped(this.ptr) === 1;
  }

  /** The board for drawing. */
  describe() {
    const { rp } = this.level.game;
    return JSON.parse(rp.text((b, c) => rp.x.rp_state_json(this.ptr, b, c)));
  }

  /** { completed, score, duration_ms, ...extras }, or null after a rejected move. */
  result() {
    const { rp } = this.level.game;
    const t = rp.text((b, c) => rp.x.rp_result_json(this.ptr, b, c));
    return t === null ? null : JSON.parse(t);
  }

  free() {
    if (!this.ptr) return;
    this.level.game.rp.freer.unregister(this.token);
    this.level.game.rp.x.rp_wasm_free(this.ptr);
    this.ptr = 0;
  }
}

/** A game in the shape of vectors/port/games/*.mjs. */
export function portGame(rp, name) {
  const g = rp.game(name);
  return {
    name: g.name,
    version: g.version,
    levels: g.levels,
    versions: g.versions,
    maxMoves: g.maxMoves,
    fields: g.fields,
    fieldRange: (f) => { const d = g.allFields.find((x) => x.name === f); return [d.min, d.max]; },
    fieldsOf: (v) => g.fieldsOf(v),
    generate: (version, level, seed, params) => g.generate(version, level, seed, params),
    describeLevel: (lv) => lv.describe(),
    start: (lv) => lv.start(),
    apply: (st, move) => st.apply(move),
    describeState: (st) => st.describe(),
    result: (st) => st.result(),
    kindOf: (code) => g.kindOf(code),
  };
}
