// scoring: what a game's score means to a player, in words (each game's
// spec.md, "Result and score"): a one-line legend per game for the boards,
// and the sum a replay's result adds up to for the games whose numbers are
// a formula rather than a count (Contraption, Driftlings).
import { formatInt } from './api.js';

/** The legend of each game's score, from its spec's scoring section. */
export const LEGENDS = {
  schulte: 'Score: 1,000 for finding every number in time, plus one point for each tenth of a second left on the clock, less 10 per wrong tap. A run that does not finish scores the numbers it found.',
  pipes: 'Score: 1,000 for connecting every pipe, plus one point for each tenth of a second left on the clock, less 5 per turn beyond the fewest the level needs. An unsolved board scores 0.',
  'target-sums': 'Score: 1,000 for meeting every row and column target, plus one point for each tenth of a second left on the clock, less 5 per toggle beyond the fewest needed. Unsolved: 0.',
  opposites: 'Score: each correct answer earns 100, plus 1 for every 10 ms left of its window; each wrong answer costs 50.',
  contraption: 'Score: 100,000, less 10,000 for each part placed, less the ticks the ball took to reach the goal (50 ticks a second). Fewer parts always win, then the faster ball; a ball that misses the goal scores 0. For example 89,911 = 100,000 − 1 part × 10,000 − 89 ticks.',
  driftlings: 'Score: 1,000,000 for each walker saved, less 1,000 for each skill given, less the ticks the run lasted (40 ticks a second). More walkers saved always win, then fewer skills, then the quicker run; saving fewer than the level needs scores 0. For example 4,994,957 = 5 saved × 1,000,000 − 5 skills × 1,000 − 43 ticks.',
};

/** The legend of a game's score, or null for a game without one. */
export const legendOf = (game) => (Object.hasOwn(LEGENDS, game) ? LEGENDS[game] : null);

const plural = (n, one, many) => `${formatInt(n)} ${n === 1 ? one : many}`;

/**
 * The sum a completed run's result adds up to, in words, or null where the
 * score needs no sum (or the run did not complete: it scored 0 or a count).
 */
export function explainResult(game, result) {
  if (!result || !result.completed) return null;
  if (game === 'contraption' && Number.isInteger(result.parts_used) && Number.isInteger(result.arrival_tick)) {
    return `= 100,000 − ${plural(result.parts_used, 'part', 'parts')} × 10,000 − ${plural(result.arrival_tick, 'tick', 'ticks')} to the goal`;
  }
  if (game === 'driftlings' && Number.isInteger(result.saved) && Number.isInteger(result.skills_used) && Number.isInteger(result.ticks)) {
    return `= ${formatInt(result.saved)} saved × 1,000,000 − ${plural(result.skills_used, 'skill', 'skills')} × 1,000 − ${plural(result.ticks, 'tick', 'ticks')}`;
  }
  return null;
}
