// games/schulte: the Schulte adapter (interface in common.js). A frame shows
// the grid with the numbers still to find, the found cells (with the number
// each one held), and the tapped cell ringed by its outcome.
import * as port from '../../port/games/schulte.mjs';
import { C, clear, fitGrid, hud, HUD_H, ring, rrect, text } from '../canvas.js';
import { cellName, portBasics, stepFrames, words } from './common.js';

export const { fields, supports, build, replay } = portBasics(port);

export function timeline(lv, moves) {
  const foundNumber = new Array(lv.n).fill(0); // cell -> the number found there
  const tl = stepFrames(port, lv, moves, {
    before: (st, move) => (Number.isInteger(move.cell) && move.cell < lv.n ? st.grid[move.cell] : 0),
    time: (move) => move.t,
    slip: (code) => code === 'mistake',
    view(st, move, code, number) {
      if (code === 'found') foundNumber[move.cell] = number;
      return {
        grid: st.grid.slice(), found: foundNumber.slice(), next: st.found === lv.n ? 0 : st.expected,
        foundCount: st.found, mistakes: st.mistakes, cell: move ? move.cell : -1, code,
      };
    },
    caption(move, code) {
      const where = move.cell < lv.n ? cellName(move.cell, lv.side) : `cell ${move.cell}`;
      if (code === 'found') return `tapped ${where}: found.`;
      if (code === 'mistake') return `tapped ${where}: a mistake.`;
      return `tapped ${where}: ${words(code)} (nothing changes).`;
    },
  });
  return { ...tl, aspect: 1, chrome: HUD_H + 16 };
}

export function draw(ctx, w, h, lv, frame) {
  const v = frame.view;
  clear(ctx, w, h);
  const order = lv.order === 'up' ? `1 → ${lv.n}` : `${lv.n} → 1`;
  hud(ctx, w, v.next ? `Find ${v.next}` : (v.foundCount === lv.n ? 'All found' : 'Run over'),
    `found ${v.foundCount}/${lv.n} · mistakes ${v.mistakes}/${port.MISTAKE_LIMIT} · ${order}${lv.reshuffle ? ' · reshuffles' : ''}`);
  const pad = 8;
  const g = fitGrid(pad, HUD_H + pad, w - 2 * pad, h - HUD_H - 2 * pad, lv.side, lv.side);
  const gap = Math.max(2, Math.round(g.cell * 0.06));
  for (let i = 0; i < lv.n; i++) {
    const x = g.x0 + (i % lv.side) * g.cell + gap / 2;
    const y = g.y0 + Math.floor(i / lv.side) * g.cell + gap / 2;
    const s = g.cell - gap;
    const found = v.grid[i] === 0;
    ctx.fillStyle = found ? C.goodFill : C.cell;
    rrect(ctx, x, y, s, s, 6);
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = C.line;
    ctx.stroke();
    const size = Math.max(9, Math.floor(s * 0.42));
    if (found) {
      text(ctx, String(v.found[i]), x + s / 2, y + s / 2, { size, color: C.good, weight: 400 });
      text(ctx, '✓', x + s - size * 0.45, y + size * 0.5, { size: Math.max(8, size * 0.5), color: C.good, weight: 700 });
    } else {
      text(ctx, String(v.grid[i]), x + s / 2, y + s / 2, { size, weight: v.grid[i] === v.next ? 700 : 500 });
    }
    if (i === v.cell) ring(ctx, x, y, s, s, v.code === 'found' ? C.good : v.code === 'mistake' ? C.bad : C.muted);
  }
}
