#!/usr/bin/env python3
"""Link-level cycles between object files (`make link-cycles`; make check runs it).

Reads each object file's symbols with binutils' nm: the global symbols it
defines and the ones it leaves undefined. File A has an edge to file B when
A uses a symbol B defines (a direct call or a reference to B's data; a
function pointer handed down in a table is not a symbol of the caller's and
makes no edge). Finds the strongly connected components of that graph
(Tarjan) and prints each one of more than one file: its files, and for each
edge inside it the symbols that make it.

  tools/link_cycles.py [--strip PREFIX] DIR_OR_OBJECT...

A directory is searched for *.o files, recursively. Names are printed
relative to PREFIX when they start with it. Exit status: 0 when there is no
cycle, 1 when there is one (each printed), 2 when nm fails or no object
file is given. Symbols defined by no file given (libc, libraries, other
rooms) make no edge.
"""
import argparse
import os
import subprocess
import sys


def objects(paths):
    """The .o files named or under the directories named, sorted."""
    found = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                found.extend(os.path.join(d, n) for n in names if n.endswith(".o"))
        else:
            found.append(p)
    return sorted(set(found))


def symbols(path):
    """(defined, undefined): the file's global symbols, as two sets."""
    out = subprocess.run(["nm", "-P", "-g", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write("link_cycles: nm %s: %s" % (path, out.stderr))
        sys.exit(2)
    defined, undefined = set(), set()
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) < 2 or f[0].endswith(":"):
            continue
        name, kind = f[0], f[1]
        if kind in ("U", "w", "v"):
            undefined.add(name)
        else:
            defined.add(name)
    return defined, undefined


def components(nodes, edges):
    """Tarjan's strongly connected components (iterative), each a list."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strip", default="", help="prefix left off the names printed")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    files = objects(args.paths)
    if not files:
        sys.stderr.write("link_cycles: no object file in %s\n" % " ".join(args.paths))
        return 2

    def name(p):
        return p[len(args.strip):] if args.strip and p.startswith(args.strip) else p

    syms = {f: symbols(f) for f in files}
    definer = {}
    for f in files:
        for s in syms[f][0]:
            definer.setdefault(s, []).append(f)
    # via[(a, b)]: the symbols a uses that b defines.
    via, edges = {}, {}
    for a in files:
        for s in syms[a][1]:
            for b in definer.get(s, ()):
                if b != a:
                    via.setdefault((a, b), set()).add(s)
                    edges.setdefault(a, set()).add(b)

    cycles = [c for c in components(files, edges) if len(c) > 1]
    cycles.sort(key=lambda c: (-len(c), c))
    if not cycles:
        print("link-cycles: %d object files, %d edges, no cycle" % (len(files), len(via)))
        return 0
    for i, comp in enumerate(cycles, 1):
        members = set(comp)
        print("cycle %d: %d files" % (i, len(comp)))
        for f in comp:
            print("  %s" % name(f))
        print("  edges (file -> file: symbols):")
        for a in comp:
            for b in sorted(edges.get(a, ())):
                if b in members:
                    print("    %s -> %s: %s" % (name(a), name(b), " ".join(sorted(via[(a, b)]))))
    print("link-cycles: %d cycle%s among %d object files" %
          (len(cycles), "" if len(cycles) == 1 else "s", len(files)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
