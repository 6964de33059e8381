// lib: what the hostile-traffic tests share. Every attack runs on loopback
// only (extra sources from 127.0.0.0/8, which Linux routes to lo), is
// bounded by count and by time, and stops by itself.
import net from 'node:net';
import http from 'node:http';
import { readFileSync } from 'node:fs';

export { startServer, call, register, seed, gen, sleep, BIN, ADMIN_TOKEN } from '../http/harness.mjs';

// HOSTILE_LONG=1 (make check) runs the full-size attacks of issue 12.
export const LONG = process.env.HOSTILE_LONG === '1';

// Resident set of a process, in bytes.
export function rssOf(pid) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) * 1024 : NaN;
}

// One request on a fresh connection (no keep-alive), like a client that
// connects, asks and leaves. Resolves { ok, status, ms, error }.
export function politeRequest(port, path, { timeoutMs = 5000, localAddress = '127.0.0.1' } = {}) {
  const t0 = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, localAddress,
      headers: { Connection: 'close' }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ok: res.statusCode === 200, status: res.statusCode,
        ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ ok: false, status: 0, error: e.code || e.message,
      ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
    req.end();
  });
}

export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}

// Slow clients: `count` connections spread over `sources` loopback
// addresses, each sending `payload` one byte every `byteEveryMs`, for
// `durationMs`; a connection the server ends is opened again. Stops by
// itself at durationMs, or at stop(), which returns the stats.
export function slowClients(port, { count, sources, payload, byteEveryMs = 1000, durationMs }) {
  const stats = { opened: 0, endedByServer: 0, refused: 0, open: 0 };
  const sockets = new Set();
  let stopping = false;
  const deadline = Date.now() + durationMs;
  function open(i) {
    if (stopping || Date.now() >= deadline) return;
    const localAddress = `127.0.0.${2 + (i % sources)}`;
    const s = net.connect({ host: '127.0.0.1', port, localAddress });
    stats.opened++;
    let sent = 0;
    let timer = null;
    sockets.add(s);
    s.on('connect', () => {
      stats.open++;
      timer = setInterval(() => {
        if (sent < payload.length) s.write(payload.subarray(sent, ++sent));
      }, byteEveryMs);
      s.write(payload.subarray(sent, ++sent));
    });
    s.on('data', () => {});
    s.on('error', (e) => { if (e.code === 'ECONNREFUSED') stats.refused++; });
    s.on('close', () => {
      clearInterval(timer);
      sockets.delete(s);
      if (s.connecting === false && sent > 0) stats.open--;
      if (!stopping) {
        stats.endedByServer++;
        setTimeout(() => open(i), 50); // come back, as an attacker would
      }
    });
  }
  const starts = [];
  for (let i = 0; i < count; i++) starts.push(setTimeout(() => open(i), Math.floor(i / 50) * 20));
  function stop() {
    stopping = true;
    clearTimeout(ender);
    for (const t of starts) clearTimeout(t);
    for (const s of sockets) s.destroy();
    return stats;
  }
  const ender = setTimeout(stop, durationMs);
  return { stats, stop };
}

// A raw exchange: writes `payload`, reads until the server closes or
// `ms` passes. Returns the bytes as latin1 text.
export function rawExchange(port, payload, ms = 3000) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let out = '';
    const t = setTimeout(() => s.destroy(), ms);
    s.on('data', (d) => { out += d.toString('latin1'); });
    s.on('error', () => {});
    s.on('close', () => { clearTimeout(t); resolve(out); });
    s.write(payload);
  });
}

// Splits one HTTP/1.1 response: status, headers, body; and what follows it.
export function parseResponse(text) {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = text.slice(0, end).split('\r\n');
  const m = lines[0].match(/^HTTP\/1\.[01] (\d{3}) /);
  if (!m) return null;
  const headers = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  const len = Number(headers['content-length']);
  const body = text.slice(end + 4, end + 4 + len);
  return { status: Number(m[1]), headers, body, rest: text.slice(end + 4 + len) };
}

// Writes `first`; once its whole answer has come, `second` on the same
// connection (a kept-alive client's next request, which libmicrohttpd
// reads itself: the gate sees a connection once). Reads until the server
// closes or `ms` passes: { text, closed }.
export function afterAnswer(port, first, second, ms = 3000) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '', sent = false, closed = false;
    const t = setTimeout(() => s.destroy(), ms);
    s.on('data', (d) => {
      text += d.toString('latin1');
      const one = parseResponse(text);
      if (!sent && one && one.body.length === Number(one.headers['content-length'])) {
        sent = true;
        s.write(second);
      }
    });
    s.on('error', () => {});
    s.on('end', () => { closed = true; });
    s.on('close', () => { clearTimeout(t); resolve({ text, closed }); });
    s.write(first);
  });
}
