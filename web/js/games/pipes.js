// games/pipes: the Pipes adapter (interface in common.js). A frame shows every
// tile as it is turned now: pipes that reach the source through openings met
// from both sides are water-blue, the others grey; an opening that meets no
// opening has a small light-red dot; the tile just turned is ringed.
import * as port from '../../port/games/pipes.mjs';
import { C, clear, fitGrid, hud, HUD_H, ring, rrect } from '../canvas.js';
import { cellName, portBasics, stepFrames, words } from './common.js';

export const { fields, supports, build, replay } = portBasics(port);

const DX = [0, 1, 0, -1]; // directions 0..3: up, right, down, left
const DY = [-1, 0, 1, 0];
const opp = (d) => (d + 2) & 3;
const LOOSE_R = 0.25; // a loose end's dot: its radius in pipe widths (half as wide as the pipe it sits on)

/** Which cells are reached from the source, and which openings meet a partner. */
function connection(lv, tiles) {
  const nb = lv.g.nb;
  const n = lv.g.n;
  const met = new Uint8Array(n); // bit d: the opening toward d meets its neighbour's
  for (let c = 0; c < n; c++) {
    for (let d = 0; d < 4; d++) {
      const x = nb[c * 4 + d];
      if ((tiles[c] & (1 << d)) && x >= 0 && (tiles[x] & (1 << opp(d)))) met[c] |= 1 << d;
    }
  }
  const reached = new Uint8Array(n);
  const stack = [lv.source];
  reached[lv.source] = 1;
  while (stack.length) {
    const c = stack.pop();
    for (let d = 0; d < 4; d++) {
      const x = nb[c * 4 + d];
      if ((met[c] & (1 << d)) && !reached[x]) {
        reached[x] = 1;
        stack.push(x);
      }
    }
  }
  return { met, reached, count: reached.reduce((a, b) => a + b, 0) };
}

export function timeline(lv, moves) {
  const tl = stepFrames(port, lv, moves, {
    time: (move) => move.t,
    view(st, move, code) {
      const tiles = Array.from(st.tiles);
      return { tiles, ...connection(lv, tiles), turns: st.turns, solved: st.completed, cell: move ? move.cell : -1, code };
    },
    caption(move, code) {
      const where = move.cell < lv.g.n ? cellName(move.cell, lv.width) : `cell ${move.cell}`;
      return code === 'rotated' ? `turned the tile at ${where} a quarter turn clockwise.` : `${where}: ${words(code)} (nothing changes).`;
    },
  });
  const last = tl.frames[tl.frames.length - 1];
  if (last.view.solved) last.caption += ' Every pipe connects: solved.';
  return { ...tl, aspect: lv.height / lv.width, chrome: HUD_H + 16 };
}

export function draw(ctx, w, h, lv, frame) {
  const v = frame.view;
  clear(ctx, w, h);
  hud(ctx, w, v.solved ? 'Solved' : `${v.count}/${lv.g.n} tiles reached`,
    `turns ${v.turns} (fewest ${lv.minTurns})${lv.wrap ? ' · edges wrap' : ''}`);
  const pad = 8;
  const g = fitGrid(pad, HUD_H + pad, w - 2 * pad, h - HUD_H - 2 * pad, lv.width, lv.height);
  const s = g.cell;
  if (lv.wrap) {
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = C.muted;
    ctx.lineWidth = 1;
    ctx.strokeRect(g.x0 - 3, g.y0 - 3, s * lv.width + 6, s * lv.height + 6);
    ctx.setLineDash([]);
  }
  const pipe = Math.max(3, Math.round(s * 0.2));
  for (let c = 0; c < lv.g.n; c++) {
    const x = g.x0 + (c % lv.width) * s;
    const y = g.y0 + Math.floor(c / lv.width) * s;
    const cx = x + s / 2;
    const cy = y + s / 2;
    ctx.fillStyle = v.reached[c] ? '#eaf3ff' : C.cell;
    rrect(ctx, x + 1, y + 1, s - 2, s - 2, 5);
    ctx.fill();
    ctx.strokeStyle = C.line;
    ctx.lineWidth = 1;
    ctx.stroke();
    const color = v.reached[c] ? C.water : '#8a949e';
    ctx.lineCap = 'butt';
    ctx.lineWidth = pipe;
    ctx.strokeStyle = color;
    const m = v.tiles[c];
    for (let d = 0; d < 4; d++) {
      if (!(m & (1 << d))) continue;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.lineTo(cx + DX[d] * (s / 2 - 1), cy + DY[d] * (s / 2 - 1));
      ctx.stroke();
      if (!(v.met[c] & (1 << d))) {
        // a loose end: a small, light red dot inside the opening (at the
        // start nearly every opening is loose: the dots must not be the
        // picture, the pipes are)
        ctx.fillStyle = C.loose;
        ctx.beginPath();
        ctx.arc(cx + DX[d] * (s / 2 - pipe), cy + DY[d] * (s / 2 - pipe), pipe * LOOSE_R, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    const ends = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1);
    if (c === lv.source) {
      ctx.fillStyle = C.water;
      ctx.beginPath();
      ctx.arc(cx, cy, s * 0.24, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      ctx.arc(cx, cy, s * 0.1, 0, 2 * Math.PI);
      ctx.fill();
    } else if (ends === 1) {
      // an end point: a small box
      ctx.fillStyle = color;
      ctx.fillRect(cx - s * 0.16, cy - s * 0.16, s * 0.32, s * 0.32);
    } else {
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(cx, cy, pipe / 2, 0, 2 * Math.PI);
      ctx.fill();
    }
    if (c === v.cell) ring(ctx, x, y, s, s, v.code === 'rotated' ? C.current : C.muted);
  }
}
