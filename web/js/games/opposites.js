// games/opposites: the Opposites adapter (interface in common.js). Frames come
// at every prompt's appearance and at every answer; a frame shows the strip
// of prompts with their fate, the prompt on show with its answer window, the
// answer given and the level's answer buttons.
import * as port from '../../port/games/opposites.mjs';
import { C, clear, hud, HUD_H, rrect, text } from '../canvas.js';
import { applyMove, kindOf, portBasics, secs, words } from './common.js';

export const { fields, supports, build, replay } = portBasics(port);

const NAMES = ['arrow up', 'arrow down', 'arrow left', 'arrow right', 'BLACK', 'WHITE', 'RED', 'GREEN',
  'filled circle', 'hollow circle', 'filled square', 'hollow square'];
const nameOf = (code) => NAMES[code] || `code ${code}`;

/** The last prompt shown at time t, or -1. */
function promptAt(lv, t) {
  for (let i = lv.count - 1; i >= 0; i--) if (lv.appear[i] <= t) return i;
  return -1;
}

export function timeline(lv, moves) {
  const st = port.start(lv);
  const frames = [];
  const push = (t, caption, move, code, answer) => frames.push({
    t, clock: secs(t), caption, move, outcome: code, kind: code === null ? null : kindOf(port, code),
    slip: code === 'wrong' || code === 'late',
    view: {
      at: t, answer, code, status: st.status.slice(), closed: st.closed.slice(), points: st.points,
      correct: st.correct, wrong: st.wrong, late: st.late,
    },
  });
  push(0, `Start: the first prompt appears at ${secs(lv.appear[0])}.`, -1, null, -1);
  let next = 0; // the next prompt to appear
  let t = 0;
  const appearUpTo = (limit) => {
    while (next < lv.count && lv.appear[next] <= limit) {
      t = Math.max(t, lv.appear[next]);
      push(t, `Prompt ${next + 1} of ${lv.count} appears: ${nameOf(lv.prompt[next])}.`, -1, null, -1);
      next++;
    }
  };
  let rejected = null;
  for (let i = 0; i < moves.length; i++) {
    const move = moves[i];
    appearUpTo(move.t);
    const before = st.points;
    const code = applyMove(port, st, move);
    t = Math.max(t, move.t);
    const p = promptAt(lv, move.t);
    let what = `answered ${nameOf(move.answer)}`;
    if (p >= 0 && code !== 'no_prompt') what += ` to prompt ${p + 1} (${nameOf(lv.prompt[p])}) ${move.t - lv.appear[p]} ms after it appeared`;
    let verdict = words(code);
    if (code === 'correct') verdict = `correct, +${st.points - before}`;
    else if (code === 'wrong') verdict = lv.version === 1 ? 'wrong, the prompt is lost' : `wrong, −${port.WRONG_PENALTY}`;
    push(t, `Move ${i + 1} of ${moves.length} at ${secs(move.t)}: ${what}: ${verdict}.`, i, code, move.answer);
    if (kindOf(port, code) === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  let result = null;
  if (!rejected) {
    if (!st.ended) appearUpTo(lv.end);
    result = port.result(st);
    const end = Math.max(t, result.duration_ms);
    push(end, `The run ends at ${secs(end)}: ${result.correct} correct, ${result.wrong} wrong, ${result.late} late, ${result.missed} not answered correctly.`, -1, null, -1);
  }
  return { frames, rejected, result, aspect: 0.5, chrome: HUD_H + 40 };
}

/** Draws code's symbol centred at (x, y) in a box of `size`. */
function symbol(ctx, code, x, y, size, color) {
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(2, size * 0.09);
  const r = size * 0.36;
  if (code <= 3) {
    const angle = [-Math.PI / 2, Math.PI / 2, Math.PI, 0][code];
    ctx.save();
    ctx.translate(x, y);
    ctx.rotate(angle);
    ctx.beginPath();
    ctx.moveTo(r, 0);
    ctx.lineTo(0, -r * 0.8);
    ctx.lineTo(0, -r * 0.3);
    ctx.lineTo(-r, -r * 0.3);
    ctx.lineTo(-r, r * 0.3);
    ctx.lineTo(0, r * 0.3);
    ctx.lineTo(0, r * 0.8);
    ctx.closePath();
    ctx.fill();
    ctx.restore();
  } else if (code <= 7) {
    text(ctx, NAMES[code], x, y, { size: Math.max(9, size * 0.3), weight: 800, color });
  } else if (code === 8 || code === 9) {
    ctx.beginPath();
    ctx.arc(x, y, r * 0.85, 0, 2 * Math.PI);
    if (code === 8) ctx.fill();
    else ctx.stroke();
  } else {
    const k = r * 1.5;
    if (code === 10) ctx.fillRect(x - k / 2, y - k / 2, k, k);
    else ctx.strokeRect(x - k / 2, y - k / 2, k, k);
  }
}

export function draw(ctx, w, h, lv, frame) {
  const v = frame.view;
  clear(ctx, w, h);
  const score = lv.version === 1 ? v.points : Math.max(0, v.points - port.WRONG_PENALTY * v.wrong);
  hud(ctx, w, `Score ${score}`, `correct ${v.correct} · wrong ${v.wrong} · late ${v.late} · v${lv.version}`);
  // The strip of prompts.
  const stripY = HUD_H + 18;
  const step = Math.min(26, (w - 16) / lv.count);
  const dot = Math.max(3, step * 0.36);
  const x0 = (w - step * lv.count) / 2 + step / 2;
  const current = promptAt(lv, v.at);
  for (let i = 0; i < lv.count; i++) {
    const x = x0 + i * step;
    const shown = lv.appear[i] <= v.at;
    const over = v.at >= lv.appear[i] + lv.window;
    ctx.beginPath();
    ctx.arc(x, stripY, dot, 0, 2 * Math.PI);
    ctx.lineWidth = 1.5;
    if (v.status[i] === 1) ctx.fillStyle = C.good;
    else if (v.status[i] === 2 && (v.closed[i] || over)) ctx.fillStyle = C.bad;
    else if (shown && over) ctx.fillStyle = C.muted;
    else ctx.fillStyle = shown ? C.cell : C.dim;
    ctx.fill();
    ctx.strokeStyle = i === current ? C.current : C.line;
    ctx.lineWidth = i === current ? 2.5 : 1;
    ctx.stroke();
  }
  // The prompt on show and its window.
  const top = stripY + dot + 12;
  const bottomBar = Math.max(44, h * 0.2);
  const area = h - top - bottomBar - 8;
  const box = Math.max(40, Math.min(area, w * 0.34));
  const px = w / 2 - box * 0.7;
  const ax = w / 2 + box * 0.7;
  const cy = top + area / 2;
  if (current >= 0) {
    const left = lv.appear[current] + lv.window - v.at;
    const open = left > 0 && !v.closed[current];
    ctx.fillStyle = C.cell;
    rrect(ctx, px - box / 2, cy - box / 2, box, box, 10);
    ctx.fill();
    ctx.strokeStyle = open ? C.current : C.line;
    ctx.lineWidth = 2;
    ctx.stroke();
    symbol(ctx, lv.prompt[current], px, cy, box, C.ink);
    text(ctx, `prompt ${current + 1}/${lv.count}`, px, cy - box / 2 - 8, { size: 11, color: C.muted });
    const frac = Math.max(0, Math.min(1, left / lv.window));
    ctx.fillStyle = C.dim;
    ctx.fillRect(px - box / 2, cy + box / 2 + 6, box, 5);
    ctx.fillStyle = open ? C.accent : C.muted;
    ctx.fillRect(px - box / 2, cy + box / 2 + 6, box * (open ? frac : 0), 5);
  } else {
    text(ctx, 'waiting for the first prompt', w / 2, cy, { size: 14, color: C.muted });
  }
  if (v.answer >= 0) {
    const good = v.code === 'correct';
    const bad = v.code === 'wrong' || frame.kind === 'rejected';
    const col = good ? C.good : bad ? C.bad : C.muted;
    ctx.fillStyle = good ? C.goodFill : bad ? C.badFill : C.dim;
    rrect(ctx, ax - box / 2, cy - box / 2, box, box, 10);
    ctx.fill();
    symbol(ctx, v.answer, ax, cy, box * 0.8, col);
    text(ctx, words(v.code), ax, cy + box / 2 + 12, { size: 12, weight: 700, color: col });
    text(ctx, 'answer', ax, cy - box / 2 - 8, { size: 11, color: C.muted });
  }
  // The answer buttons of the level.
  const bw = Math.min(54, (w - 16) / lv.codes);
  const bx0 = (w - bw * lv.codes) / 2;
  const by = h - bottomBar + 4;
  for (let c = 0; c < lv.codes; c++) {
    const x = bx0 + c * bw;
    const pressed = c === v.answer;
    ctx.fillStyle = pressed ? (v.code === 'correct' ? C.goodFill : C.badFill) : C.cell;
    rrect(ctx, x + 2, by, bw - 4, bottomBar - 10, 6);
    ctx.fill();
    ctx.strokeStyle = pressed ? C.current : C.line;
    ctx.lineWidth = pressed ? 2 : 1;
    ctx.stroke();
    symbol(ctx, c, x + bw / 2, by + (bottomBar - 10) / 2, Math.min(bw - 4, bottomBar - 10) * 0.9, C.ink);
  }
}
