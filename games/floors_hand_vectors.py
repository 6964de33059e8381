#!/usr/bin/env python3
"""Writes the hand: cases of the fair-play review into vectors/schulte.json,
vectors/pipes.json, vectors/target-sums.json and vectors/opposites.json
(the human floors of Schulte 2, Pipes 2, Target Sums 2 and Opposites 3, the
Opposites window rule, and the Target Sums level whose candidate reaches the
node cap), run from the repository root:

    python3 games/floors_hand_vectors.py && node vectors/port/generate.mjs

Every rule below is a plain transcription of the games' spec.md texts, never
of the C code; the C suite (tests/unit/test_vectors.c) only checks the cases.
The boards are the ones the files already pin: Schulte and Opposites levels
are generated here from the specs' few draws; Pipes and Target Sums use the
level 1 seed 42 boards of their existing hand: level cases. A case this
script owns is replaced by name; new ones go after the file's other hand:
cases. generate.mjs then rewrites the file in its own layout and appends the
port's generated: cases again.
"""
import json

M32 = 0xFFFFFFFF


class Rng:
    """mulberry32 (docs/CORE.md)."""

    def __init__(self, seed):
        self.s = seed & M32

    def next(self):
        self.s = (self.s + 0x6D2B79F5) & M32
        t = self.s
        t = ((t ^ (t >> 15)) * (1 | t)) & M32
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & M32)) & M32) ^ t
        return (t ^ (t >> 14)) & M32

    def below(self, n):
        return self.next() % n

    def shuffle(self, v):
        for i in range(len(v) - 1, 0, -1):
            j = self.below(i + 1)
            v[i], v[j] = v[j], v[i]


assert [Rng(0).next() for _ in range(1)] == [1144304738]


def rows(flat, w):
    return [flat[i:i + w] for i in range(0, len(flat), w)]


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, doc, levels, replays):
    """Replaces this script's cases by name; new ones after the last hand: case."""
    for key, mine in (("levels", levels), ("replays", replays)):
        names = {c["name"] for c in mine}
        kept = [c for c in doc[key] if c["name"] not in names]
        hand = [c for c in kept if c["name"].startswith("hand:")]
        rest = [c for c in kept if not c["name"].startswith("hand:")]
        doc[key] = hand + mine + rest
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def replay_case(name, version, level, seed, run, moves):
    r = run(moves)
    case = {"name": "hand: " + name, "version": version, "level": level, "seed": seed,
            "board_before": r["before"], "moves": moves, "outcomes": r["outcomes"]}
    if "rejected" in r:
        case["rejected"] = r["rejected"]
    else:
        case["board_after"] = r["after"]
        case["result"] = r["result"]
    return case


def taps(ts, cells, key="cell"):
    return [{"t": t, key: c} for t, c in zip(ts, cells)]


REJECTED = ("cell_out_of_range", "answer_out_of_range", "time_backwards", "too_fast", "finish_below_floor",
            "reaction_below_floor")


def prologue(st, t, in_range, range_code, ended_at):
    """Rules 1-4 the timed games share: ended, range, time going back, the
    level's end (ended_at(t): t is past the last millisecond that counts).
    Returns an outcome code, or None when the game's own rules decide."""
    if st["ended"]:
        return "after_end"
    if not in_range:
        return range_code
    if t < st["prev_t"]:
        return "time_backwards"
    st["prev_t"] = t
    if ended_at(t):
        st["ended"] = True
        return "after_end"
    return None


def finish(before, outcomes, board, result):
    """A run's answer: rejected at its last outcome, or the board and result."""
    if outcomes and outcomes[-1] in REJECTED:
        return dict(before=before, outcomes=outcomes, rejected={"move": len(outcomes) - 1, "reason": outcomes[-1]})
    return dict(before=before, outcomes=outcomes, after=board(), result=result())


def puzzle_run(lv, version, v1_gap, n, turn, solved, board, names):
    """Pipes and Target Sums share their rules: the prologue, the gap
    (version 1: v1_gap; version 2: 100 ms on the same cell, 150 on another),
    the move (turn(cell) returns its outcome), completion (checked against
    the finish floor from version 2) and the score. names: the result's
    (moves, minimum) keys."""
    def run(moves):
        st = dict(prev_t=0, last_t=0, last_cell=None, moves=0, ended=False, completed=False, finish_t=-1)
        before = board()
        outcomes = []
        for m in moves:
            t, cell = m["t"], m["cell"]
            o = prologue(st, t, cell < n, "cell_out_of_range", lambda t: t > lv["limit"])
            if o is None:
                gap = v1_gap if version == 1 else (100 if cell == st["last_cell"] else 150)
                if t - st["last_t"] < gap:
                    o = "too_fast"
                else:
                    o = turn(cell)
                    st["moves"] += 1
                    st["last_t"], st["last_cell"] = t, cell
                    if solved():
                        if version >= 2 and t < lv["floor"]:
                            o = "finish_below_floor"
                        else:
                            st["ended"] = st["completed"] = True
                            st["finish_t"] = t
            outcomes.append(o)
            if o in REJECTED:
                break

        def result():
            score = 0
            if st["completed"]:
                wasted = max(0, st["moves"] - lv["min"])
                score = 1000 + max(0, (lv["limit"] - st["finish_t"]) // 100 - 5 * wasted)
            return {"completed": st["completed"], "score": score, "duration_ms": st["last_t"],
                    names[0]: st["moves"], names[1]: lv["min"], "finish_ms": st["finish_t"]}
        return finish(before, outcomes, board, result)
    return run


# ---- Schulte (games/schulte/spec.md) ------------------------------------------

SCHULTE = [  # side, count down, reshuffle, limit
    (3, 0, 0, 30000), (3, 1, 0, 30000), (4, 0, 0, 60000), (4, 1, 0, 60000), (5, 0, 0, 90000),
    (5, 1, 0, 90000), (4, 0, 1, 60000), (6, 0, 0, 120000), (6, 1, 0, 120000), (5, 0, 1, 100000),
    (7, 0, 0, 150000), (7, 1, 0, 150000), (6, 1, 1, 140000), (7, 0, 1, 180000), (7, 1, 1, 180000)]


def schulte_level(level, seed):
    side, down, reshuffle, limit = SCHULTE[level - 1]
    n = side * side
    rng = Rng(seed)
    grid = list(range(1, n + 1))
    rng.shuffle(grid)
    return dict(side=side, down=down, reshuffle=reshuffle, limit=limit, n=n, grid=grid, rng=rng.s,
                floor=n * (300 if reshuffle else 200))


def schulte_run(lv, version):
    def run(moves):
        grid = list(lv["grid"])
        rng = Rng(0)
        rng.s = lv["rng"]
        n = lv["n"]
        st = dict(expected=n if lv["down"] else 1, found=0, mistakes=0, prev_t=0, last_t=0,
                  last_cell=None, ended=False, completed=False, finish_t=-1)

        def board():
            return {"grid": rows(list(grid), lv["side"]), "next": 0 if st["found"] == n else st["expected"]}
        before = board()
        outcomes = []
        for m in moves:
            t, cell = m["t"], m["cell"]
            o = prologue(st, t, cell < n, "cell_out_of_range", lambda t: t > lv["limit"])
            if o is None:
                if grid[cell] == 0:
                    o = "already_found"
                else:
                    gap = 100 if version == 1 or cell == st["last_cell"] else 150
                    if t - st["last_t"] < gap:
                        o = "too_fast"
                    else:
                        st["last_t"], st["last_cell"] = t, cell
                        if grid[cell] != st["expected"]:
                            st["mistakes"] += 1
                            st["ended"] = st["mistakes"] >= 5
                            o = "mistake"
                        elif version >= 2 and st["found"] + 1 == n and t < lv["floor"]:
                            o = "finish_below_floor"
                        else:
                            grid[cell] = 0
                            st["found"] += 1
                            st["expected"] += -1 if lv["down"] else 1
                            o = "found"
                            if st["found"] == n:
                                st["ended"] = st["completed"] = True
                                st["finish_t"] = t
                            elif lv["reshuffle"] and n - st["found"] >= 2:
                                at = [k for k in range(n) if grid[k] != 0]
                                vals = [grid[k] for k in at]
                                rng.shuffle(vals)
                                for k, v in zip(at, vals):
                                    grid[k] = v
            outcomes.append(o)
            if o in REJECTED:
                break

        def result():
            if st["completed"]:
                score = 1000 + max(0, (lv["limit"] - st["finish_t"]) // 100 - 10 * st["mistakes"])
            else:
                score = st["found"]
            return {"completed": st["completed"], "score": score, "duration_ms": st["last_t"],
                    "found": st["found"], "mistakes": st["mistakes"], "finish_ms": st["finish_t"]}
        return finish(before, outcomes, board, result)
    return run


def schulte_order(lv, times):
    """Taps every number where it is at that moment (reshuffles move them)."""
    moves = []
    for t in times:
        r = schulte_run(lv, 1)(moves)
        board = r["after"]
        flat = [v for row in board["grid"] for v in row]
        moves.append({"t": t, "cell": flat.index(board["next"])})
    return moves


def schulte_cases():
    levels, replays = [], []
    for level, seed in ((1, 42), (7, 3), (15, 0)):
        lv = schulte_level(level, seed)
        levels.append({"name": "hand: version 2, level %d seed %d: the floors in gen" % (level, seed),
                       "version": 2, "level": level, "seed": seed,
                       "expect": {"grid": rows(lv["grid"], lv["side"]), "gap_same_ms": 100,
                                  "gap_other_ms": 150, "finish_floor_ms": lv["floor"]}})
    lv = schulte_level(1, 42)  # 7 8 2 / 5 4 6 / 9 3 1, up, floor 9 x 200 = 1800
    order = [lv["grid"].index(k) for k in range(1, 10)]
    # The fastest legal pace: the first tap at 150, then 150 ms a new cell;
    # the last tap waits for the finish floor.
    fast = [150 * (i + 1) for i in range(8)]
    for version in (1, 2):
        run = schulte_run(lv, version)
        v = "version %d, level 1 seed 42" % version
        replays.append(replay_case(v + ": taps at the other-cell gap, the last at the finish floor (1800)",
                                   version, 1, 42, run, taps(fast + [1800], order)))
        replays.append(replay_case(v + ": the same run with the last tap at 1799 (finish floor less 1)",
                                   version, 1, 42, run, taps(fast + [1799], order)))
        replays.append(replay_case(v + ": the first tap at t = 149", version, 1, 42, run,
                                   taps([149, 300], order[:2])))
        replays.append(replay_case(v + ": another cell 149 ms after a tap", version, 1, 42, run,
                                   taps([150, 299], order[:2])))
        # Cell 0 holds 7: a mistake; tapped again it is the same cell.
        replays.append(replay_case(v + ": a mistake tapped again on its cell 100 ms later, then 1 found",
                                   version, 1, 42, run, taps([150, 250, 400], [0, 0, order[0]])))
        replays.append(replay_case(v + ": a mistake tapped again on its cell 99 ms later", version, 1, 42,
                                   run, taps([150, 249], [0, 0])))
    lv = schulte_level(7, 3)  # 4x4 reshuffled: floor 16 x 300 = 4800
    times = [300 * (i + 1) for i in range(16)]
    for version in (1, 2):
        run = schulte_run(lv, version)
        moves = schulte_order(lv, times)
        replays.append(replay_case("version %d, level 7 seed 3 (reshuffle): 300 ms a number, the last at "
                                   "the finish floor (4800)" % version, version, 7, 3, run, moves))
        early = moves[:-1] + [{"t": 4799, "cell": moves[-1]["cell"]}]
        replays.append(replay_case("version %d, level 7 seed 3 (reshuffle): the last tap at 4799"
                                   % version, version, 7, 3, run, early))
    return levels, replays


# ---- Pipes (games/pipes/spec.md) ---------------------------------------------


def rot(m):
    return ((m << 1) | (m >> 3)) & 15


def pipes_solved(tiles, w, h, wrap):
    def nb(c, d):
        r, col = divmod(c, w)
        r2, c2 = r + (-1, 0, 1, 0)[d], col + (0, 1, 0, -1)[d]
        if wrap:
            return (r2 % h) * w + (c2 % w)
        if 0 <= r2 < h and 0 <= c2 < w:
            return r2 * w + c2
        return None
    for c in range(w * h):
        for d in range(4):
            if tiles[c] >> d & 1:
                n = nb(c, d)
                if n is None or not tiles[n] >> ((d + 2) % 4) & 1:
                    return False
    src = (h // 2) * w + w // 2
    seen, todo = {src}, [src]
    while todo:
        c = todo.pop()
        for d in range(4):
            n = nb(c, d)
            if tiles[c] >> d & 1 and n is not None and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == w * h


def pipes_run(lv, version):
    def run(moves):
        tiles = list(lv["start"])

        def turn(cell):
            tiles[cell] = rot(tiles[cell])
            return "rotated"
        return puzzle_run(lv, version, 50, len(tiles), turn,
                          lambda: pipes_solved(tiles, lv["w"], lv["w"], lv["wrap"]),
                          lambda: {"tiles": rows(list(tiles), lv["w"])}, ("turns", "min_turns"))(moves)
    return run


def pipes_cases(doc):
    pinned = next(c for c in doc["levels"] if c["name"] == "hand: level 1 seed 42, the devlog's board")["expect"]
    start = [v for row in pinned["start"] for v in row]
    solution = [v for row in pinned["solution"] for v in row]
    ks = []
    for a, b in zip(start, solution):
        k = 0
        while a != b:
            a, k = rot(a), k + 1
        ks.append(k)
    tiles_to_turn = sum(1 for k in ks if k > 0)
    floor = 300 * tiles_to_turn + 100 * (sum(ks) - tiles_to_turn)
    lv = dict(start=start, w=3, wrap=False, limit=60000, min=sum(ks), floor=floor)
    levels = [{"name": "hand: version 2, level 1 seed 42: tiles to turn and the floors in gen", "version": 2,
               "level": 1, "seed": 42,
               "expect": {"start": pinned["start"], "solution": pinned["solution"], "min_turns": sum(ks),
                          "tiles_to_turn": tiles_to_turn, "gap_same_ms": 100, "gap_other_ms": 150,
                          "finish_floor_ms": floor}}]
    # Every tile turned straight to its solution in row-major order, at the
    # gaps' floors (150 ms to a new tile, 100 ms for the same tile again); the
    # last turn waits for the finish floor.
    cells, times, t, prev = [], [], 0, None
    for c, k in enumerate(ks):
        for _ in range(k):
            t += 100 if c == prev else 150
            cells.append(c)
            times.append(t)
            prev = c
    replays = []
    for version in (1, 2):
        run = pipes_run(lv, version)
        v = "version %d, level 1 seed 42" % version
        replays.append(replay_case(v + ": turns at the gaps' floors, the last at the finish floor (%d)" % floor,
                                   version, 1, 42, run, taps(times[:-1] + [floor], cells)))
        replays.append(replay_case(v + ": the same turns with the last at %d (finish floor less 1)"
                                   % (floor - 1), version, 1, 42, run, taps(times[:-1] + [floor - 1], cells)))
        replays.append(replay_case(v + ": the first turn at t = 149", version, 1, 42, run, taps([149], [0])))
        replays.append(replay_case(v + ": the same tile again 99 ms later", version, 1, 42, run,
                                   taps([150, 249], [0, 0])))
        replays.append(replay_case(v + ": another tile 149 ms later", version, 1, 42, run,
                                   taps([150, 250, 399], [0, 0, 1])))
    return levels, replays


# ---- Target Sums (games/target-sums/spec.md) ---------------------------------


def ts_run(lv, version):
    def run(moves):
        g, cols = lv["grid"], lv["cols"]
        n = len(g)
        kept = [1] * n

        def toggle(cell):
            kept[cell] ^= 1
            return "restored" if kept[cell] else "removed"

        def sums():
            rs = [sum(g[i] for i in range(n) if kept[i] and i // cols == r) for r in range(lv["rows"])]
            cs = [sum(g[i] for i in range(n) if kept[i] and i % cols == c) for c in range(cols)]
            return rs, cs

        def board():
            rs, cs = sums()
            return {"kept": rows(list(kept), cols), "row_sums": rs, "col_sums": cs}
        return puzzle_run(lv, version, 100, n, toggle, lambda: sums() == (lv["row_targets"], lv["col_targets"]),
                          board, ("toggles", "min_toggles"))(moves)
    return run


def ts_cases(doc):
    pinned = next(c for c in doc["levels"] if c["name"] == "hand: level 1 seed 42")["expect"]
    grid = [v for row in pinned["grid"] for v in row]
    solution = [v for row in pinned["solution"] for v in row]
    removed = [i for i, k in enumerate(solution) if not k]
    floor = 500 * len(removed)
    lv = dict(grid=grid, rows=3, cols=3, limit=60000, min=len(removed), floor=floor,
              row_targets=pinned["row_targets"], col_targets=pinned["col_targets"])
    levels = [{"name": "hand: version 2, level 1 seed 42: the floors in gen", "version": 2, "level": 1,
               "seed": 42, "expect": {"grid": pinned["grid"], "solution": pinned["solution"],
                                      "min_toggles": len(removed), "gap_same_ms": 100, "gap_other_ms": 150,
                                      "finish_floor_ms": floor}}]
    # The node cap is reached (spec.md, "countSolutions"): the first candidate
    # of level 14 seed 201495224 stops at 200000 nodes and is rejected; the
    # second is accepted after 403. The counts are the generator's (the
    # independent port checks them: version 1 is one it knows).
    levels.append({"name": "hand: level 14 seed 201495224, the first candidate reaches the node cap and is "
                   "rejected", "version": 1, "level": 14, "seed": 201495224,
                   "expect": {"nodes": 403, "search_nodes": 200403, "rejected": 1, "fallback": False,
                              "min_toggles": 23}})
    replays = []
    fast = [150 * (i + 1) for i in range(len(removed) - 1)]
    for version in (1, 2):
        run = ts_run(lv, version)
        v = "version %d, level 1 seed 42" % version
        replays.append(replay_case(v + ": removals 150 ms apart, the last at the finish floor (%d)" % floor,
                                   version, 1, 42, run, taps(fast + [floor], removed)))
        replays.append(replay_case(v + ": the same removals with the last at %d (finish floor less 1)"
                                   % (floor - 1), version, 1, 42, run, taps(fast + [floor - 1], removed)))
        replays.append(replay_case(v + ": the first toggle at t = 149", version, 1, 42, run,
                                   taps([149], [0])))
        replays.append(replay_case(v + ": a cell removed and restored 100 ms later, then another 150 ms later",
                                   version, 1, 42, run, taps([150, 250, 400], [0, 0, 1])))
        replays.append(replay_case(v + ": a cell restored 99 ms after its removal", version, 1, 42, run,
                                   taps([150, 249], [0, 0])))
        replays.append(replay_case(v + ": another cell 149 ms after a toggle", version, 1, 42, run,
                                   taps([150, 299], [0, 1])))
    return levels, replays


# ---- Opposites (games/opposites/spec.md) -------------------------------------

OPPOSITES = [  # prompts, codes, gap, jitter, window
    (8, 4, 2500, 500, 2000), (10, 4, 2200, 500, 1800), (12, 4, 2000, 400, 1500), (12, 8, 2200, 500, 1800),
    (14, 8, 2000, 400, 1500), (16, 8, 1800, 400, 1300), (16, 12, 2000, 400, 1600), (18, 12, 1800, 400, 1400),
    (20, 12, 1600, 400, 1200), (20, 12, 1500, 600, 1100), (22, 12, 1400, 600, 1000), (24, 12, 1300, 600, 900),
    (26, 12, 1200, 600, 800), (28, 12, 1100, 600, 700), (30, 12, 1000, 600, 600)]


def opp_level(level, seed, version):
    prompts, codes, gap, jitter, window = OPPOSITES[level - 1]
    rng = Rng(seed)
    prompt, appear = [], []
    for i in range(prompts):
        prompt.append(rng.below(codes))
        delay = rng.below(jitter + 1)
        appear.append(1000 + delay if i == 0 else appear[-1] + gap + delay)
    floor = 150 + 50 * (codes - 1).bit_length() if version >= 3 else 150
    return dict(prompts=prompts, codes=codes, window=window, prompt=prompt, appear=appear,
                end=appear[-1] + window, floor=floor, version=version)


def opp_gen(lv):
    return {"codes": lv["codes"], "window_ms": lv["window"], "min_reaction_ms": lv["floor"], "end_ms": lv["end"],
            "prompts": lv["prompt"], "answers": [p ^ 1 for p in lv["prompt"]], "appear_ms": lv["appear"]}


def opp_run(lv):
    def run(moves):
        n, v = lv["prompts"], lv["version"]
        status, closed = [0] * n, [False] * n
        st = dict(prev_t=0, correct=0, wrong=0, late=0, points=0, ended=False, finish_t=-1)

        def board():
            return {"status": list(status), "points": st["points"]}

        def close(p, t):
            closed[p] = True
            if all(closed):
                st["ended"] = True
                st["finish_t"] = t
        before = board()
        outcomes = []
        for m in moves:
            t, a = m["t"], m["answer"]
            o = prologue(st, t, a < lv["codes"], "answer_out_of_range", lambda t: t >= lv["end"])
            if o is None:
                shown = [p for p in range(n) if lv["appear"][p] <= t]
                if not shown:
                    o = "no_prompt"
                else:
                    p = shown[-1]
                    r = t - lv["appear"][p]
                    if r >= lv["window"]:
                        st["late"] += 1
                        o = "late"
                    elif closed[p]:
                        o = "repeated"
                    elif r < lv["floor"]:
                        o = "reaction_below_floor" if v >= 3 else "too_fast"
                    elif a == lv["prompt"][p] ^ 1:
                        st["correct"] += 1
                        st["points"] += 100 + (lv["window"] - r) // 10
                        status[p] = 1
                        close(p, t)
                        o = "correct"
                    else:
                        st["wrong"] += 1
                        status[p] = 2
                        if v == 1:
                            close(p, t)
                        o = "wrong"
            outcomes.append(o)
            if o in REJECTED:
                break

        def result():
            score = st["points"] - (50 * st["wrong"] if v >= 2 else 0)
            return {"completed": 2 * st["correct"] >= n, "score": max(0, score),
                    "duration_ms": st["finish_t"] if st["finish_t"] >= 0 else lv["end"],
                    "correct": st["correct"], "wrong": st["wrong"], "late": st["late"],
                    "missed": n - st["correct"], "finish_ms": st["finish_t"]}
        return finish(before, outcomes, board, result)
    return run


def opp_cases():
    levels, replays = [], []
    for level, seed in ((1, 42), (4, 0), (7, 1), (15, 0)):
        lv = opp_level(level, seed, 3)
        levels.append({"name": "hand: version 3, level %d seed %d: the schedule and a reaction floor of %d ms "
                       "for %d codes" % (level, seed, lv["floor"], lv["codes"]),
                       "version": 3, "level": level, "seed": seed, "expect": opp_gen(lv)})
    for level, seed in ((1, 42), (4, 0), (7, 1)):
        for version in (2, 3):
            lv = opp_level(level, seed, version)
            run = opp_run(lv)
            floor3 = opp_level(level, seed, 3)["floor"]
            first = {"answer": lv["prompt"][0] ^ 1}
            v = "version %d, level %d seed %d (%d codes)" % (version, level, seed, lv["codes"])
            replays.append(replay_case(v + ": prompt 0 answered at r = %d" % floor3, version, level, seed, run,
                                       [dict(first, t=lv["appear"][0] + floor3)]))
            replays.append(replay_case(v + ": prompt 0 answered at r = %d" % (floor3 - 1), version, level, seed,
                                       run, [dict(first, t=lv["appear"][0] + floor3 - 1)]))
    lv15 = opp_level(15, 0, 3)
    replays.append(replay_case("version 3, level 15 seed 0: every prompt at r = 350, the fastest legal run",
                               3, 15, 0, opp_run(lv15),
                               [{"t": a + 350, "answer": p ^ 1} for a, p in zip(lv15["appear"], lv15["prompt"])]))
    # The window rule (spec.md, "Rules"): a prompt left unanswered past its
    # window stays open, so a later answer to it is late, the run does not end
    # when the other prompts close, and it lasts to end_ms.
    for version in (1, 2, 3):
        lv = opp_level(1, 42, version)
        a, p = lv["appear"], lv["prompt"]
        moves = [{"t": a[0] + lv["window"], "answer": p[0] ^ 1}]
        moves += [{"t": a[k] + 400, "answer": p[k] ^ 1} for k in range(1, lv["prompts"])]
        moves.append({"t": a[-1] + 500, "answer": p[-1] ^ 1})
        replays.append(replay_case("version %d, level 1 seed 42: prompt 0 answered only after its window "
                                   "(late); it stays open, so after the last prompt is answered the run "
                                   "goes on (repeated, not after_end) and lasts to end_ms" % version,
                                   version, 1, 42, opp_run(lv), moves))
    return levels, replays


def main():
    for path, make in (("vectors/schulte.json", lambda d: schulte_cases()),
                       ("vectors/pipes.json", pipes_cases),
                       ("vectors/target-sums.json", ts_cases),
                       ("vectors/opposites.json", lambda d: opp_cases())):
        doc = load(path)
        levels, replays = make(doc)
        save(path, doc, levels, replays)


if __name__ == "__main__":
    main()
