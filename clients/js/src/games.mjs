// games: the server's games in JavaScript. loadGames() prefers the
// WebAssembly build of the server's own C code (vendor/replay.wasm, through
// vendor/replay.mjs) and falls back to the independent pure-JavaScript port
// (vendor/port/) where WebAssembly is unavailable or fails to load. Both
// give every game the same interface (vectors/port/README.md, "The game
// interface"), and the package's tests check that they agree on every vector
// the port covers.
//
//   const games = await loadGames();           // games.backend: 'wasm' | 'js'
//   const g = games.game('schulte');
//   const lv = g.generate(seed.version, seed.level, seed.seed);
//   g.describeLevel(lv); const st = g.start(lv); g.apply(st, { t: 400, cell: 8 }); g.result(st);

const PORT_GAMES = ['schulte', 'pipes', 'target-sums', 'opposites', 'contraption', 'driftlings'];

/** The pure-JavaScript port, game name -> module. */
export async function loadPort() {
  const out = {};
  for (const name of PORT_GAMES) out[name] = await import(`../vendor/port/games/${name}.mjs`);
  return out;
}

/** A port module with the extras the WebAssembly games have (maxMoves). */
function portShape(m) {
  return { ...m, maxMoves: m.MAX_MOVES, generate: (v, l, s, p) => m.generate(v, l, s, p) };
}

/**
 * Loads the games. options.backend: 'auto' (default: WebAssembly, else the
 * port), 'wasm' (fail without it) or 'js'; options.wasm: the module's bytes,
 * path or URL (default vendor/replay.wasm). Resolves to { backend, names,
 * game(name), error } (error: why WebAssembly was not used, under 'auto').
 */
export async function loadGames(options = {}) {
  const backend = options.backend || 'auto';
  let error = null;
  if (backend !== 'js') {
    try {
      if (typeof WebAssembly !== 'object') throw new Error('this runtime has no WebAssembly');
      const { load, portGame } = await import('../vendor/replay.mjs');
      const rp = await load(options.wasm ?? new URL('../vendor/replay.wasm', import.meta.url));
      const map = new Map(rp.games().map((g) => [g.name, portGame(rp, g.name)]));
      return { backend: 'wasm', names: [...map.keys()], game: (n) => lookup(map, n), replay: rp, error };
    } catch (e) {
      if (backend === 'wasm') throw e;
      error = e;
    }
  }
  const port = await loadPort();
  const map = new Map(Object.entries(port).map(([n, m]) => [n, portShape(m)]));
  return { backend: 'js', names: [...map.keys()], game: (n) => lookup(map, n), error };
}

function lookup(map, name) {
  const g = map.get(name);
  if (!g) throw new RangeError(`no game ${name}`);
  return g;
}

/**
 * Plays moves on a fresh state the way the server replays them: stops at the
 * first rejected move. Returns { outcomes, rejected, board, result }.
 */
export function play(game, level, moves) {
  const st = game.start(level);
  const outcomes = [];
  let rejected = null;
  for (let i = 0; i < moves.length; i++) {
    const code = game.apply(st, moves[i]);
    outcomes.push(code);
    if (game.kindOf(code) === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  return { outcomes, rejected, board: game.describeState(st), result: rejected ? null : game.result(st) };
}
