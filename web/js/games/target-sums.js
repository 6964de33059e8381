// games/target-sums: the Target Sums adapter (interface in common.js). A
// frame shows the grid with kept and removed cells, each row's and column's
// sum against its target (green when it matches), and the toggled cell.
import * as port from '../../port/games/target-sums.mjs';
import { C, clear, fitGrid, hud, HUD_H, ring, rrect, text } from '../canvas.js';
import { cellName, portBasics, stepFrames, words } from './common.js';

export const { fields, supports, build, replay } = portBasics(port);

export function timeline(lv, moves) {
  const tl = stepFrames(port, lv, moves, {
    time: (move) => move.t,
    // a toggle of a cell the solution keeps, or a second thought, costs points
    slip: (code, move) => code === 'restored' || (code === 'removed' && lv.solution[move.cell] === 1),
    view: (st, move, code) => ({
      kept: Array.from(st.kept), rowSum: st.rowSum.slice(), colSum: st.colSum.slice(),
      toggles: st.toggles, solved: st.completed, cell: move ? move.cell : -1, code,
    }),
    caption(move, code) {
      if (move.cell >= lv.n) return `cell ${move.cell}: ${words(code)}.`;
      const what = `the ${lv.value[move.cell]} at ${cellName(move.cell, lv.cols)}`;
      if (code === 'removed') return `removed ${what}.`;
      if (code === 'restored') return `put back ${what}.`;
      return `${what}: ${words(code)} (nothing changes).`;
    },
  });
  const last = tl.frames[tl.frames.length - 1];
  if (last.view.solved) last.caption += ' Every row and column meets its target: solved.';
  return { ...tl, aspect: (lv.rows + 1) / (lv.cols + 1), chrome: HUD_H + 16 };
}

export function draw(ctx, w, h, lv, frame) {
  const v = frame.view;
  clear(ctx, w, h);
  let met = 0;
  for (let r = 0; r < lv.rows; r++) if (v.rowSum[r] === lv.rowTarget[r]) met++;
  for (let c = 0; c < lv.cols; c++) if (v.colSum[c] === lv.colTarget[c]) met++;
  hud(ctx, w, v.solved ? 'Solved' : `${met}/${lv.rows + lv.cols} sums on target`,
    `toggles ${v.toggles} (fewest ${lv.minToggles})`);
  const pad = 8;
  const g = fitGrid(pad, HUD_H + pad, w - 2 * pad, h - HUD_H - 2 * pad, lv.cols + 1, lv.rows + 1);
  const s = g.cell;
  const gap = Math.max(2, Math.round(s * 0.07));
  const size = Math.max(9, Math.floor(s * 0.4));
  for (let i = 0; i < lv.n; i++) {
    const x = g.x0 + (i % lv.cols) * s + gap / 2;
    const y = g.y0 + Math.floor(i / lv.cols) * s + gap / 2;
    const b = s - gap;
    const kept = v.kept[i] === 1;
    ctx.fillStyle = kept ? C.cell : C.dim;
    rrect(ctx, x, y, b, b, 6);
    ctx.fill();
    ctx.strokeStyle = C.line;
    ctx.lineWidth = 1;
    ctx.stroke();
    text(ctx, String(lv.value[i]), x + b / 2, y + b / 2, { size, weight: kept ? 600 : 400, color: kept ? C.ink : C.muted });
    if (!kept) {
      // removed: struck through
      ctx.strokeStyle = C.bad;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x + b * 0.2, y + b * 0.8);
      ctx.lineTo(x + b * 0.8, y + b * 0.2);
      ctx.stroke();
    }
    if (i === v.cell) ring(ctx, x, y, b, b, v.code === 'removed' || v.code === 'restored' ? C.current : C.muted);
  }
  const small = Math.max(8, Math.floor(s * 0.2));
  const target = (x, y, sum, goal) => {
    const ok = sum === goal;
    ctx.fillStyle = ok ? C.goodFill : C.warnFill;
    rrect(ctx, x + gap / 2, y + gap / 2, s - gap, s - gap, 6);
    ctx.fill();
    text(ctx, String(goal), x + s / 2, y + s * 0.4, { size: Math.max(9, Math.floor(s * 0.34)), weight: 700, color: ok ? C.good : C.ink });
    text(ctx, ok ? '✓' : `now ${sum}`, x + s / 2, y + s * 0.74, { size: small, weight: 600, color: ok ? C.good : C.warn });
  };
  for (let r = 0; r < lv.rows; r++) target(g.x0 + lv.cols * s, g.y0 + r * s, v.rowSum[r], lv.rowTarget[r]);
  for (let c = 0; c < lv.cols; c++) target(g.x0 + c * s, g.y0 + lv.rows * s, v.colSum[c], lv.colTarget[c]);
}
