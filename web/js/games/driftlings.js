// games/driftlings: the Driftlings adapter (interface in common.js). A frame
// per tick of the world (the crowd moving over the terrain as it is carved),
// and one per skill given, ringing the walker that got it.
import * as port from '../../port/games/driftlings.mjs';
import { C, clear, hud, HUD_H, text } from '../canvas.js';
import { applyMove, kindOf, portBasics, secs, words } from './common.js';

export const { fields, supports, build, replay } = portBasics(port);

const TICK_MS = 25; // the game's clock: a run's duration is 25 ms a tick
// by act: walk, fall, climb, block, bash, dig, saved, dead
const ACT_NAMES = ['walk', 'fall', 'climb', 'block', 'bash', 'dig', 'saved', 'lost'];
const ACT_COLORS = ['#2e7d32', '#1565c0', '#7b1fa2', '#e65100', '#c62828', '#6d4c41', '#1d7a3a', '#c0392b'];

function sameBytes(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function timeline(lv, moves) {
  const st = port.start(lv);
  let terrain = Uint8Array.from(st.T); // shared by frames until a walker carves
  const frames = [];
  const count = (act) => st.walkers.reduce((n, w) => n + (w.act === act ? 1 : 0), 0);
  const push = (caption, move, code, assign) => {
    if (!sameBytes(terrain, st.T)) terrain = Uint8Array.from(st.T);
    frames.push({
      t: st.tick * TICK_MS, clock: `tick ${st.tick}`, caption, move, outcome: code,
      kind: code === null ? null : kindOf(port, code),
      view: {
        tick: st.tick, terrain, walkers: st.walkers.map((w) => [w.x, w.y, w.dir, w.act, w.traits, w.fall]),
        left: st.left.slice(), spawned: st.spawned, saved: count(port.SAVED), dead: count(port.DEAD), assign,
      },
    });
  };
  const tickCaption = () => {
    const out = st.walkers.filter((w) => port.ACTIVE[w.act]).length;
    return `Tick ${st.tick} (${secs(st.tick * TICK_MS)}): ${st.spawned}/${lv.crowd} out of the hatch, ${out} on the move, ${count(port.SAVED)} saved, ${count(port.DEAD)} lost.`;
  };
  const runTo = (tick) => {
    while (!port.isOver(st) && st.tick < tick) {
      port.runTick(st);
      push(tickCaption(), -1, null, null);
    }
  };
  push(`Start: ${lv.crowd} walkers will drop from the hatch, ${lv.quota} must reach the exit.`, -1, null, null);
  let rejected = null;
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i];
    runTo(m.tick);
    const code = applyMove(port, st, m);
    const kind = kindOf(port, code);
    push(`Move ${i + 1} of ${moves.length} at tick ${m.tick}: ${port.SKILLS[m.skill] || `skill ${m.skill}`} to walker ${m.walker + 1}: ${words(code)}.`,
      i, code, { walker: m.walker, skill: m.skill, code });
    if (kind === 'rejected') {
      rejected = { move: i, reason: code };
      break;
    }
  }
  if (rejected) return { frames, rejected, result: null, ...sizeOf(lv) };
  runTo(Infinity);
  const result = port.result(st);
  frames[frames.length - 1].caption += ` The run is over: ${result.saved} of ${lv.crowd} saved (${lv.quota} needed).`;
  return { frames, rejected, result, ...sizeOf(lv) };
}

const FOOT_H = 44;
const sizeOf = (lv) => ({ aspect: lv.height / lv.width, chrome: HUD_H + FOOT_H + 8 });

function drawWalker(ctx, row, X, Y, k) {
  const [x, y, dir, act, traits] = row;
  const cx = X(x) + k / 2;
  const cy = Y(y) + k / 2;
  const r = Math.max(2.5, k * 0.36);
  if (act === port.DEAD) {
    ctx.strokeStyle = ACT_COLORS[act];
    ctx.lineWidth = Math.max(1.5, k * 0.15);
    ctx.beginPath();
    ctx.moveTo(cx - r, cy - r);
    ctx.lineTo(cx + r, cy + r);
    ctx.moveTo(cx + r, cy - r);
    ctx.lineTo(cx - r, cy + r);
    ctx.stroke();
    return;
  }
  ctx.fillStyle = ACT_COLORS[act];
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  ctx.fill();
  if (act === port.BLOCK) {
    // arms out
    ctx.strokeStyle = ACT_COLORS[act];
    ctx.lineWidth = Math.max(1.5, k * 0.15);
    ctx.beginPath();
    ctx.moveTo(cx - k * 0.55, cy);
    ctx.lineTo(cx + k * 0.55, cy);
    ctx.stroke();
  } else {
    // the way it faces
    ctx.fillStyle = '#ffffff';
    ctx.beginPath();
    ctx.arc(cx + dir * r * 0.45, cy - r * 0.2, Math.max(1, r * 0.28), 0, 2 * Math.PI);
    ctx.fill();
  }
  if (traits & 2) {
    // a floater's umbrella
    ctx.strokeStyle = '#0d47a1';
    ctx.lineWidth = Math.max(1, k * 0.1);
    ctx.beginPath();
    ctx.arc(cx, cy - r * 0.9, r * 0.9, Math.PI, 2 * Math.PI);
    ctx.stroke();
  }
  if (traits & 1) {
    // a climber's mark
    ctx.fillStyle = '#7b1fa2';
    ctx.fillRect(cx - dir * r - 1, cy - r, Math.max(2, k * 0.14), r * 2);
  }
}

export function draw(ctx, w, h, lv, frame) {
  const v = frame.view;
  clear(ctx, w, h);
  // saved so far against the quota the level needs (not "saved/quota",
  // which read as a fraction: "saved 6/5")
  hud(ctx, w, `Tick ${v.tick} · saved ${v.saved} of ${lv.crowd} (${lv.quota} needed)`, `out ${v.spawned} · lost ${v.dead}`);
  const W = lv.width;
  const H = lv.height;
  const k = Math.max(2, Math.min((w - 8) / W, (h - HUD_H - FOOT_H - 8) / H));
  const ox = (w - k * W) / 2;
  const oy = HUD_H + 4;
  const X = (x) => ox + x * k;
  const Y = (y) => oy + y * k;
  ctx.fillStyle = '#e9f1fb';
  ctx.fillRect(ox, oy, W * k, H * k);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const b = v.terrain[y * W + x];
      if (b === port.AIR) continue;
      ctx.fillStyle = b === port.EARTH ? '#a47148' : '#6f7c8b';
      ctx.fillRect(X(x), Y(y), Math.ceil(k), Math.ceil(k));
      if (b === port.STEEL && k >= 6) {
        ctx.strokeStyle = '#9aa6b3';
        ctx.lineWidth = 1;
        ctx.strokeRect(X(x) + 0.5, Y(y) + 0.5, k - 1, k - 1);
      }
    }
  }
  // the hatch and the exit
  const [ex, ey] = lv.entrance;
  ctx.fillStyle = '#37474f';
  ctx.fillRect(X(ex) - k * 0.3, Y(ey) - k * 0.8, k * 1.6, k * 0.35);
  const [xx, xy] = lv.exit;
  ctx.fillStyle = C.good;
  ctx.beginPath();
  ctx.moveTo(X(xx), Y(xy) + k);
  ctx.lineTo(X(xx), Y(xy) - k * 0.4);
  ctx.arc(X(xx) + k / 2, Y(xy) - k * 0.4, k / 2, Math.PI, 0);
  ctx.lineTo(X(xx) + k, Y(xy) + k);
  ctx.closePath();
  ctx.fill();
  for (const row of v.walkers) if (row[3] !== port.SAVED) drawWalker(ctx, row, X, Y, k);
  if (v.assign && v.assign.walker < v.walkers.length) {
    const [x, y] = v.walkers[v.assign.walker];
    ctx.strokeStyle = frame.kind === 'applied' ? C.current : C.muted;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.arc(X(x) + k / 2, Y(y) + k / 2, Math.max(7, k * 0.9), 0, 2 * Math.PI);
    ctx.stroke();
    const label = `${port.SKILLS[v.assign.skill]}: ${words(v.assign.code)}`;
    const lx = Math.min(Math.max(X(x) + k / 2, 60), w - 60);
    text(ctx, label, lx, Math.max(HUD_H + 10, Y(y) - k * 1.2), { size: 12, weight: 700, color: C.current });
  }
  // skills left, and what the colours mean
  const small = w < 400 ? 11 : 12;
  text(ctx, `skills left: ${port.SKILLS.map((s, i) => `${s} ${v.left[i]}`).join(' · ')}`, w / 2, h - FOOT_H + 12, { size: small, color: C.muted });
  const acts = [0, 1, 2, 3, 4, 5];
  const slot = Math.min(70, (w - 8) / acts.length);
  const lx0 = (w - slot * acts.length) / 2;
  for (const [i, act] of acts.entries()) {
    const x = lx0 + i * slot + 8;
    ctx.fillStyle = ACT_COLORS[act];
    ctx.beginPath();
    ctx.arc(x, h - 12, 4.5, 0, 2 * Math.PI);
    ctx.fill();
    text(ctx, ACT_NAMES[act], x + 8, h - 12, { size: small, color: C.muted, align: 'left' });
  }
}
