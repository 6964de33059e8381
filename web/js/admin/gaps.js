// gaps: a run's gaps between progress moves plotted move by move as SVG
// (built with createElementNS and text nodes only): the run's own line, a
// second, dashed, for the other run of a twin pair, and behind them the
// board's population from the admin audit (population.bands): the 25th to
// 75th percentile of the board's ranked runs' gap at each index as a band,
// their median as a thin line.
const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.append(document.createTextNode(String(text)));
  return n;
}

/** Gaps in ms between successive moves' t (the first from 0): for a run the server stored without progress gaps. */
export function gapsOf(moves) {
  let prev = 0;
  return (moves || []).filter((m) => typeof m.t === 'number').map((m) => { const g = m.t - prev; prev = m.t; return g; });
}

/** An <svg class="gaps"> of series [{gaps, label, other}] over bands [{p25, median, p75, runs}] (may be empty). */
export function plotGaps(series, title, bands = []) {
  const W = 400, H = 160, L = 40, B = 18, T = 8;
  const root = svg('svg', { class: 'gaps', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title });
  root.append(svg('title', {}, title));
  const lit = (bands || []).map((b, i) => ({ ...b, i })).filter((b) => b.runs > 0);
  const all = [...series.flatMap((s) => s.gaps || []), ...lit.map((b) => b.p75)];
  const n = Math.max(2, ...series.map((s) => (s.gaps || []).length));
  const top = Math.max(1, ...all);
  const x = (i) => L + (i * (W - L - 4)) / (n - 1);
  const y = (v) => T + (H - T - B) * (1 - Math.min(v, top) / top);
  root.append(svg('line', { x1: L, y1: H - B, x2: W - 4, y2: H - B, stroke: '#999' }));
  root.append(svg('line', { x1: L, y1: T, x2: L, y2: H - B, stroke: '#999' }));
  root.append(svg('text', { x: 2, y: T + 8 }, `${top} ms`));
  root.append(svg('text', { x: 2, y: H - B }, '0'));
  root.append(svg('text', { x: L, y: H - 4 }, 'move 1'));
  root.append(svg('text', { x: W - 60, y: H - 4 }, `move ${n}`));
  if (lit.length) {
    const upper = lit.map((b) => `${x(b.i).toFixed(1)},${y(b.p75).toFixed(1)}`);
    const lower = lit.slice().reverse().map((b) => `${x(b.i).toFixed(1)},${y(b.p25).toFixed(1)}`);
    root.append(svg('polygon', { class: 'band', points: [...upper, ...lower].join(' ') }));
    root.append(svg('polyline', { class: 'median', points: lit.map((b) => `${x(b.i).toFixed(1)},${y(b.median).toFixed(1)}`).join(' ') }));
  }
  for (const s of series) {
    if (!s.gaps || !s.gaps.length) continue;
    const pts = s.gaps.map((g, i) => `${x(i).toFixed(1)},${y(g).toFixed(1)}`).join(' ');
    root.append(svg('polyline', { points: pts, class: s.other ? 'other' : 'own', 'data-label': s.label }));
  }
  return root;
}
