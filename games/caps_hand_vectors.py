#!/usr/bin/env python3
"""Writes the move-cap and move-field hand: cases of every game (issue 18),
run from the repository root:

    python3 games/caps_hand_vectors.py && node vectors/port/generate.mjs

Each game's spec.md states its move cap in "Moves" (or "Rules") and that the
count is checked before any move is decoded. Per game, four replays at the
current version, worked from those sentences alone:

- at the cap: exactly `max_moves` moves are accepted and replayed; the moves
  are ones whose outcome the rules give without playing (a tap past the
  limit ends the level and every later move is `after_end`; a Contraption
  angle past 1400 is `bad_angle`; a Driftlings move past the level's `cap`
  is `after_end` and one naming walker `crowd` is `no_such_walker`);
- one past the cap: refused before it runs (`refused: too_many_moves`);
- one past the cap with a malformed move in it: still `too_many_moves` (the
  count comes first);
- at the cap with one malformed move: `bad_moves`.

Then the levels generation refuses (`refused` on a `levels` case: versions
and levels outside the spec's, generation parameters outside their ranges
or not the game's) and, for version 1, the keys version 2's output adds
(`absent`). Then, per move field, one value below its range and one above it, each
refused as `bad_moves` (the ranges each spec gives for its fields), and two
replays whose moves sit on the ranges' ends, which decode and are played.

`board_before` is the start board the file already pins for the same
(version, level, seed); a board_after that no move changed is the same.
Level facts the moves rely on (limit_ms, end_ms, prompts, crowd, cap) are
read from the spec's level tables, written here.
"""
import json

# (file, version, level, seed, max_moves) and the facts each case needs.
CASES = {
    "schulte": dict(version=2, level=1, seed=42, cap=1000, limit=30000),
    "pipes": dict(version=2, level=1, seed=42, cap=2000, limit=60000),
    "target-sums": dict(version=2, level=1, seed=42, cap=2000, limit=60000),
    "opposites": dict(version=3, level=1, seed=42, cap=500, prompts=8),
    "contraption": dict(version=2, level=1, seed=0, cap=8),
    # Level 10: W 32, 3 bands, crowd 10, interval 4: cap = 6*32*3 + 10*4 + 200.
    "driftlings": dict(version=2, level=10, seed=2415085370, cap=2000, crowd=10,
                       tick_cap=6 * 32 * 3 + 10 * 4 + 200),
}


def start_board(doc, f):
    for c in doc["replays"]:
        if (c["version"], c["level"], c["seed"]) == (f["version"], f["level"], f["seed"]):
            return c["board_before"]
    raise SystemExit("no pinned start board for %r" % (f,))


def level_expect(doc, f, key):
    for c in doc["levels"]:
        if (c["version"], c["level"], c["seed"]) == (f["version"], f["level"], f["seed"]) \
                and key in c["expect"]:
            return c["expect"][key]
    raise SystemExit("no pinned %s for %r" % (key, f))


def at_cap(game, doc, f):
    """The moves at the cap and what the rules make of them."""
    n = f["cap"]
    before = start_board(doc, f)
    if game in ("schulte", "pipes", "target-sums"):
        # The first tap is past the limit: the level ends by timeout (rule 4)
        # and every later move is after_end (rule 1). No tap was counted.
        moves = [{"t": f["limit"] + 1 + k, "cell": 0} for k in range(n)]
        extras = {"schulte": {"found": 0, "mistakes": 0},
                  "pipes": {"turns": 0},
                  "target-sums": {"toggles": 0}}[game]
        result = dict(completed=False, score=0, duration_ms=0, finish_ms=-1, **extras)
        return moves, ["after_end"] * n, dict(board_after=before, result=result)
    if game == "opposites":
        # t >= end_ms ends the run (rule 4); the schedule ran to its end.
        end = level_expect(doc, f, "end_ms")
        moves = [{"t": end + k, "answer": 0} for k in range(n)]
        result = dict(completed=False, score=0, duration_ms=end, correct=0, wrong=0, late=0,
                      missed=f["prompts"], finish_ms=-1)
        return moves, ["after_end"] * n, dict(board_after=before, result=result)
    if game == "contraption":
        # Part 0 is granted (level 1: 3 ramps), so the first check that fails
        # is the angle: rejected at move 0.
        moves = [{"part": 0, "x": 50, "y": 60, "angle": 1401, "t": 1000 * (k + 1)}
                 for k in range(n)]
        return moves, ["bad_angle"], dict(rejected={"move": 0, "reason": "bad_angle"})
    # Driftlings: moves at the level's cap are after_end (step 3); the last
    # names walker `crowd`, which step 1 rejects before anything else.
    moves = [{"tick": f["tick_cap"], "walker": 0, "skill": 0} for _ in range(n - 1)]
    moves.append({"tick": f["tick_cap"], "walker": f["crowd"], "skill": 0})
    outcomes = ["after_end"] * (n - 1) + ["no_such_walker"]
    return moves, outcomes, dict(rejected={"move": n - 1, "reason": "no_such_walker"})


I32 = 2**31 - 1
# Each game's move fields and their ranges, as its spec states them.
FIELDS = {
    "schulte": {"t": (0, I32), "cell": (0, I32)},
    "pipes": {"t": (0, I32), "cell": (0, I32)},
    "target-sums": {"t": (0, I32), "cell": (0, I32)},
    "opposites": {"t": (0, I32), "answer": (0, 255)},
    "contraption": {"part": (0, 1), "x": (-10000, 10000), "y": (-10000, 10000),
                    "angle": (-100000, 100000), "t": (0, I32)},
    "driftlings": {"tick": (0, I32), "walker": (0, 31), "skill": (0, 4)},
}


def at_bounds(game, doc, f):
    """Two replays of moves on their fields' range ends: what each rule makes
    of them (name, moves, outcomes, end)."""
    before = start_board(doc, f)
    timeout = at_cap(game, doc, f)[2] if game not in ("contraption", "driftlings") else None
    if game in ("schulte", "pipes", "target-sums"):
        return [("t 0 and cell 2147483647: the cell is out of range",
                 [{"t": 0, "cell": I32}], ["cell_out_of_range"],
                 dict(rejected={"move": 0, "reason": "cell_out_of_range"})),
                ("t 2147483647 and cell 0: past the limit, the level ends",
                 [{"t": I32, "cell": 0}], ["after_end"], timeout)]
    if game == "opposites":
        return [("t 0 and answer 255: not a button of the level",
                 [{"t": 0, "answer": 255}], ["answer_out_of_range"],
                 dict(rejected={"move": 0, "reason": "answer_out_of_range"})),
                ("t 2147483647 and answer 0: past end_ms, the run ends",
                 [{"t": I32, "answer": 0}], ["after_end"], timeout)]
    if game == "contraption":
        # Level 1 grants 3 ramps and no fan.
        return [("part 1, x -10000, y 10000, angle 100000, t 0: no fan is granted",
                 [{"part": 1, "x": -10000, "y": 10000, "angle": 100000, "t": 0}], ["no_part_left"],
                 dict(rejected={"move": 0, "reason": "no_part_left"})),
                ("part 0, x 10000, y -10000, angle -100000, t 2147483647: the angle fails first",
                 [{"part": 0, "x": 10000, "y": -10000, "angle": -100000, "t": I32}], ["bad_angle"],
                 dict(rejected={"move": 0, "reason": "bad_angle"}))]
    return [("tick 0, walker 31, skill 4: no such walker in a crowd of 10",
             [{"tick": 0, "walker": 31, "skill": 4}], ["no_such_walker"],
             dict(rejected={"move": 0, "reason": "no_such_walker"})),
            ("tick 2147483647 then tick 0: after the end, then backwards in time",
             [{"tick": I32, "walker": 0, "skill": 0}, {"tick": 0, "walker": 0, "skill": 0}],
             ["after_end", "time_backwards"], dict(rejected={"move": 1, "reason": "time_backwards"}))]


def field_cases(game, doc, f, head, before):
    out = []
    for name, moves, outcomes, end in at_bounds(game, doc, f):
        out.append(dict(name=f"hand: move fields at their range ends: {name}", **head,
                        board_before=before, moves=moves, outcomes=outcomes, **end))
    first = at_cap(game, doc, f)[0][0]
    for field, (lo, hi) in FIELDS[game].items():
        for value, side in ((lo - 1, "below"), (hi + 1, "above")):
            bad = dict(first)
            bad[field] = value
            out.append(dict(name=f"hand: move field {field} = {value}, {side} its range, is malformed",
                            **head, board_before=before, moves=[bad], refused="bad_moves"))
    extra = dict(first)
    extra["extra"] = 0
    out.append(dict(name="hand: a move with a field its game does not have is malformed", **head,
                    board_before=before, moves=[extra], refused="bad_moves"))
    if game == "contraption":
        v1 = {k: x for k, x in first.items() if k != "t"}
        out.append(dict(name="hand: a version 2 move without t is malformed", **head,
                        board_before=before, moves=[v1], refused="bad_moves"))
    return out


# The versions `generate` accepts and the generation parameters, by spec.
VERSIONS = {"schulte": 2, "pipes": 2, "target-sums": 2, "opposites": 3, "contraption": 2,
            "driftlings": 2}
PARAMS = {
    "pipes": {"tree_cap": (1, 200), "node_cap": (1, 20000), "max_openings": (1, 3)},
    "target-sums": {"candidate_cap": (1, 500), "node_cap": (1, 200000)},
    "contraption": {"attempt_cap": (1, 1000), "fallback_after": (1, 1000)},
    "driftlings": {"candidate_cap": (1, 16), "node_cap": (1, 65536), "carve_cap": (0, 262144),
                   "alt_window": (0, 2000), "shortcut_bands": (1, 8), "thin_demands": (0, 64),
                   "back_loaded_at": (0, 1000)},
}
# Keys a version's `gen` output adds ("Output shapes" / "gen output").
ADDED = {
    "schulte": ["gap_same_ms", "gap_other_ms", "finish_floor_ms"],
    "pipes": ["tiles_to_turn", "gap_same_ms", "gap_other_ms", "finish_floor_ms"],
    "target-sums": ["gap_same_ms", "gap_other_ms", "finish_floor_ms"],
    "contraption": ["part_gap_ms", "tick_ms"],
}


def level_cases(game):
    """Levels generation refuses (every spec: versions and levels outside
    theirs; parameters outside their ranges or not the game's), and the keys
    an older version's output does not have."""
    top = VERSIONS[game]
    out = []

    def refused(name, version, level, why, params=None):
        c = {"name": "hand: " + name, "version": version, "level": level, "seed": 42}
        if params is not None:
            c["params"] = params
        c["refused"] = why
        out.append(c)

    refused("version 0 is not generated", 0, 1, "bad_version")
    refused(f"version {top + 1} is not generated yet", top + 1, 1, "bad_version")
    refused("level 0 does not exist", top, 0, "bad_level")
    refused("level 16 does not exist", top, 16, "bad_level")
    refused("a parameter the game does not take", top, 1, "bad_params", {"no_such_parameter": 1})
    for name, (lo, hi) in PARAMS.get(game, {}).items():
        refused(f"{name} {lo - 1} is below its range", top, 1, "bad_params", {name: lo - 1})
        refused(f"{name} {hi + 1} is above its range", top, 1, "bad_params", {name: hi + 1})
    if game in ADDED:
        out.append({"name": "hand: version 1 output has none of the keys version 2 adds",
                    "version": 1, "level": 1, "seed": 42, "expect": {}, "absent": ADDED[game]})
    if game == "contraption":
        out.append({"name": "hand: trivial appears only when true", "version": 2, "level": 1,
                    "seed": 42, "expect": {"fallback": False}, "absent": ["trivial"]})
    return out


def killing_cases(game, doc):
    """Cases the mutation score asked for (MUTATION.md): each pins a rule no
    case reached before. (section, case) pairs."""
    out = []
    if game == "opposites":
        f = CASES[game]
        head = {"version": 3, "level": 1, "seed": 42}
        before = start_board(doc, f)
        appear = level_expect(doc, f, "appear_ms")
        prompt = level_expect(doc, f, "prompts")
        end = level_expect(doc, f, "end_ms")
        # Rule 5: prompt p is shown from appear[p] on, so r = 0 at appear[0].
        out.append(("replays", dict(name="hand: an answer at the very millisecond its prompt appears (r = 0)",
                                    **head, board_before=before,
                                    moves=[{"t": appear[0], "answer": prompt[0] ^ 1}],
                                    outcomes=["reaction_below_floor"],
                                    rejected={"move": 0, "reason": "reaction_below_floor"})))
        # Two slips then the answer at r = 1985: 100 + (2000 - 1985) div 10 = 101
        # points less 2 x 50: a score of exactly 1.
        moves = [{"t": appear[0] + 300, "answer": prompt[0]}, {"t": appear[0] + 400, "answer": prompt[0]},
                 {"t": appear[0] + 1985, "answer": prompt[0] ^ 1}]
        status = [1] + [0] * (f["prompts"] - 1)
        out.append(("replays", dict(name="hand: two slips and a late correct answer score exactly 1",
                                    **head, board_before=before, moves=moves,
                                    outcomes=["wrong", "wrong", "correct"],
                                    board_after={"status": status, "points": 101},
                                    result=dict(completed=False, score=1, duration_ms=end, correct=1,
                                                wrong=2, late=0, missed=f["prompts"] - 1,
                                                finish_ms=-1))))
    if game == "driftlings":
        # No floor: the walker lands on the bottom edge (out of bounds is
        # solid), walks right and is saved at tick 5; the run is over at 6.
        out.append(("traces", {
            "name": "hand: no floor row: the bottom edge is solid",
            "rows": ["E...", "....", "...X"], "crowd": 1, "quota": 1, "interval": 1, "cap": 20,
            "inventory": {"climber": 0, "floater": 0, "blocker": 0, "basher": 0, "digger": 0},
            "moves": [], "outcomes": [],
            "ticks": [{"tick": 3, "walkers": [[0, 2, 1, 0, 0, 0]]},
                      {"tick": 6, "walkers": [[3, 2, 1, 6, 0, 0]]}],
            "result": {"completed": True, "score": 999994, "duration_ms": 0, "saved": 1, "dead": 0,
                       "ticks": 6, "skills_used": 0},
            "terrain_after": ["E...", "....", "...X"]}))
    if game in PARAMS:
        # Every parameter at the top of its range, where that is its default
        # (Driftlings' gate thresholds excepted): the level is the default one.
        top = {k: hi for k, (lo, hi) in PARAMS[game].items()
               if k not in ("shortcut_bands", "thin_demands", "back_loaded_at")}
        f = CASES[game]
        plain = [c for c in doc["levels"] if (c["version"], c["level"], c["seed"]) ==
                 (f["version"], f["level"], f["seed"]) and "params" not in c and "expect" in c
                 and len(c["expect"]) > 3]
        if plain:
            out.append(("levels", {"name": "hand: every limit at the top of its range is the default",
                                   "version": f["version"], "level": f["level"], "seed": f["seed"],
                                   "params": top, "expect": plain[0]["expect"]}))
    return out


def malformed(game, move):
    """The same move made malformed: a field outside the decoder's range
    (Contraption: version 2's `t` missing)."""
    bad = dict(move)
    if game == "contraption":
        del bad["t"]
    else:
        bad[next(iter(bad))] = -1
    return bad


def cases_for(game, doc):
    f = CASES[game]
    head = {"version": f["version"], "level": f["level"], "seed": f["seed"]}
    before = start_board(doc, f)
    moves, outcomes, end = at_cap(game, doc, f)
    n = f["cap"]
    more = moves + [moves[-1]]
    out = [
        dict(name=f"hand: the move cap: exactly {n} moves are replayed", **head,
             board_before=before, moves=moves, outcomes=outcomes, **end),
        dict(name=f"hand: the move cap: {n + 1} moves are refused before they run", **head,
             board_before=before, moves=more, refused="too_many_moves"),
        dict(name=f"hand: the move cap: {n + 1} moves, the first malformed, are refused as too many",
             **head, board_before=before, moves=[malformed(game, more[0])] + more[1:],
             refused="too_many_moves"),
        dict(name=f"hand: the move cap: {n} moves, the last malformed, are refused as malformed",
             **head, board_before=before, moves=moves[:-1] + [malformed(game, moves[-1])],
             refused="bad_moves"),
    ]
    return out + field_cases(game, doc, f, head, before)


def main():
    for game in CASES:
        path = f"vectors/{game}.json"
        with open(path) as fh:
            doc = json.load(fh)
        mine = cases_for(game, doc)
        names = {c["name"] for c in mine}
        kept = [c for c in doc["replays"] if c["name"] not in names]
        hand = [c for c in kept if c["name"].startswith("hand:")]
        rest = [c for c in kept if not c["name"].startswith("hand:")]
        doc["replays"] = hand + mine + rest
        mine = level_cases(game)
        names = {c["name"] for c in mine}
        kept = [c for c in doc["levels"] if c["name"] not in names]
        hand = [c for c in kept if c["name"].startswith("hand:")]
        rest = [c for c in kept if not c["name"].startswith("hand:")]
        doc["levels"] = hand + mine + rest
        for section, case in killing_cases(game, doc):
            kept = [c for c in doc[section] if c["name"] != case["name"]]
            n = sum(1 for c in kept if c["name"].startswith("hand:"))
            doc[section] = kept[:n] + [case] + kept[n:]
        with open(path, "w") as fh:
            json.dump(doc, fh, indent=1)


if __name__ == "__main__":
    main()
