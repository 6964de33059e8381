#!/usr/bin/env python3
"""Mutation score of the vector suite (`make mutate`; not part of make test).

For each game, applies one small mutation at a time to the game's C source
(games/<game>/*.c and *.h) in a scratch copy of the tree (the real tree is
never touched), rebuilds only what the mutation touches, runs only that
game's vectors (build/.../tests/test_vectors VECTORS <game>) under a timeout,
and counts the mutant killed when a case fails, the runner crashes or it
times out. A mutant that does not compile is not viable and not counted.

Mutations (docs/MUTATION.md says why these and what is left out):
  CMP    flip a comparison: < <=, <= <, > >=, >= >, == !=, != ==
  LOGIC  && ||, || &&
  CONST  an integer literal plus one, minus one
  BRANCH swap an if's branches: if (c) -> if (!(c))
  DROP   drop a one-line statement (replaced by an empty one)

Survivors are matched against docs/MUTATION.md (its "- `KIND change` in
`line`" entries under a "### file" heading): a survivor listed there is
explained. The report goes to build/mutate/report.md; the exit status is 1
when a game scores below 95% or a survivor is unexplained.

  tools/mutate.py [--games schulte,pipes] [--vectors DIR] [--jobs 2]
                  [--max-per-game N] [--report FILE]
"""
import argparse
import concurrent.futures
import hashlib
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time

GAMES = ["schulte", "pipes", "target-sums", "opposites", "contraption", "driftlings"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = "build/cc-mutate"
TARGET = BUILD + "/tests/test_vectors"
MAKE = ["make", "-s", "MODE=mutate", "OPT_mutate=-O1", TARGET]

CMP_FLIPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==",
             "&&": "||", "||": "&&"}
TOKEN = re.compile(r"<<=|>>=|<<|>>|->|<=|>=|==|!=|&&|\|\||[<>]")
NUMBER = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])")
# "type name[N]...;" or "... = {": a declaration whose sizes are only room.
DECL_DIM = re.compile(r"^\s*(static\s+|const\s+|_Thread_local\s+)*[A-Za-z_][\w\s\*]*\s\**\w+\s*(\[[^\]]*\]\s*)+(;|=)")
# A move-field row { "name", min, max, since }: since 0, 1 or -1 all mean
# "every version" (min_version is 1), so its last column is left alone.
FIELD_ROW = re.compile(r'\{\s*"[^"]*",[^,}]*,[^,}]*,\s*(\d+)\s*\}')
NOT_A_STATEMENT = re.compile(
    r"^(return\b|case\b|default\b|goto\b|for\b|while\b|do\b|if\b|else\b|typedef\b|enum\b|"
    r"struct\b|static\b|const\b|unsigned\b|signed\b|int\b|bool\b|char\b|void\b|size_t\b|"
    r"u?int\d+_t\b|extern\b|#)")
# "type name = ...;" or "type *name;": a declaration, not a statement to drop.
DECLARATION = re.compile(r"^[A-Za-z_]\w*(\s+\**|\s*\*+\s*)[A-Za-z_]\w*\s*(=|;|\[|,)")


def code_parts(lines):
    """Yields (index, code) with comments and string literals blanked."""
    in_block = False
    for i, line in enumerate(lines):
        out = []
        k = 0
        while k < len(line):
            if in_block:
                end = line.find("*/", k)
                if end < 0:
                    out.append(" " * (len(line) - k))
                    k = len(line)
                else:
                    out.append(" " * (end + 2 - k))
                    k = end + 2
                    in_block = False
            elif line.startswith("/*", k):
                in_block = True
            elif line.startswith("//", k):
                out.append(" " * (len(line) - k))
                k = len(line)
            elif line[k] in "\"'":
                q = line[k]
                j = k + 1
                while j < len(line) and line[j] != q:
                    j += 2 if line[j] == "\\" else 1
                out.append(q + " " * (j - k - 1) + (q if j < len(line) else ""))
                k = j + 1
            else:
                out.append(line[k])
                k += 1
        yield i, "".join(out)[: len(line)]


def mutants_of(path, text):
    """Every mutant of one file: (key, line_no, new_text)."""
    lines = text.split("\n")
    found = []
    prev_code = ";"

    def add(i, kind, change, new_line):
        key = f"{kind} {change}"
        new_lines = lines[:i] + [new_line] + lines[i + 1:]
        found.append((key, i + 1, lines[i].strip(), new_line.strip(), "\n".join(new_lines)))

    for i, code in code_parts(lines):
        stripped = code.strip()
        if not stripped:
            continue
        line = lines[i]
        if stripped.startswith("#"):
            m = re.match(r"#\s*define\s+\w+\s+\(?(\d+)", stripped)
            if not m:
                continue
        seen = {}
        for m in TOKEN.finditer(code):
            tok = m.group(0)
            if tok not in CMP_FLIPS:
                continue
            seen[tok] = seen.get(tok, 0) + 1
            kind = "LOGIC" if tok in ("&&", "||") else "CMP"
            new = line[: m.start()] + CMP_FLIPS[tok] + line[m.end():]
            add(i, kind, f"{tok}#{seen[tok]} -> {CMP_FLIPS[tok]}", new)
        since = {m.start(1) for m in FIELD_ROW.finditer(code)}
        seen = {}
        for m in NUMBER.finditer(code):
            before = code[: m.start()].rstrip()
            after = code[m.end():].lstrip()
            if before.endswith("[") and after.startswith("]") and DECL_DIM.match(code):
                continue
            if m.start() in since:
                continue
            lit = m.group(1)
            value = int(lit, 16) if lit.lower().startswith("0x") else int(lit)
            seen[lit] = seen.get(lit, 0) + 1
            for delta in (1, -1):
                v = value + delta
                if v < 0:
                    continue  # "-1" from 0 would need a sign; 0 -> 1 covers it
                rep = (hex(v) if lit.lower().startswith("0x") else str(v)) + m.group(2)
                new = line[: m.start()] + rep + line[m.end():]
                add(i, "CONST", f"{lit}#{seen[lit]} -> {rep}", new)
        for m in re.finditer(r"\bif\s*\(", code):
            depth, j = 1, m.end()
            while j < len(code) and depth:
                depth += {"(": 1, ")": -1}.get(code[j], 0)
                j += 1
            if depth:
                continue  # the condition goes on past this line
            cond = line[m.end(): j - 1]
            new = line[: m.end()] + "!(" + cond + ")" + line[j - 1:]
            add(i, "BRANCH", "if -> if !", new)
        single = prev_code.endswith((";", "{", "}", ")", ":")) or prev_code.startswith("else")
        if (single and stripped.endswith(";") and stripped.count("(") == stripped.count(")")
                and not NOT_A_STATEMENT.match(stripped) and not DECLARATION.match(stripped)
                and not stripped.startswith("}")):
            indent = line[: len(line) - len(line.lstrip())]
            add(i, "DROP", "statement", indent + ";")
        prev_code = stripped
    return found


def explained_survivors():
    """(file, key, original line) triples docs/MUTATION.md explains."""
    path = os.path.join(ROOT, "docs", "MUTATION.md")
    out = set()
    if not os.path.exists(path):
        return out
    current = None
    for line in open(path, encoding="utf-8"):
        h = re.match(r"^### (\S+)", line)
        if h:
            current = h.group(1)
            continue
        m = re.match(r"^- `([A-Z]+ [^`]+)` in `(.+?)`(?: \(line \d+\))?:", line)
        if m and current:
            out.add((current, m.group(1), m.group(2)))
    return out


def run(cmd, cwd, timeout):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout)
        return p.returncode
    except subprocess.TimeoutExpired:
        return "timeout"


def make_scratch(jobs):
    base = tempfile.mkdtemp(prefix="replayd-mutate-")
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    first = os.path.join(base, "w0")
    for f in files:
        if not f or not os.path.isfile(os.path.join(ROOT, f)):
            continue
        dst = os.path.join(first, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), dst)
    print(f"mutate: building the scratch copy in {first}", flush=True)
    if run(MAKE, first, 1800) != 0:
        sys.exit("mutate: the unmutated tree does not build")
    dirs = [first]
    for k in range(1, jobs):
        d = os.path.join(base, f"w{k}")
        shutil.copytree(first, d, symlinks=True)
        dirs.append(d)
    return base, dirs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--vectors", default=os.path.join(ROOT, "vectors"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--max-per-game", type=int, default=200,
                    help="a deterministic sample of each game's mutants (0: all of them)")
    ap.add_argument("--report", default=os.path.join(ROOT, "build", "mutate", "report.md"))
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    vectors = os.path.abspath(args.vectors)

    plan = {}
    for g in games:
        folder = os.path.join(ROOT, "games", g)
        ms = []
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                rel = f"games/{g}/{name}"
                text = open(os.path.join(ROOT, rel), encoding="utf-8").read()
                ms += [(rel,) + m for m in mutants_of(rel, text)]
        if args.max_per_game and len(ms) > args.max_per_game:
            ms.sort(key=lambda m: hashlib.sha1(f"{m[0]}:{m[1]}:{m[3]}:{m[4]}".encode()).hexdigest())
            ms = sorted(ms[: args.max_per_game], key=lambda m: (m[0], m[2]))
        plan[g] = ms
        print(f"mutate: {g}: {len(ms)} mutants", flush=True)

    base, dirs = make_scratch(args.jobs)
    try:
        results = run_all(args, games, plan, vectors, base, dirs)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    write_report(args, games, results, vectors)


def run_all(args, games, plan, vectors_dir, base, dirs):
    # The vectors are copied too, so that editing them meanwhile changes nothing.
    vectors = os.path.join(base, "vectors")
    shutil.copytree(vectors_dir, vectors, ignore=shutil.ignore_patterns("port"))
    free = queue.Queue()
    for d in dirs:
        free.put(d)
    limits = {}
    for g in games:
        t0 = time.monotonic()
        if run([TARGET, vectors, g], dirs[0], 600) != 0:
            sys.exit(f"mutate: the unmutated code fails {g}'s vectors")
        limits[g] = max(10.0, 20 * (time.monotonic() - t0))

    def one(g, m):
        rel, key, line_no, old, new, text = m
        d = free.get()
        path = os.path.join(d, rel)
        original = open(path, encoding="utf-8").read()
        try:
            open(path, "w", encoding="utf-8").write(text)
            if run(MAKE, d, 600) != 0:
                return g, m, "not viable"
            rc = run([TARGET, vectors, g], d, limits[g])
            return g, m, "killed" if rc != 0 else "survived"
        finally:
            open(path, "w", encoding="utf-8").write(original)
            free.put(d)

    results = {g: [] for g in games}
    todo = [(g, m) for g in games for m in plan[g]]
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(dirs)) as pool:
        for g, m, verdict in pool.map(lambda gm: one(*gm), todo):
            results[g].append((m, verdict))
            done += 1
            if done % 50 == 0 or done == len(todo):
                print(f"mutate: {done}/{len(todo)}", flush=True)
    return results


def write_report(args, games, results, vectors):
    explained = explained_survivors()
    lines = ["# Mutation score of the vector suite", "",
             f"Vectors: `{os.path.relpath(vectors, ROOT)}`. Killed / viable mutants per game "
             "(a mutant that does not compile is not viable).", "",
             "The score counts killed mutants among the viable ones; the score without "
             "equivalents leaves out the survivors docs/MUTATION.md explains as equivalent.", "",
             "| game | killed | viable | score | not viable | survivors | explained | score without equivalents | unexplained |",
             "|---|---|---|---|---|---|---|---|---|"]
    failing = False
    details = []
    for g in games:
        rs = results[g]
        viable = [r for r in rs if r[1] != "not viable"]
        killed = sum(1 for r in viable if r[1] == "killed")
        surv = [r[0] for r in viable if r[1] == "survived"]
        unexplained = [m for m in surv if (m[0], m[1], m[3]) not in explained]
        score = 100.0 * killed / len(viable) if viable else 100.0
        counted = len(viable) - (len(surv) - len(unexplained))
        pure = 100.0 * killed / counted if counted else 100.0
        failing |= pure < 95.0 or bool(unexplained)
        lines.append(f"| {g} | {killed} | {len(viable)} | {score:.1f}% | {len(rs) - len(viable)} "
                     f"| {len(surv)} | {len(surv) - len(unexplained)} | {pure:.1f}% "
                     f"| {len(unexplained)} |")
        if surv:
            details += ["", f"## {g}: survivors", ""]
            for m in surv:
                mark = "" if (m[0], m[1], m[3]) in explained else " **(unexplained)**"
                details.append(f"- {m[0]}:{m[2]}: `{m[1]}` in `{m[3]}` gives `{m[4]}`{mark}")
    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    open(args.report, "w", encoding="utf-8").write("\n".join(lines + details) + "\n")
    print("\n".join(lines))
    print(f"mutate: report in {os.path.relpath(args.report, ROOT)}")
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
