// words: what the console says about a run: its held reason in words, its
// board, its player, times and ages.
import { gameTitle, playerTag, formatInt } from '../api.js';

export const REASONS = {
  duplicate: 'an identical run of another player',
  identity: 'the board requires an identity the player has not bound',
  twin: "another player's run re-timed (a twin pair)",
  parallel: "overlaps another of the player's runs",
  think_time: 'first decision before the think floor',
  new_account: 'a new account\'s daily',
  record: 'an unreviewed record (top of its board)',
  pace: 'at the floors, steady, even (pace)',
  padding: 'ignored moves past the allowance (padding)',
  clock: 'more time claimed than passed, round times (clock)',
  rehearsal: 'rehearsed (rehearsal)',
  speed: 'faster than nearly all of the board (speed)',
  routine: 'the same pace run after run (routine)',
  review: 'held for review',
};

export const reasonWords = (word) => (word ? REASONS[word] || word : 'ranked (not held)');

/** "schulte/4" for a level board, the date for a daily. */
export const boardWords = (item) => (item.date ? `daily ${item.date} (${gameTitle(item.game)} level ${item.level})`
  : `${gameTitle(item.game)} level ${item.level}`);

export const playerWords = (name, id) => `${name} ${playerTag(id)}`;

/** A player's account age when the run came in (the server's clock, both). */
export const ageAtRun = (player, run) => `${age(run.submitted_at_ms - player.created_at_ms)} at the run`;

/** "3 d 4 h" / "12 min" / "40 s" of a span in ms. */
export function age(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min`;
  return `${s} s`;
}

export const when = (ms) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
export const int = (n) => (typeof n === 'number' ? formatInt(n) : String(n));

/** The suspicion's terms: [["weight pace", 624], ...] (none for a run stored before points were recorded). */
export function weightLines(signals) {
  const f = (signals && signals.features) || {};
  return Object.entries(f.points || {}).map(([k, v]) => [`weight ${k}`, v]);
}

/** The suspicion's terms (weights by word) and the features, as [label, value] pairs. */
export function featureLines(signals, withWeights = true) {
  const f = (signals && signals.features) || {};
  const lines = withWeights ? weightLines(signals) : [];
  for (const [k, v] of Object.entries(f)) {
    if (k === 'points' || k === 'suspicion' || k === 'reason' || typeof v === 'object') continue;
    lines.push([k, v]);
  }
  return lines;
}
