// games/common: what the adapters over the JavaScript port share.
//
// The adapter interface (docs/WEB.md): each web/js/games/<game>.js exports
//   fields                       the move fields in the game's order (the moves hash)
//   supports(version)            can this build rebuild that spec version?
//   build(version, level, seed)  the level (throws RangeError when it cannot)
//   replay(lv, moves)            the plain replay: {result, rejected}, as the server runs it
//   timeline(lv, moves)          {frames, result, rejected, aspect, chrome}: every step to draw
//   draw(ctx, w, h, lv, frame)   paints one frame on a w x h (CSS px) canvas
// The canvas is aspect x width + chrome pixels tall. A frame is
// {t, clock, caption, move, outcome, kind, slip, view}: t orders and paces
// playback (ms), clock is the run's clock as text, move the index of the
// move it shows (-1 for none), kind the outcome's kind, slip marks a move
// that cost points, view what draw reads. A WebAssembly build of the C games
// can stand behind the same interface: only build, replay and timeline
// touch game logic.

/** The fields of the interface that come straight from a port module. */
export function portBasics(port) {
  return {
    fields: port.fields.slice(),
    supports: (version) => port.versions.includes(version),
    build: (version, level, seed) => port.generate(version, level, seed),
    replay: (lv, moves) => plainReplay(port, lv, moves),
  };
}

// A move the port cannot even decode is a rejection, as the server's decoder makes it.
export function applyMove(port, st, move) {
  try {
    return port.apply(st, move);
  } catch (e) {
    if (e instanceof TypeError) return 'malformed';
    throw e;
  }
}

export function kindOf(port, code) {
  return code === 'malformed' ? 'rejected' : port.kindOf(code);
}

/** start, every move until the first rejected one, result: the replay as specified. */
export function plainReplay(port, lv, moves) {
  const st = port.start(lv);
  for (let i = 0; i < moves.length; i++) {
    const code = applyMove(port, st, moves[i]);
    if (kindOf(port, code) === 'rejected') return { result: null, rejected: { move: i, reason: code } };
  }
  return { result: port.result(st), rejected: null };
}

/**
 * The frames of a game whose moves are its steps: a start frame, then one
 * frame per move. hooks.before(st, move) runs before a move is applied and
 * its answer reaches hooks.view(st, move, code, before) (move null for the
 * start); hooks.caption(move, code, i) and hooks.time(move) describe it;
 * hooks.slip(code, move), if given, tells a move that cost points.
 */
export function stepFrames(port, lv, moves, hooks) {
  const st = port.start(lv);
  const frames = [{ t: 0, clock: secs(0), caption: 'Start: nothing played yet.', move: -1, outcome: null, kind: null, view: hooks.view(st, null, null, null) }];
  let rejected = null;
  let t = 0;
  for (let i = 0; i < moves.length; i++) {
    const move = moves[i];
    const before = hooks.before ? hooks.before(st, move) : null;
    const code = applyMove(port, st, move);
    const kind = kindOf(port, code);
    t = Math.max(t, hooks.time(move));
    frames.push({
      t, clock: secs(t), caption: `Move ${i + 1} of ${moves.length} at ${secs(hooks.time(move))}: ${hooks.caption(move, code, i)}`,
      move: i, outcome: code, kind, slip: Boolean(hooks.slip && hooks.slip(code, move)), view: hooks.view(st, move, code, before),
    });
    if (kind === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  return { frames, rejected, result: rejected ? null : port.result(st) };
}

/** "3.30 s" */
export function secs(ms) {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** "row 2, column 3" of a row-major cell index (1-based for people). */
export function cellName(cell, cols) {
  return `row ${Math.floor(cell / cols) + 1}, column ${(cell % cols) + 1}`;
}

/** A plain-words outcome code: "already_found" -> "already found". */
export const words = (code) => String(code).replace(/_/g, ' ');
