// proxy_procs: a real HAProxy and a real nginx (Debian's haproxy and
// nginx-light) started on loopback from deploy/multinode's configurations
// with their ports rewritten, and plain one-connection requests through
// them. tests/hostile/proxies.test.mjs and tests/pg/rolling.test.mjs use it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { run } from '../http/proc.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const have = async (cmd) => (await run('sh', ['-c', `command -v ${cmd}`])).status === 0;
export const skipHaproxy = (await have('haproxy')) ? false : 'needs haproxy (apt install haproxy)';
export const skipNginx = (await have('nginx')) ? false : 'needs nginx (apt install nginx-light)';

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

export async function waitPort(port, ms = 10000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on ${port}`);
}

// One request on a fresh connection from localAddress, never retried;
// header values may be arrays (each element its own header line).
// Resolves { status, json, text }, or { status: 0, error } when no answer came.
export function req(port, method, path, { headers = {}, body, from = '127.0.0.1', timeoutMs = 5000 } = {}) {
  return new Promise((resolve) => {
    const h = { Connection: 'close', ...headers };
    let payload;
    if (body !== undefined) { payload = JSON.stringify(body); h['Content-Type'] = 'application/json'; h['Content-Length'] = Buffer.byteLength(payload); }
    const r = http.request({ host: '127.0.0.1', port, method, path, headers: h, localAddress: from, agent: false, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => { let json = null; try { json = JSON.parse(text); } catch { /* not JSON */ } resolve({ status: res.statusCode, json, text }); });
      res.on('error', (e) => resolve({ status: 0, error: e.code || e.message }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', (e) => resolve({ status: 0, error: e.code || e.message }));
    if (payload) r.write(payload);
    r.end();
  });
}

// Starts a proxy process; resolves once its port accepts. stop() ends it.
async function startProxy(cmd, args, port) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => { err += c; });
  process.on('exit', () => { try { child.kill('SIGKILL'); } catch { /* gone */ } });
  try { await waitPort(port); } catch (e) { child.kill('SIGKILL'); throw new Error(`${cmd}: ${e.message}: ${err}`); }
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { port, child, stderr: () => err, async stop() { child.kill('SIGTERM'); await exited; } };
}

// deploy's haproxy.cfg listening on a free port, its node lines as
// nodes(cfg) rewrites them; the file goes in work.
export async function startHaproxy(deploy, work, nodes) {
  const port = await freePort();
  const cfg = nodes(readFileSync(join(deploy, 'haproxy.cfg'), 'utf8').replace('bind 127.0.0.1:8080', `bind 127.0.0.1:${port}`));
  const file = join(work, `haproxy-${port}.cfg`);
  writeFileSync(file, cfg);
  return startProxy('haproxy', ['-f', file, '-db'], port);
}

// deploy's nginx.conf likewise, run unprivileged with its paths under work.
export async function startNginx(deploy, work, nodes) {
  const port = await freePort();
  const prefix = mkdtempSync(join(work, 'nginx-'));
  // started as root, nginx's workers run as nobody: they must reach the
  // body buffer files under prefix (a body over client_body_buffer_size)
  if (process.getuid?.() === 0) { chmodSync(work, 0o711); chmodSync(prefix, 0o755); }
  const cfg = nodes(readFileSync(join(deploy, 'nginx.conf'), 'utf8')
    .replace('listen 127.0.0.1:8080', `listen 127.0.0.1:${port}`)
    .replace('worker_processes auto;', 'worker_processes 1;')
    .replace('http {', `http {\n    client_body_temp_path ${prefix}/body;\n    proxy_temp_path ${prefix}/proxy;`));
  const file = join(prefix, 'nginx.conf');
  writeFileSync(file, cfg);
  return startProxy('nginx', ['-p', prefix, '-e', 'stderr', '-c', file, '-g', `daemon off; pid ${prefix}/nginx.pid;`], port);
}
