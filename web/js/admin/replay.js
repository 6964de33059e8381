// replay: a held run replayed in this browser beside its evidence. The
// level is rebuilt from (game, version, level, seed) with the game's port
// (web/js/games/<game>.js, the public viewer's), the run is played on a
// canvas with the public viewer's Player, and its score is checked by
// replay against the one the server recorded. The moves come from the
// admin audit (GET /v1/admin/scores/{id}), so a held run or a daily whose
// moves are still private is replayed too.
import { el, GAME_TITLES, formatInt } from '../api.js';
import { Player } from '../player.js';

function button(label, aria) {
  return el('button', { type: 'button', ...(aria ? { 'aria-label': aria } : {}) }, label);
}

/** The check by replay, in words: {ok, words} (ok null: not checked). */
function check(adapter, lv, audit) {
  const recorded = audit.outcome === 'completed';
  try {
    const run = adapter.replay(lv, audit.moves);
    if (run.rejected) {
      return { ok: false, words: `this browser's replay rejects move ${run.rejected.move + 1} (${run.rejected.reason}); the server recorded ${formatInt(audit.score)}` };
    }
    const ok = run.result.score === audit.score && run.result.completed === recorded;
    return { ok, words: `${ok ? '✓' : '✗'} replayed here: ${formatInt(run.result.score)}${run.result.completed ? ' (completed)' : ''} · recorded ${formatInt(audit.score)}${recorded ? ' (completed)' : ''}` };
  } catch (e) {
    return { ok: false, words: `the replay failed: ${e.message}` };
  }
}

/**
 * The viewer of one audited run: {box, player} (player null when the run
 * cannot be replayed here: no moves, a game or version this page lacks).
 */
export async function replayBox(audit) {
  const box = el('div', { class: 'viewer', 'data-state': 'none' });
  const verdict = el('p', { class: 'check', 'data-check': 'none' });
  if (!audit || !Array.isArray(audit.moves) || !Object.hasOwn(GAME_TITLES, audit.game)) {
    verdict.textContent = 'Not replayed here: no moves, or a game this page cannot rebuild.';
    box.append(verdict);
    return { box, player: null };
  }
  const adapter = await import(`../games/${audit.game}.js`);
  if (!adapter.supports(audit.version)) {
    verdict.textContent = `Not replayed here: version ${audit.version} cannot be rebuilt by this page.`;
    box.append(verdict);
    return { box, player: null };
  }
  const lv = adapter.build(audit.version, audit.level, audit.seed);
  const tl = adapter.timeline(lv, audit.moves);
  const ui = {
    root: box,
    stage: el('div', { class: 'stage' }),
    canvas: el('canvas', { tabindex: '0', role: 'img', 'aria-label': 'The level being replayed' }),
    marks: el('canvas', { class: 'marks', 'aria-hidden': 'true' }),
    scrub: el('input', { type: 'range', min: '0', max: '0', value: '0', step: '1', 'aria-label': 'Position in the run' }),
    play: button('Play'),
    back: button('‹', 'Step back'),
    fwd: button('›', 'Step forward'),
    start: button('«', 'Back to the start'),
    speed: el('select', { 'aria-label': 'Speed' }),
    clock: el('output', {}, '–'),
    caption: el('p', { class: 'caption' }),
    finalScore: el('span', {}),
    finalNote: el('span', {}),
  };
  for (const s of ['0.5', '1', '2', '4', '8']) ui.speed.append(el('option', { value: s, ...(s === '1' ? { selected: '' } : {}) }, `${s}×`));
  ui.final = el('p', { class: 'final', hidden: '' }, 'Final score, computed in this browser: ', ui.finalScore, ' ', ui.finalNote);
  ui.stage.append(ui.canvas);
  box.append(ui.stage, ui.marks,
    el('div', { class: 'controls', role: 'group', 'aria-label': 'Playback' }, ui.start, ui.back, ui.play, ui.fwd, ui.scrub, ui.speed, ui.clock),
    ui.caption, ui.final);
  const c = check(adapter, lv, audit);
  verdict.textContent = c.words;
  verdict.dataset.check = c.ok ? 'ok' : 'no';
  box.append(verdict);
  const player = new Player(ui, tl, (ctx, w, h, frame) => adapter.draw(ctx, w, h, lv, frame));
  return { box, player };
}
