// fixtures: real scores on a real bin/replayd for the browser tests: one run
// of every game (with a few slips where a game has them, so replays show
// more than a clean run), a board with enough players to page, and today's
// daily. Every score is submitted through POST /v1/scores and verified there.
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, gen, register, seed, solve, solveSchulte } from '../http/harness.mjs';

const ROOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const LEVELS = { schulte: 5, pipes: 5, 'target-sums': 4, opposites: 4, contraption: 4, driftlings: 3 };

// The runs, a little less than perfect where the game allows it.
async function movesFor(game, level, s) {
  if (game === 'schulte') {
    // 400 ms apart, with one wrong tap between the third and fourth find
    // (version 2 wants 150 ms between any two taps).
    const moves = await solveSchulte(level, s.seed, 400, s.version);
    const g = await gen('schulte', level, s.seed, s.version);
    const grid = g.grid.flat();
    const lastNumber = g.order === 'up' ? grid.length : 1;
    moves.splice(3, 0, { t: 3 * 400 + 200, cell: grid.indexOf(lastNumber) });
    return moves;
  }
  if (game === 'target-sums') {
    // Remove and put back a cell the solution keeps, then solve, 500 ms a
    // toggle (version 2's finish floor is 500 ms a needed toggle).
    const g = await gen('target-sums', level, s.seed, s.version);
    const sol = g.solution.flat();
    const kept = sol.indexOf(1);
    const cells = sol.map((k, c) => (k ? -1 : c)).filter((c) => c >= 0);
    return [{ t: 500, cell: kept }, { t: 1000, cell: kept }, ...cells.map((cell, i) => ({ t: 1500 + 500 * i, cell }))];
  }
  if (game === 'opposites') {
    // A slip on the second prompt, corrected within its window (version 2
    // rules); every answer clears version 3's reaction floor (up to 350 ms).
    const g = await gen('opposites', level, s.seed, s.version);
    const moves = g.answers.map((answer, i) => ({ t: g.appear_ms[i] + 400, answer }));
    moves.splice(1, 0, { t: g.appear_ms[1] + 360, answer: g.prompts[1] });
    return moves;
  }
  return await solve(game, level, s.seed, s.version);
}

async function submit(srv, player, s, moves) {
  const r = await call(srv, 'POST', '/v1/scores', { token: player.token, body: { seed_token: s.seed_token, moves } });
  if (r.status !== 200) throw new Error(`submit ${s.game}: ${r.status} ${r.text}`);
  return r.json;
}

/** Scores of every game, a pageable board and today's daily; returns what the tests need. */
export async function populate(srv) {
  // the games the pages have a replay for (a new game from make new-game
  // has none until web/js/games/<name>.js is written; its page says so)
  const games = (await call(srv, 'GET', '/v1/games')).json.games.map((g) => g.name)
    .filter((g) => existsSync(join(ROOT_DIR, 'web', 'js', 'games', `${g}.js`)));
  const runs = {};
  for (const game of games) {
    const player = await register(srv, `${game} runner`);
    const level = LEVELS[game] || 1;
    const s = await seed(srv, player.token, { game, level });
    const r = await submit(srv, player, s, await movesFor(game, level, s));
    runs[game] = { player, score_id: r.score_id, score: r.score, level };
  }
  // More players on Schulte's board, to page through it.
  const pageGame = 'schulte';
  const pageLevel = LEVELS.schulte;
  for (let i = 0; i < 6; i++) {
    const player = await register(srv, `pager ${i + 1}`);
    const s = await seed(srv, player.token, { game: pageGame, level: pageLevel });
    await submit(srv, player, s, await solveSchulte(pageLevel, s.seed, 320 + 40 * i, s.version)); // over the floors
  }
  // Today's daily, by two players. The daily seed is everyone's, so the
  // second plays a few milliseconds later (an identical run would be
  // refused as a copy).
  const daily = [];
  for (const [k, name] of ['daily early', 'daily late'].entries()) {
    const player = await register(srv, name);
    const s = await seed(srv, player.token, { daily: true });
    const moves = (await solve(s.game, s.level, s.seed, s.version)).map((m) => ('t' in m ? { ...m, t: m.t + 37 * k } : m));
    const r = await submit(srv, player, s, moves);
    daily.push({ player, score_id: r.score_id, score: r.score, date: s.date, game: s.game });
  }
  return { games, runs, daily, pageBoard: { game: pageGame, level: pageLevel, total: 7 } };
}

