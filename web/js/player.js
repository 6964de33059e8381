// player: plays a timeline (games/common.js) on the viewer's canvas: play,
// pause, step, scrub, speed, the strip of move times against the run's clock,
// and the keyboard (Space plays or pauses, arrows step, Home and End jump).
// The viewer element's data-state says "paused", "playing" or "ended".
import { C, kindColor } from './canvas.js';

const MAX_CANVAS_H = 0.72; // of the window's height

export class Player {
  /**
   * ui: {root, stage, canvas, marks, scrub, play, back, fwd, start, speed, clock, caption, final, finalScore}
   * paint(ctx, w, h, frame) draws one frame.
   */
  constructor(ui, timeline, paint) {
    this.ui = ui;
    this.frames = timeline.frames;
    this.result = timeline.result;
    this.aspect = timeline.aspect; // height per width of the drawing, plus
    this.chrome = timeline.chrome; // fixed pixels (heads-up strip, margins)
    this.paint = paint;
    this.index = 0;
    this.pos = 0;
    this.playing = false;
    this.raf = 0;
    this.last = 0;
    this.size = { w: 0, h: 0 };
    this.end = this.frames[this.frames.length - 1].t;
    ui.scrub.max = String(this.frames.length - 1);
    ui.play.addEventListener('click', () => this.toggle());
    ui.back.addEventListener('click', () => this.step(-1));
    ui.fwd.addEventListener('click', () => this.step(1));
    ui.start.addEventListener('click', () => this.seek(0));
    ui.scrub.addEventListener('input', () => {
      this.pause();
      this.seek(Number(ui.scrub.value));
    });
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    new ResizeObserver(() => this.resize()).observe(ui.stage);
    this.resize();
  }

  get speed() {
    return Number(this.ui.speed.value) || 1;
  }

  seek(i) {
    this.index = Math.max(0, Math.min(this.frames.length - 1, i));
    this.pos = this.frames[this.index].t;
    if (this.index === this.frames.length - 1) this.pause();
    this.render();
  }

  step(d) {
    this.pause();
    this.seek(this.index + d);
  }

  play() {
    if (this.playing) return;
    if (this.index >= this.frames.length - 1) this.seek(0);
    this.playing = true;
    this.last = performance.now();
    this.raf = requestAnimationFrame((now) => this.tick(now));
    this.renderControls();
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.raf);
    this.renderControls();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  tick(now) {
    if (!this.playing) return;
    this.pos += (now - this.last) * this.speed;
    this.last = now;
    let i = this.index;
    while (i + 1 < this.frames.length && this.frames[i + 1].t <= this.pos) i++;
    if (i !== this.index) {
      this.index = i;
      this.render();
    }
    if (this.index >= this.frames.length - 1) {
      this.pause();
      this.render();
      return;
    }
    this.raf = requestAnimationFrame((n) => this.tick(n));
  }

  onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    // a viewer taken off the page, or in a hidden view, hears no keys
    // (the operator's console opens one viewer after another)
    if (!this.ui.root.isConnected || this.ui.root.closest('[hidden]')) return;
    const t = ev.target;
    const tag = t && t.tagName;
    if (tag === 'SELECT' || tag === 'TEXTAREA' || (tag === 'INPUT' && t.type !== 'range')) return;
    const onScrub = t === this.ui.scrub;
    if (ev.key === ' ' || ev.key === 'k') {
      this.toggle();
    } else if (onScrub && ev.key.startsWith('Arrow')) {
      return; // the slider steps by itself
    } else if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') {
      this.step(ev.shiftKey ? 10 : 1);
    } else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') {
      this.step(ev.shiftKey ? -10 : -1);
    } else if (ev.key === 'Home') {
      this.pause();
      this.seek(0);
    } else if (ev.key === 'End') {
      this.pause();
      this.seek(this.frames.length - 1);
    } else {
      return;
    }
    ev.preventDefault(); // no page scroll, no second press of a focused button
  }

  resize() {
    const avail = this.ui.stage.clientWidth;
    if (!avail) return;
    let w = avail;
    let h = w * this.aspect + this.chrome;
    const maxH = Math.max(240, window.innerHeight * MAX_CANVAS_H);
    if (h > maxH) {
      h = maxH;
      w = (h - this.chrome) / this.aspect;
    }
    w = Math.floor(w);
    h = Math.floor(h);
    const dpr = Math.min(3, window.devicePixelRatio || 1);
    const c = this.ui.canvas;
    c.style.width = `${w}px`;
    c.style.height = `${h}px`;
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    this.size = { w, h, dpr };
    const m = this.ui.marks;
    m.width = Math.round(m.clientWidth * dpr);
    m.height = Math.round(m.clientHeight * dpr);
    this.render();
  }

  render() {
    const f = this.frames[this.index];
    const { w, h, dpr } = this.size;
    if (w) {
      const ctx = this.ui.canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.paint(ctx, w, h, f);
      this.renderMarks();
    }
    const ui = this.ui;
    ui.scrub.value = String(this.index);
    ui.scrub.setAttribute('aria-valuetext', `${f.clock} of ${this.frames[this.frames.length - 1].clock}`);
    ui.clock.textContent = `${f.clock} / ${this.frames[this.frames.length - 1].clock}`;
    ui.caption.textContent = f.caption;
    ui.canvas.setAttribute('aria-label', f.caption);
    const atEnd = this.index === this.frames.length - 1;
    ui.final.hidden = !(atEnd && this.result);
    if (atEnd && this.result) {
      ui.finalScore.textContent = new Intl.NumberFormat('en-US').format(this.result.score);
      ui.finalNote.textContent = this.result.completed ? '(completed)' : '(not completed)';
    }
    this.renderControls();
  }

  renderControls() {
    const ui = this.ui;
    const atEnd = this.index === this.frames.length - 1;
    ui.play.textContent = this.playing ? 'Pause' : atEnd ? 'Replay' : 'Play';
    ui.back.disabled = this.index === 0;
    ui.fwd.disabled = atEnd;
    ui.root.dataset.state = this.playing ? 'playing' : atEnd ? 'ended' : 'paused';
    // A screen reader hears the step it stopped on, not every frame going by.
    ui.caption.setAttribute('aria-live', this.playing ? 'off' : 'polite');
  }

  // The run's clock as a strip: a tick per move (coloured by outcome: a
  // slip that cost points is orange, and only a slip is) and the playhead.
  renderMarks() {
    const m = this.ui.marks;
    const ctx = m.getContext('2d');
    const dpr = this.size.dpr;
    const W = m.width / dpr;
    const H = m.height / dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.fillStyle = 'rgba(128, 140, 150, 0.35)';
    ctx.fillRect(0, H / 2 - 1, W, 2);
    const x = (t) => (this.end > 0 ? 4 + (t / this.end) * (W - 8) : 4);
    for (const f of this.frames) {
      if (f.move < 0) continue;
      ctx.fillStyle = f.slip ? C.slip : kindColor(f.kind);
      ctx.fillRect(x(f.t) - 1, 3, 2, H - 6);
    }
    ctx.fillStyle = C.playhead;
    const px = x(this.frames[this.index].t);
    ctx.beginPath();
    ctx.moveTo(px - 5, 0);
    ctx.lineTo(px + 5, 0);
    ctx.lineTo(px, 7);
    ctx.closePath();
    ctx.fill();
    ctx.fillRect(px - 1, 0, 2, H);
  }
}
