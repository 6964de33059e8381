#!/usr/bin/env python3
"""submission_trace: which server/ files one verified submission runs.

Usage (from the repository root, after `make MODE=trace build/cc-trace/replayd`,
or just `make trace-submission`):

    tools/submission_trace/run.py [--binary build/cc-trace/replayd]
        [--pg] [--game schulte --level 1] [--no-warmup] [--keep DIR]
        [--set key=value ...]

It starts the trace build of `replayd serve` on a fresh temporary data dir
on 127.0.0.1 (SQLite; with --pg, a throwaway PostgreSQL from
tests/pg/pg_start.sh), registers a player (POST /v1/players), draws a level
token (POST /v1/seeds), solves the level with the tests' solvers
(tests/http/solvers.mjs) and waits out the run's claimed time, all
untraced. By default it first plays one whole untraced submission for
another player (a warm-up: the level cache, prepared statements and the
writer are then in their steady state). The server runs with the four
settings tests/http/harness.mjs sets (review hold, record review, think
floors and parallel play off), so the solver's run is answered "ranked";
--server-defaults keeps the defaults (the run is then "held", pace). Then it sends SIGUSR1 (tracing on),
sends ONE submission (POST /v1/scores), waits for its 200 answer and
--settle-ms more (the connection's completion callbacks), sends SIGUSR2
(tracing off, the buffer written to $REPLAYD_TRACE_OUT) and stops the
server.

The trace (tools/submission_trace/tracer.c) holds, per thread and in that
thread's order, every entry and exit of an instrumented function (all of
server/, nothing else) with the function's address and its call site (the
return address in the caller). addr2line maps both to source files.

THE FIGURES, as computed here, every run the same way:

(a) FILES RUN: the distinct files under server/ (.c and .h: an inline
    function of a server/ header counts for that header) holding code that
    ran in the window, on any thread: every function entered, and every
    function a traced call was made from or returned into (the writer
    thread's loop, say, was entered before tracing began, but its code runs
    the commit). Listed in the order first seen (the buffer's order, which
    is the order of the records across threads up to a few instructions).

(b) CALLS BACK INTO A FILE ALREADY LEFT: per thread, walk that thread's
    function entries in order. For each entry, the CALLER FILE is the file
    of its call site (a file outside server/, e.g. libmicrohttpd,
    libsqlite3, libpq, libc or core/, counts as "outside"), the CALLEE FILE
    the file of the function entered. The thread's PATH so far is the set
    of server/ files that have been active on that thread since tracing
    began: callee files of earlier entries, caller files of earlier
    entries, and the files returned into by earlier exits. The entry is a
    CALL BACK when callee file != caller file and the callee file is
    already on the path. (Since the caller's file is the active one, the
    callee's file was left at some point after it was last active: by a
    call into another file or by a return out of it.) Calls within one file
    never count; the first entry into a file never counts.
    Also printed, as "of which re-entrant": the call backs whose callee
    file is still on that thread's call stack (a cycle A -> B -> A on the
    stack, rather than a file returned from and called again).

Counted over every thread that ran server/ code in the window (the
listener gate's thread, the libmicrohttpd thread of the connection, the
connection guard's reaper, the store's writer), except the process's main
thread: it only waits for signals (SIGHUP, SIGTERM) and reaps daemons
retired by a reload, on a 200 ms tick that has nothing to do with the
request (server/http/serving.c). The per-thread table shows the threads.
"""
import argparse
import collections
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
REC = struct.Struct('<IIQQ')  # struct trace_rec: tid, kind, fn, site
ENTER, EXIT = 1, 2
# As tests/http/harness.mjs starts its servers: the solvers' runs are evenly
# paced and would be held for review under the defaults (--server-defaults).
HARNESS_SETTINGS = ['review_hold_threshold=0', 'review_top=0', 'think_floor_permille=0', 'parallel_overlap_ms=0']


def http(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header('Content-Type', 'application/json')
    if token:
        req.add_header('Authorization', 'Bearer ' + token)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b'null')
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b'null')


def solve(binary, game, level, seed, version):
    js = ("import('./tests/http/solvers.mjs').then((m) => "
          "console.log(JSON.stringify(m.solve(%s, %d, %d, %d))))" % (json.dumps(game), level, seed, version))
    out = subprocess.run(['node', '--input-type=module', '-e', js], cwd=ROOT, check=True,
                         capture_output=True, text=True, env={**os.environ, 'REPLAYD': binary})
    return json.loads(out.stdout)


def claimed_ms(moves):
    return max((m.get('t', 0) for m in moves), default=0)


def play(base, binary, game, level, name):
    """Registration, a token and a solved run (untraced). Returns (token, body)."""
    st, p = http(base, 'POST', '/v1/players', {'name': name})
    assert st == 201, (st, p)
    st, s = http(base, 'POST', '/v1/seeds', {'game': game, 'level': level}, p['token'])
    assert st == 201, (st, s)
    moves = solve(binary, game, level, s['seed'], s['version'])
    # the run may claim no more time than has passed since the token's issue
    ready = time.time() + claimed_ms(moves) / 1000 + 0.3
    while time.time() < ready:
        time.sleep(0.05)
    return p['token'], {'seed_token': s['seed_token'], 'moves': moves}


def start_server(binary, data, trace_out, extra):
    env = {**os.environ, 'REPLAYD_TRACE_OUT': trace_out}
    err = open(os.path.join(data, 'stderr.log'), 'wb')
    args = [binary, 'serve', '--listen', '127.0.0.1:0', '--data', data] + extra
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        text = open(os.path.join(data, 'stderr.log'), errors='replace').read()
        m = re.search(r'"event":"listening"[^\n]*"port":(\d+)', text)
        if m:
            return proc, 'http://127.0.0.1:%s' % m.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    sys.exit('server did not start:\n' + open(os.path.join(data, 'stderr.log'), errors='replace').read())


# ------------------------------------------------------------ the analysis

def read_trace(path):
    raw = open(path, 'rb').read()
    return [REC.unpack_from(raw, i) for i in range(0, len(raw) - len(raw) % REC.size, REC.size)]


def locate(binary, addrs):
    """address -> (function, file relative to the root or None)."""
    addrs = sorted(addrs)
    out = subprocess.run(['addr2line', '-f', '-e', binary], input='\n'.join('%x' % a for a in addrs),
                         capture_output=True, text=True, check=True).stdout.splitlines()
    res = {}
    for i, a in enumerate(addrs):
        fn, loc = out[2 * i], out[2 * i + 1]
        path = loc.rsplit(':', 1)[0]
        if path.startswith('??'):
            path = None
        else:
            path = os.path.relpath(os.path.normpath(os.path.join(ROOT, path)), ROOT)
        res[a] = (fn, path)
    return res


def server_file(path):
    return path if path and path.startswith('server/') else None


def analyse(binary, recs, out, main_tid=None):
    fns = {r[2] for r in recs}
    # a call site is a return address: the call instruction is just before it
    sites = {r[3] - 1 for r in recs if r[3]}
    where = locate(binary, fns | sites)

    def ffile(fn):
        return server_file(where[fn][1])

    def sfile(site):
        return server_file(where[site - 1][1]) if site else None

    by_thread = collections.OrderedDict()
    left_out = collections.Counter()
    for r in recs:
        if r[0] == main_tid:
            left_out[r[2]] += r[1] == ENTER
            continue
        by_thread.setdefault(r[0], []).append(r)

    first_seen = collections.OrderedDict()  # file -> order
    funcs_per_file = collections.defaultdict(set)
    pairs = collections.Counter()
    reentrant_pairs = collections.Counter()
    threads = []

    def saw(f):
        if f and f not in first_seen:
            first_seen[f] = len(first_seen)

    for tid, rs in by_thread.items():
        path = set()
        stack = []  # (fn, callee file)
        enters = backs = reent = 0
        tfiles = set()
        first_fn = None
        for _, kind, fn, site in rs:
            caller = sfile(site)
            if caller:
                saw(caller)
                tfiles.add(caller)
                path.add(caller)
            if kind == ENTER:
                callee = ffile(fn)
                enters += 1
                if first_fn is None:
                    first_fn = where[fn][0]
                saw(callee)
                if callee:
                    tfiles.add(callee)
                    funcs_per_file[callee].add(where[fn][0])
                    if callee != caller and callee in path:
                        backs += 1
                        pairs[(caller or 'outside', callee)] += 1
                        if any(f == callee for _, f in stack):
                            reent += 1
                            reentrant_pairs[(caller or 'outside', callee)] += 1
                    path.add(callee)
                stack.append((fn, callee))
            else:
                # an exit of a function entered before tracing began has no
                # frame here; its call site (the file returned into) counts
                if stack and stack[-1][0] == fn:
                    stack.pop()
        threads.append((tid, enters, len(tfiles), backs, reent, first_fn, tfiles))

    total = sum(pairs.values())
    p = lambda *a: print(*a, file=out)
    if left_out:
        p('left out: the main thread (%d; its 200 ms signal tick): %s'
          % (main_tid, ', '.join('%s %s x%d' % (where[f][1], where[f][0], n) for f, n in left_out.items())))
    p('threads that ran server/ code (tid, function entries, files, calls back, re-entrant, first function entered):')
    for t in threads:
        p('  %-8d %7d %4d %5d %4d  %s' % t[:6])
        if len(t[6]) <= 3:
            p('           files: %s' % ', '.join(sorted(t[6])))
    p()
    p('(a) files under server/ whose code ran, in the order first seen (functions entered):')
    for f in first_seen:
        p('  %3d  %-36s %d' % (first_seen[f] + 1, f, len(funcs_per_file[f])))
    nc = sum(1 for f in first_seen if f.endswith('.c'))
    p('(a) FILES: %d (%d .c, %d .h)' % (len(first_seen), nc, len(first_seen) - nc))
    p()
    p('(b) calls back into a file already left, per (caller file -> callee file), most first:')
    for (a, b), n in pairs.most_common():
        r = reentrant_pairs.get((a, b), 0)
        p('  %5d  %-34s -> %s%s' % (n, a, b, '   (%d re-entrant)' % r if r else ''))
    p('(b) CALLS BACK: %d (of which re-entrant, into a file still on the stack: %d)'
      % (total, sum(reentrant_pairs.values())))
    p('    from outside server/ (a library calling back, e.g. libmicrohttpd): %d'
      % sum(n for (a, _), n in pairs.items() if a == 'outside'))
    p('    per callee file:')
    per_callee = collections.Counter()
    for (_, b), n in pairs.items():
        per_callee[b] += n
    for b, n in per_callee.most_common():
        p('  %5d  %s' % (n, b))
    return len(first_seen), total


# ------------------------------------------------------------------ driver

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--binary', default=os.path.join(ROOT, 'build', 'cc-trace', 'replayd'))
    ap.add_argument('--pg', action='store_true', help='the PostgreSQL backend (tests/pg/pg_start.sh)')
    ap.add_argument('--game', default='schulte')
    ap.add_argument('--level', type=int, default=1)
    ap.add_argument('--no-warmup', action='store_true', help='trace the server\'s first submission')
    ap.add_argument('--settle-ms', type=int, default=300, help='tracing stays on this long after the answer')
    ap.add_argument('--keep', help='copy the raw trace and the report into this directory')
    ap.add_argument('--set', action='append', default=[], metavar='KEY=VALUE', help='a server setting')
    ap.add_argument('--server-defaults', action='store_true',
                    help='keep the review hold, record review, think floors and parallel play on (the '
                         'solver\'s evenly paced run is then held, held_reason "pace")')
    ap.add_argument('--analyse', metavar='TRACE', help='only analyse an existing trace file')
    ap.add_argument('--main-tid', type=int, help='with --analyse: the server\'s pid (its main thread is left out)')
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    if not args.server_defaults:
        args.set = HARNESS_SETTINGS + args.set
    if args.analyse:
        analyse(binary, read_trace(args.analyse), sys.stdout, args.main_tid)
        return
    if not os.path.exists(binary):
        sys.exit('%s missing: make MODE=trace build/cc-trace/replayd' % binary)

    tmp = tempfile.mkdtemp(prefix='replayd-trace-')
    data = os.path.join(tmp, 'data')
    os.mkdir(data)
    trace_out = os.path.join(tmp, 'trace.bin')
    pgdir = None
    proc = None
    try:
        extra = []
        for kv in args.set:
            extra += ['--set', kv]
        if args.pg:
            pgdir = os.path.join(tmp, 'pg')
            url = subprocess.run([os.path.join(ROOT, 'tests', 'pg', 'pg_start.sh'), pgdir], check=True,
                                 capture_output=True, text=True).stdout.strip()
            subprocess.run(['psql', url + '/postgres', '-qc', 'CREATE DATABASE trace'], check=True,
                           stdout=subprocess.DEVNULL)
            extra += ['--set', 'database=%s/trace' % url]
        proc, base = start_server(binary, data, trace_out, extra)
        if not args.no_warmup:
            tok, body = play(base, binary, args.game, args.level, 'warmup')
            st, ans = http(base, 'POST', '/v1/scores', body, tok)
            assert st == 200, ('warm-up', st, ans)
        tok, body = play(base, binary, args.game, args.level, 'traced')
        proc.send_signal(signal.SIGUSR1)
        time.sleep(0.2)  # the handler has run long before this
        st, ans = http(base, 'POST', '/v1/scores', body, tok)
        time.sleep(args.settle_ms / 1000)
        proc.send_signal(signal.SIGUSR2)
        deadline = time.time() + 30
        while not os.path.exists(trace_out) and time.time() < deadline:
            time.sleep(0.05)
        if st != 200 or not ans.get('verified'):
            sys.exit('the traced submission was answered %d: %s' % (st, ans))
        if not os.path.exists(trace_out):
            sys.exit('no trace written')
        recs = read_trace(trace_out)
        print('backend: %s; %s level %d; warm-up: %s; settings: %s; answer 200 status=%s%s score=%s; '
              '%d trace records'
              % ('postgresql' if args.pg else 'sqlite', args.game, args.level,
                 'no' if args.no_warmup else 'yes', ' '.join(args.set) or 'defaults', ans.get('status'),
                 ' (held_reason=%s)' % ans['held_reason'] if 'held_reason' in ans else '',
                 ans.get('score'), len(recs)))
        print()
        analyse(binary, recs, sys.stdout, proc.pid)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copy(trace_out, args.keep)
    finally:
        if proc and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if pgdir:
            subprocess.run([os.path.join(ROOT, 'tests', 'pg', 'pg_stop.sh'), pgdir])
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
