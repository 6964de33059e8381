// proc: the one way a test runs another program. Always asynchronous: a
// test's event loop keeps running while the child does, so fetch's timers
// retire the pooled sockets the server closed as idle and nothing a test
// started waits on a frozen process. (A synchronous spawn froze it: on a
// loaded machine long enough for the server to close kept-alive sockets
// under a request about to be sent, "fetch failed".) tests/sync_spawns.mjs
// fails make test when a test file calls a synchronous spawn.
import { spawn } from 'node:child_process';

// run(cmd, args, {input, timeout, ...spawn options}): resolves, never
// rejects, once the child has exited and its output is read, with
// {status, signal, stdout, stderr, error} as spawnSync gives them (status
// null and error set when it could not start; signal 'SIGKILL' when it ran
// past timeout ms). stdout and stderr are utf8 strings.
export function run(cmd, args = [], { input, timeout, ...opts } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', error;
    child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c; });
    const timer = timeout ? setTimeout(() => child.kill('SIGKILL'), timeout) : null;
    child.on('error', (e) => { error = e; });
    child.on('close', (status, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, error });
    });
    child.stdin.on('error', () => { /* a child that exits without reading its input */ });
    child.stdin.end(input ?? '');
  });
}

// runOk: run, resolving to its stdout, rejecting (with its stderr) when
// the child could not start or did not exit 0: execFileSync's contract.
export async function runOk(cmd, args = [], opts = {}) {
  const r = await run(cmd, args, opts);
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exited ${r.status}`;
    throw new Error(`${cmd} ${args.join(' ')}: ${why}${r.stderr ? `\n${r.stderr.trimEnd()}` : ''}`);
  }
  return r.stdout;
}

// pooled(fn): fn run when one of POOL slots is free. The solvers go
// through it: a flood of twenty players each solving a level starts two
// children at a time, not twenty on two cores.
const POOL = 2;
let active = 0;
const waiting = [];
export async function pooled(fn) {
  if (active < POOL) active++;
  else await new Promise((r) => waiting.push(r)); // handed the slot of the one that ends
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else active--;
  }
}
