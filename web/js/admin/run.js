// run: one held run beside its evidence: its facts, its player, its gaps
// move by move, and for a twin pair both runs side by side with which came
// first, each with its actions. (The in-browser replay of the run is a
// later step.)
import { byId, el } from '../api.js';
import { admin, describeError } from './session.js';
import { openAction } from './actions.js';
import { playerInfo } from './players.js';
import { gapsOf, plotGaps } from './gaps.js';
import { reasonWords, boardWords, playerWords, ageAtRun, when, int, featureLines } from './words.js';

function facts(pairs) {
  const ul = el('ul', { class: 'facts' });
  for (const [k, v] of pairs) ul.append(el('li', {}, el('b', {}, `${k}: `), String(v)));
  return ul;
}

/** One side: a run (a queue item, or its twin on the same board). */
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
  const own = gaps || (audit ? gapsOf(audit.moves) : []);
  const series = [{ gaps: own, label }];
  if (otherGaps) series.push({ gaps: otherGaps, label: 'the other run', other: true });
  box.append(el('h3', {}, 'Gaps between moves (ms)'), plotGaps(series, `${label}: gaps between moves`));
  box.append(el('p', { class: 'muted' }, own.length ? `${own.length} gaps: ${own.join(', ')}` : 'no gaps recorded'));
  const feats = el('ul', {});
  for (const [k, v] of featureLines(audit ? audit.signals : run.signals)) feats.append(el('li', {}, `${k}: ${v}`));
  box.append(el('h3', {}, 'Features'), feats);
  const actions = el('div', { class: 'actions' });
  const kinds = status === 'voided' ? ['restore'] : status === 'held' ? ['approve', 'void'] : ['void'];
  for (const k of [...kinds, player && player.banned ? 'unban' : 'ban', 'rename']) {
    const b = el('button', { type: 'button', 'data-action': k }, k[0].toUpperCase() + k.slice(1));
    b.addEventListener('click', () => openAction(k, { ...run, status }, onChange));
    actions.append(b);
  }
  box.append(actions);
  return box;
}

/** Shows item (and its twin beside it). onChange runs after an action. */
export async function showRun(item, onChange) {
  const sides = byId('run-sides');
  sides.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  byId('run-title').textContent = item.twin ? `Twin pair on ${boardWords(item)}` : `Run on ${boardWords(item)}`;
  const parts = [];
  if (item.twin) {
    const twin = { ...item.twin, game: item.game, level: item.level, date: item.date, held_reason: item.twin.status === 'held' ? 'twin' : null };
    const twinFirst = item.twin.came_first;
    const a = await side(item, `This run: ${playerWords(item.name, item.player_id)}`, item.gaps_ms, item.twin.gaps_ms, !twinFirst, onChange);
    const b = await side(twin, `Its twin: ${playerWords(twin.name, twin.player_id)}`, item.twin.gaps_ms, item.gaps_ms, twinFirst, onChange);
    parts.push(...(twinFirst ? [b, a] : [a, b]));
  } else {
    parts.push(await side(item, playerWords(item.name, item.player_id), null, null, null, onChange));
  }
  sides.replaceChildren(...parts);
  byId('run').dataset.loaded = item.score_id;
}
