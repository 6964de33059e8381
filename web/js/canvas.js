// canvas: drawing helpers the game adapters share: one palette (the board
// stays light in a dark page, like a printed puzzle), the heads-up strip,
// text, rounded boxes and grid layout. Sizes are CSS pixels.

export const C = {
  paper: '#fbfaf7',
  ink: '#1b222a',
  muted: '#6b7580',
  line: '#cdd3da',
  cell: '#ffffff',
  dim: '#e4e7ea',
  good: '#1d7a3a',
  goodFill: '#d5efdc',
  bad: '#c0392b',
  badFill: '#f7d9d4',
  warn: '#b7791f',
  warnFill: '#fbecc9',
  accent: '#1f5fbf',
  water: '#2b7de9',
  // the move on show (a tapped or turned cell, the walker given a skill):
  // ink, so that it is never read as the orange of a slip
  current: '#1b222a',
  slip: '#d4560b', // a move that cost points (the strip under the canvas)
  playhead: '#1b222a',
  loose: 'rgba(192, 57, 43, 0.6)', // Pipes: an opening that meets nothing
};

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';
export const HUD_H = 30;

/** Clears to paper. */
export function clear(ctx, w, h) {
  ctx.fillStyle = C.paper;
  ctx.fillRect(0, 0, w, h);
}

export function text(ctx, s, x, y, { size = 14, weight = 400, color = C.ink, align = 'center', base = 'middle' } = {}) {
  ctx.font = `${weight} ${size}px ${FONT}`;
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.textBaseline = base;
  ctx.fillText(s, x, y);
}

/** The heads-up strip across the top: `left` and `right` texts. */
export function hud(ctx, w, left, right = '') {
  ctx.fillStyle = C.dim;
  ctx.fillRect(0, 0, w, HUD_H);
  const size = w < 360 ? 12 : 13;
  text(ctx, left, 8, HUD_H / 2, { size, weight: 600, align: 'left' });
  if (right) text(ctx, right, w - 8, HUD_H / 2, { size, color: C.muted, align: 'right' });
}

/** A rounded-rectangle path (fill or stroke it after). */
export function rrect(ctx, x, y, w, h, r) {
  const k = Math.max(0, Math.min(r, w / 2, h / 2));
  ctx.beginPath();
  ctx.moveTo(x + k, y);
  ctx.arcTo(x + w, y, x + w, y + h, k);
  ctx.arcTo(x + w, y + h, x, y + h, k);
  ctx.arcTo(x, y + h, x, y, k);
  ctx.arcTo(x, y, x + w, y, k);
  ctx.closePath();
}

/** The largest square cells for cols x rows in the box (x, y, w, h), centred. */
export function fitGrid(x, y, w, h, cols, rows) {
  const cell = Math.max(4, Math.floor(Math.min(w / cols, h / rows)));
  return { cell, x0: x + Math.floor((w - cell * cols) / 2), y0: y + Math.floor((h - cell * rows) / 2) };
}

/** A ring around a box, to show the cell a move touched. */
export function ring(ctx, x, y, w, h, color) {
  ctx.lineWidth = 3;
  ctx.strokeStyle = color;
  rrect(ctx, x + 1.5, y + 1.5, w - 3, h - 3, 6);
  ctx.stroke();
}

/** The colour of an outcome by its kind: applied, ignored or rejected. */
export function kindColor(kind) {
  if (kind === 'rejected') return C.bad;
  if (kind === 'ignored') return C.muted;
  return C.accent;
}
