// games/contraption: the Contraption adapter (interface in common.js). The
// moves are placements: one frame per part placed, then one frame per tick of
// the one simulation, drawing the ball's path so far through the walls, the
// ramps and the fans' fields to the goal.
import * as port from '../../port/games/contraption.mjs';
import { C, clear, hud, HUD_H, rrect, text } from '../canvas.js';
import { applyMove, kindOf, portBasics, words } from './common.js';

export const { fields, supports, build, replay } = portBasics(port);

const PLACE_MS = 700; // playback time given to each placement
const TICK_MS = 20; // playback time of one simulation tick
const ENDS = ['reached the goal', 'fell out of the field', 'came to rest', 'ran to the tick cap'];
const KIND = ['ramp', 'fan'];

export function timeline(lv, moves) {
  const st = port.start(lv);
  const frames = [{
    t: 0, clock: 'setup', move: -1, outcome: null, kind: null,
    caption: `Start: the ball drops from (${lv.ball[0]}, ${lv.ball[1]}); ${lv.inventory.ramp} ramps and ${lv.inventory.fan} fans to place.`,
    view: { placed: [], left: [lv.inventory.ramp, lv.inventory.fan], tick: 0, path: null, attempt: null },
  }];
  let rejected = null;
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    const code = applyMove(port, st, m);
    const kind = kindOf(port, code);
    frames.push({
      t: (i + 1) * PLACE_MS, clock: `part ${i + 1}`, move: i, outcome: code, kind,
      caption: `Move ${i + 1} of ${moves.length}: a ${KIND[m.part] || `part ${m.part}`} at (${m.x}, ${m.y}), angle ${m.angle} mrad: ${words(code)}.`,
      view: { placed: st.placed.slice(), left: st.left.slice(), tick: 0, path: null, attempt: kind === 'rejected' ? m : null },
    });
    if (kind === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  const size = { aspect: port.HEIGHT / port.WIDTH, chrome: HUD_H + 12 };
  if (rejected) return { frames, rejected, result: null, ...size };
  const path = [];
  const run = port.simulate(port.fieldOf(lv), st.placed, path);
  const t0 = frames[frames.length - 1].t + PLACE_MS;
  for (let k = 1; k <= path.length; k++) {
    const [x, y] = path[k - 1];
    const end = k === path.length ? ` The ball ${ENDS[run.end]}.` : '';
    frames.push({
      t: t0 + k * TICK_MS, clock: `tick ${k}`, move: -1, outcome: null, kind: null,
      caption: `Tick ${k} of ${path.length}: the ball at (${(x / port.UNIT).toFixed(1)}, ${(y / port.UNIT).toFixed(1)}).${end}`,
      view: { placed: st.placed, left: st.left, tick: k, path, attempt: null, end: k === path.length ? run.end : -1 },
    });
  }
  return { frames, rejected, result: port.result(st), ...size };
}

function drawPart(ctx, p, X, Y, k, color, dashed) {
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.setLineDash(dashed ? [5, 4] : []);
  const cx = X(p.cx / port.UNIT);
  const cy = Y(p.cy / port.UNIT);
  const s = p.s / port.ONE;
  const c = p.c / port.ONE;
  if (p.part === port.RAMP) {
    const half = (port.HALF / port.UNIT) * k;
    ctx.lineWidth = Math.max(3, 2 * k);
    ctx.lineCap = 'round';
    ctx.beginPath();
    ctx.moveTo(cx - half * c, cy - half * s);
    ctx.lineTo(cx + half * c, cy + half * s);
    ctx.stroke();
  } else {
    const r = (port.FAN_R / port.UNIT) * k;
    ctx.lineWidth = 1.5;
    ctx.globalAlpha = 0.12;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.setLineDash([4, 3]);
    ctx.stroke();
    ctx.setLineDash([]);
    // the push: along (sin, -cos)
    const dx = s * r * 0.75;
    const dy = -c * r * 0.75;
    ctx.lineWidth = Math.max(2, k * 0.8);
    ctx.beginPath();
    ctx.moveTo(cx - dx * 0.6, cy - dy * 0.6);
    ctx.lineTo(cx + dx, cy + dy);
    ctx.stroke();
    const a = Math.atan2(dy, dx);
    const head = Math.max(5, r * 0.3);
    ctx.beginPath();
    ctx.moveTo(cx + dx, cy + dy);
    ctx.lineTo(cx + dx - head * Math.cos(a - 0.5), cy + dy - head * Math.sin(a - 0.5));
    ctx.lineTo(cx + dx - head * Math.cos(a + 0.5), cy + dy - head * Math.sin(a + 0.5));
    ctx.closePath();
    ctx.fill();
  }
  ctx.setLineDash([]);
}

export function draw(ctx, w, h, lv, frame) {
  const v = frame.view;
  clear(ctx, w, h);
  const status = v.tick === 0 ? 'Placing parts' : v.end >= 0 ? `Tick ${v.tick}: ${ENDS[v.end]}` : `Tick ${v.tick}`;
  hud(ctx, w, status, `left: ${v.left[0]} of ${lv.inventory.ramp} ramps, ${v.left[1]} of ${lv.inventory.fan} fans`);
  const k = Math.min((w - 12) / port.WIDTH, (h - HUD_H - 12) / port.HEIGHT);
  const ox = (w - k * port.WIDTH) / 2;
  const oy = HUD_H + 6;
  const X = (u) => ox + u * k;
  const Y = (u) => oy + u * k;
  ctx.fillStyle = '#f1f4f8';
  ctx.fillRect(X(0), Y(0), port.WIDTH * k, port.HEIGHT * k);
  ctx.strokeStyle = C.line;
  ctx.lineWidth = 1;
  ctx.strokeRect(X(0), Y(0), port.WIDTH * k, port.HEIGHT * k);
  // the goal, then the walls (the shelf under the goal is the first)
  const [g0, g1, g2, g3] = lv.goal;
  ctx.fillStyle = C.goodFill;
  ctx.fillRect(X(g0), Y(g1), (g2 - g0) * k, (g3 - g1) * k);
  ctx.strokeStyle = C.good;
  ctx.lineWidth = 2;
  ctx.strokeRect(X(g0), Y(g1), (g2 - g0) * k, (g3 - g1) * k);
  text(ctx, 'goal', X((g0 + g2) / 2), Y((g1 + g3) / 2), { size: Math.max(9, k * 3.2), weight: 700, color: C.good });
  ctx.fillStyle = '#59636d';
  for (const [a, b, c, d] of lv.walls) {
    rrect(ctx, X(a), Y(b), (c - a) * k, (d - b) * k, Math.min(3, k));
    ctx.fill();
  }
  // where the ball starts, and which way it moves
  const [bx, by, bvx] = lv.ball;
  ctx.strokeStyle = C.muted;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.arc(X(bx), Y(by), Math.max(4, 1.6 * k), 0, 2 * Math.PI);
  ctx.stroke();
  ctx.setLineDash([]);
  if (bvx !== 0) {
    ctx.beginPath();
    ctx.moveTo(X(bx), Y(by));
    ctx.lineTo(X(bx + Math.sign(bvx) * 5), Y(by));
    ctx.stroke();
  }
  for (const p of v.placed) drawPart(ctx, p, X, Y, k, p.part === port.RAMP ? C.accent : C.warn, false);
  if (v.attempt && Number.isInteger(v.attempt.angle) && Math.abs(v.attempt.angle) <= 1400) {
    drawPart(ctx, port.partOf(v.attempt), X, Y, k, C.bad, true);
  }
  if (v.path && v.tick > 0) {
    ctx.strokeStyle = C.water;
    ctx.globalAlpha = 0.55;
    ctx.lineWidth = Math.max(1.5, k * 0.5);
    ctx.beginPath();
    ctx.moveTo(X(bx), Y(by));
    for (let i = 0; i < v.tick; i++) ctx.lineTo(X(v.path[i][0] / port.UNIT), Y(v.path[i][1] / port.UNIT));
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  const [x, y] = v.path && v.tick > 0 ? [v.path[v.tick - 1][0] / port.UNIT, v.path[v.tick - 1][1] / port.UNIT] : [bx, by];
  ctx.fillStyle = v.end === 0 ? C.good : C.ink;
  ctx.beginPath();
  ctx.arc(X(x), Y(Math.min(y, port.HEIGHT)), Math.max(4, 1.6 * k), 0, 2 * Math.PI);
  ctx.fill();
}
