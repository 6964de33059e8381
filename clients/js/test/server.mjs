// The real server for the package's tests: bin/replayd (or $REPLAYD) on a free
// loopback port with a fresh data dir, and a fault-injecting proxy in front of
// it for the retry tests.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;
export const BIN = process.env.REPLAYD || join(root, 'bin', 'replayd');

export async function startServer(args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'replayd-client-'));
  // review_hold_threshold=0: the tests' solvers play at fixed gaps, as the
  // default review hold is there to catch (tests/http/harness.mjs); and
  // parallel_overlap_ms=0: they play one player's runs at once; and
  // think_floor_permille=0: they send Contraption and Driftlings plans at
  // once, as the think floors are there to catch
  const child = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--data', dir, '--set', 'log_requests=false',
    '--set', 'review_hold_threshold=0', '--set', 'think_floor_permille=0', '--set', 'parallel_overlap_ms=0', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = stderr.match(/"event":"listening"[^\n]*"port":(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code}: ${stderr}`));
    });
  });
  child.removeAllListeners('exit');
  process.on('exit', () => child.kill('SIGKILL'));
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      const gone = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A proxy to `target` (port) that lets fault(req, n) decide for the n-th
 * request (from 0): null forwards it; { status, headers } answers that
 * instead; 'drop-after' forwards it and then cuts the connection before the
 * answer reaches the client (the server did the work).
 */
export async function startProxy(target, fault) {
  let n = 0;
  const seen = [];
  const srv = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const f = fault(req, n++);
      seen.push({ method: req.method, url: req.url, at: Date.now(), fault: f });
      if (f && f !== 'drop-after') {
        res.writeHead(f.status, { 'Content-Type': 'application/json', ...(f.headers || {}) });
        res.end(JSON.stringify({ error: { code: 'injected', message: 'injected by the test proxy' } }));
        return;
      }
      const up = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (r) => {
        const back = [];
        r.on('data', (c) => back.push(c));
        r.on('end', () => {
          if (f === 'drop-after') {
            req.socket.destroy();
            return;
          }
          res.writeHead(r.statusCode, r.headers);
          res.end(Buffer.concat(back));
        });
      });
      up.on('error', () => req.socket.destroy());
      up.end(body);
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${srv.address().port}`, seen, close: () => new Promise((r) => srv.close(r)) };
}
