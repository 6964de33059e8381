// run: one held run beside its evidence: its facts and its player (with
// their newest runs), the run replayed and its score checked in this
// browser (replay.js), its gaps between progress moves plotted against
// its board's population, its features with their weights, and for a twin
// pair both runs side by side, which came first marked, with one control
// that plays both from the start together; each side with its actions.
import { byId, el } from '../api.js';
import { admin, describeError } from './session.js';
import { openAction } from './actions.js';
import { playerInfo } from './players.js';
import { gapsOf, plotGaps } from './gaps.js';
import { replayBox } from './replay.js';
import { reasonWords, boardWords, playerWords, ageAtRun, when, int, featureLines } from './words.js';

const HISTORY_SHOWN = 10;

function facts(pairs) {
  const ul = el('ul', { class: 'facts' });
  for (const [k, v] of pairs) ul.append(el('li', {}, el('b', {}, `${k}: `), String(v)));
  return ul;
}

/** The player's newest runs (GET /v1/admin/players/{id}: runs), this one marked. */
function history(player, scoreId) {
  const runs = (player && player.runs) || [];
  if (!runs.length) return el('p', { class: 'muted' }, 'No runs on record.');
  const body = el('tbody', {});
  for (const r of runs.slice(0, HISTORY_SHOWN)) {
    body.append(el('tr', { 'data-score-id': r.score_id, class: r.score_id === scoreId ? 'current' : null },
      el('td', {}, when(r.submitted_at_ms)), el('td', {}, boardWords(r)), el('td', { class: 'num' }, int(r.score)),
      el('td', {}, r.status), el('td', { class: 'num' }, String(r.suspicion))));
  }
  return el('table', { class: 'history' },
    el('thead', {}, el('tr', {}, el('th', {}, 'When'), el('th', {}, 'Board'), el('th', { class: 'num' }, 'Score'),
      el('th', {}, 'Status'), el('th', { class: 'num' }, 'Suspicion'))), body);
}

/** The run's gaps (the server's progress gaps, else from its moves) over its board's population. */
function gapsPlot(label, audit, gaps, otherGaps) {
  const own = (audit && audit.gaps_ms) || gaps || (audit ? gapsOf(audit.moves) : []);
  const pop = audit && audit.population;
  const series = [{ gaps: own, label }];
  if (otherGaps) series.push({ gaps: otherGaps, label: 'the other run', other: true });
  const bands = (pop && pop.bands) || [];
  const legend = pop && pop.runs
    ? `Grey band: the middle half of the board's ${pop.runs} ranked run${pop.runs === 1 ? '' : 's'} at each move; grey line: their median.`
    : 'No ranked runs on this board to compare with yet.';
  return [
    el('h3', {}, 'Gaps between progress moves (ms)'),
    plotGaps(series, `${label}: gaps between moves`, bands),
    el('p', { class: 'muted legend' }, legend),
    el('p', { class: 'muted' }, own.length ? `${own.length} gaps: ${own.join(', ')}` : 'no gaps recorded'),
  ];
}

/** One side: a run (a queue item, or its twin on the same board): {box, player}. */
async function side(run, label, gaps, otherGaps, first, onChange) {
  const box = el('section', { class: 'side', 'data-score-id': run.score_id });
  box.append(el('h2', {}, label));
  if (first !== null) box.append(el('p', { class: first ? 'first' : 'muted' }, first ? 'Came first' : 'Came second'));
  let audit = null, player = null;
  try { audit = await admin('GET', `/v1/admin/scores/${run.score_id}`); } catch (e) { box.append(el('p', { class: 'error' }, describeError(e))); }
  try { player = await playerInfo(run.player_id); } catch { player = null; }
  const status = audit ? audit.status : run.status;
  box.append(facts([
    ['player', playerWords(run.name, run.player_id)],
    ['account age', player ? ageAtRun(player, run) : 'unknown'],
    ['identity', player && player.identities && player.identities.length ? player.identities.map((i) => i.provider).join(', ') : 'guest'],
    ['linked accounts', player && player.linked_accounts.length ? player.linked_accounts.map((l) => playerWords(l.name, l.player_id)).join(', ') : 'none'],
    ['board', boardWords(run)],
    ['score', int(run.score)],
    ['status', status],
    ['held', reasonWords(run.held_reason)],
    ['suspicion', run.suspicion],
    ['submitted', when(run.submitted_at_ms)],
    ['score id', run.score_id],
  ]));
  const replay = await replayBox(audit);
  box.append(el('h3', {}, 'Replay'), replay.box);
  box.append(...gapsPlot(label, audit, gaps, otherGaps));
  const feats = el('ul', {});
  for (const [k, v] of featureLines(audit ? audit.signals : run.signals)) feats.append(el('li', {}, `${k}: ${v}`));
  box.append(el('h3', {}, 'Features'), feats);
  box.append(el('h3', {}, 'The player\'s newest runs'), history(player, run.score_id));
  const actions = el('div', { class: 'actions' });
  const kinds = status === 'voided' ? ['restore'] : status === 'held' ? ['approve', 'void'] : ['void'];
  for (const k of [...kinds, player && player.banned ? 'unban' : 'ban', 'rename']) {
    const b = el('button', { type: 'button', 'data-action': k }, k[0].toUpperCase() + k.slice(1));
    b.addEventListener('click', () => openAction(k, { ...run, status }, onChange));
    actions.append(b);
  }
  box.append(actions);
  return { box, player: replay.player };
}

/** Plays every viewer of the pair from its start at once, at one speed. */
function playTogether(players) {
  const b = el('button', { type: 'button', id: 'run-play-both' }, 'Play both from the start');
  b.addEventListener('click', () => {
    for (const p of players) {
      p.pause();
      p.ui.speed.value = players[0].ui.speed.value;
      p.seek(0);
    }
    for (const p of players) p.play();
  });
  return b;
}

/** Shows item (and its twin beside it). onChange runs after an action. */
export async function showRun(item, onChange) {
  const sides = byId('run-sides');
  sides.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  byId('run-title').textContent = item.twin ? `Twin pair on ${boardWords(item)}` : `Run on ${boardWords(item)}`;
  const controls = byId('run-controls');
  controls.replaceChildren();
  const parts = [];
  if (item.twin) {
    const twin = { ...item.twin, game: item.game, level: item.level, date: item.date, held_reason: item.twin.status === 'held' ? 'twin' : null };
    const twinFirst = item.twin.came_first;
    const a = await side(item, `This run: ${playerWords(item.name, item.player_id)}`, item.gaps_ms, item.twin.gaps_ms, !twinFirst, onChange);
    const b = await side(twin, `Its twin: ${playerWords(twin.name, twin.player_id)}`, item.twin.gaps_ms, item.gaps_ms, twinFirst, onChange);
    parts.push(...(twinFirst ? [b, a] : [a, b]));
    const players = parts.map((p) => p.player).filter(Boolean);
    if (players.length === 2) controls.append(playTogether(players));
  } else {
    parts.push(await side(item, playerWords(item.name, item.player_id), null, null, null, onChange));
  }
  sides.replaceChildren(...parts.map((p) => p.box));
  byId('run').dataset.loaded = item.score_id;
}
