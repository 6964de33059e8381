// cases.mjs: the vector cases as requests and the checks of their answers,
// shared by the WebAssembly test, the conformance runner (tools/conform) and
// clients/js. Every rule here is the C runner's (tests/unit/test_vectors.c):
//
//   levels[]:  generate (version, level, seed, params); `refused` names why a
//              generation must fail (bad_level, bad_version, bad_params); else
//              every key of `expect` deep-equals the gen output and no key of
//              `absent` is in it.
//   replays[]: generate, start (board_before), then the moves: a list longer
//              than the game's max_moves is refused as too_many_moves before
//              anything else, a malformed move (not exactly the version's
//              fields, each an integer in range) as bad_moves before any move
//              runs; else outcomes one by one up to the first rejected move,
//              then `rejected` or board_after and every key of `result`.
//
// A request is what the conformance protocol sends (docs/PORTING.md, "The
// conformance runner"); an answer is what a port sends back. serve() answers
// requests from any implementation in the shape of vectors/port/games/*.mjs.
import { isDeepStrictEqual } from 'node:util';

/** The request a level or replay case asks of a port. */
export function requestOf(kind, game, c) {
  const req = { op: kind === 'levels' ? 'gen' : 'replay', game, version: c.version, level: c.level, seed: c.seed };
  if (c.params) req.params = c.params;
  if (kind === 'replays') req.moves = c.moves;
  return req;
}

const show = (v) => {
  const s = JSON.stringify(v);
  return s && s.length > 160 ? `${s.slice(0, 160)}...` : s;
};

function differs(what, got, want) {
  return isDeepStrictEqual(got, want) ? null : `${what}: got ${show(got)}, want ${show(want)}`;
}

/** null when the answer satisfies the case, else why not. */
export function check(kind, c, ans) {
  if (!ans || typeof ans !== 'object') return `no answer object (${show(ans)})`;
  if (ans.error) return `the port failed: ${ans.error}`;
  if (c.refused) return ans.refused === c.refused ? null : `want refused ${c.refused}, got ${ans.refused ? `refused ${ans.refused}` : 'an answer'}`;
  if (ans.refused) return `refused (${ans.refused})${ans.message ? `: ${ans.message}` : ''}`;
  if (kind === 'levels') {
    const lv = ans.level;
    if (!lv || typeof lv !== 'object') return 'no level in the answer';
    for (const k of Object.keys(c.expect)) {
      if (!(k in lv)) return `level key ${k} missing`;
      const d = differs(`level.${k}`, lv[k], c.expect[k]);
      if (d) return d;
    }
    for (const k of c.absent || []) if (k in lv) return `level key ${k} must be absent`;
    return null;
  }
  let d = differs('board_before', ans.board_before, c.board_before);
  if (d) return d;
  d = differs('outcomes', ans.outcomes, c.outcomes);
  if (d) return d;
  if (c.rejected) return differs('rejected', ans.rejected, c.rejected);
  if (ans.rejected) return `move ${ans.rejected.move} was rejected (${ans.rejected.reason})`;
  d = differs('board_after', ans.board_after, c.board_after);
  if (d) return d;
  if (!ans.result || typeof ans.result !== 'object') return 'no result';
  for (const k of Object.keys(c.result)) {
    if (!(k in ans.result)) return `result key ${k} missing`;
    d = differs(`result.${k}`, ans.result[k], c.result[k]);
    if (d) return d;
  }
  return null;
}

/** Two answers to the same request agree (the held-out seeds: a port against the C library). */
export function agree(a, b) {
  return differs('answer', a, b);
}

/** Every level and replay case of a parsed game file as { kind, name, case, request }. */
export function casesOf(json) {
  const out = [];
  for (const kind of ['levels', 'replays']) {
    for (const c of json[kind] || []) out.push({ kind, name: c.name, case: c, request: requestOf(kind, json.game, c) });
  }
  return out;
}

/**
 * Answers a request with an implementation: game(name) returns an object in
 * the shape of vectors/port/games/*.mjs (generate(version, level, seed,
 * params), describeLevel, start, apply, describeState, result, kindOf), plus
 * optionally maxMoves, fieldRange(name) -> [min, max] and validMove(move,
 * version) (the port's own check of a move's shape); a generate that
 * refuses throws an error whose `reason` (or, as the JavaScript port's
 * Refusal does, `code`) names why (else bad_level / bad_version is guessed
 * from the message).
 */
export function serve(game, req) {
  const g = game(req.game);
  if (!g) return { error: `no game ${req.game}` };
  let lv;
  try {
    lv = g.generate(req.version, req.level, req.seed, req.params);
  } catch (e) {
    // `reason` (this kit's errors) or `code` (the JavaScript port's Refusal)
    const named = e.reason || (typeof e.code === 'string' && /^(bad|too)_/.test(e.code) ? e.code : null);
    return { refused: named || guessReason(e), message: e.message };
  }
  if (req.op === 'gen') return { level: g.describeLevel(lv) };
  const st = g.start(lv);
  const board_before = g.describeState(st);
  const moves = req.moves;
  if (!Array.isArray(moves)) return { refused: 'bad_moves', message: 'moves must be an array' };
  if (g.maxMoves !== undefined && moves.length > g.maxMoves) return { refused: 'too_many_moves' };
  let fields;
  try {
    fields = g.fieldsOf(req.version);
  } catch (e) {
    return { refused: 'bad_moves', message: e.message };
  }
  for (const m of moves) {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return { refused: 'bad_moves' };
    const keys = Object.keys(m);
    if (keys.length !== fields.length || !fields.every((f) => Number.isInteger(m[f]))) return { refused: 'bad_moves' };
    if (g.fieldRange && !fields.every((f) => { const [lo, hi] = g.fieldRange(f); return m[f] >= lo && m[f] <= hi; })) {
      return { refused: 'bad_moves' };
    }
    if (g.validMove && !g.validMove(m, req.version)) return { refused: 'bad_moves' };
  }
  const outcomes = [];
  let rejected = null;
  for (let i = 0; i < moves.length; i++) {
    let code;
    try {
      code = g.apply(st, moves[i]);
    } catch (e) {
      if (e instanceof TypeError) return { refused: 'bad_moves', message: e.message };
      throw e;
    }
    outcomes.push(code);
    if (g.kindOf(code) === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  return {
    board_before,
    outcomes,
    rejected,
    board_after: rejected ? null : g.describeState(st),
    result: rejected ? null : g.result(st),
  };
}

function guessReason(e) {
  const m = String(e.message).toLowerCase();
  if (m.includes('version')) return 'bad_version';
  if (m.includes('level')) return 'bad_level';
  if (m.includes('param')) return 'bad_params';
  return 'error';
}
