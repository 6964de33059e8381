#!/usr/bin/env python3
"""Writes vectors/driftlings.json (run from the repository root). Every trace below was worked by hand from
games/driftlings/spec.md (tick by tick, written out literally), never
computed by the C code; the C test only checks it."""
import json

W, F, C, B, BA, D, S, X = 0, 1, 2, 3, 4, 5, 6, 7  # activities
INV0 = {"climber": 0, "floater": 0, "blocker": 0, "basher": 0, "digger": 0}

def inv(**k):
    d = dict(INV0); d.update(k); return d

def w(x, y, d, a, t, f):
    return [x, y, d, a, t, f]

traces = []

# T1: fall, land, walk, turn at a two-high wall, saved; a second walker
# spawns three ticks later; an assignment to a saved walker is ignored.
t1_rows = ["..E...", "....=.", "X...=.", "======"]
p0 = [None,
      w(2,1,1,F,0,1), w(2,2,1,F,0,2), w(2,2,1,W,0,0), w(3,2,1,W,0,0), w(3,2,-1,W,0,0),
      w(2,2,-1,W,0,0), w(1,2,-1,W,0,0), w(0,2,-1,S,0,0)]
p1 = [w(2,1,1,F,0,1), w(2,2,1,F,0,2), w(2,2,1,W,0,0), w(3,2,1,W,0,0), w(3,2,-1,W,0,0),
      w(2,2,-1,W,0,0), w(1,2,-1,W,0,0), w(0,2,-1,S,0,0)]
ticks = []
for t in range(0, 12):
    ws = []
    if t >= 1: ws.append(p0[min(t, 8)])
    if t >= 4: ws.append(p1[min(t - 4, 7)])
    ticks.append({"tick": t, "walkers": ws})
traces.append({"name": "hand: walk, turn at a wall, two walkers, a move to a saved walker",
    "rows": t1_rows, "crowd": 2, "quota": 2, "interval": 3, "cap": 100,
    "inventory": inv(climber=1),
    "moves": [{"tick": 9, "walker": 0, "skill": 0}], "outcomes": ["walker_gone"],
    "ticks": ticks,
    "result": {"completed": True, "score": 1999989, "duration_ms": 225, "saved": 2,
               "quota": 2, "crowd": 2, "dead": 0, "ticks": 11, "skills_used": 0}})

# T2: a nine-cell drop: a floater lands, the fall counter saturates at 7.
t2_rows = ["E..", "...", "...", "...", "...", "...", "...", "...", "..X", "==="]
seq = [w(0,1,1,F,0,1)] + [w(0,y,1,F,2,min(y,7)) for y in range(2, 9)] + \
      [w(0,8,1,W,2,0), w(1,8,1,W,2,0), w(2,8,1,S,2,0)]
traces.append({"name": "hand: a floater survives a lethal drop; a second floater is trait_held",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(floater=2),
    "moves": [{"tick": 1, "walker": 0, "skill": 1}, {"tick": 2, "walker": 0, "skill": 1}],
    "outcomes": ["assigned", "trait_held"],
    "ticks": [{"tick": 0, "walkers": []}] + [{"tick": t + 1, "walkers": [seq[t]]} for t in range(11)],
    "result": {"completed": True, "score": 998989, "duration_ms": 50, "saved": 1, "quota": 1,
               "crowd": 1, "dead": 0, "ticks": 11, "skills_used": 1}})
seq = [w(0,y,1,F,0,min(y,7)) for y in range(1, 9)] + [w(0,8,1,X,0,7)]
traces.append({"name": "hand: the same drop without a floater kills",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(floater=2), "moves": [], "outcomes": [],
    "ticks": [{"tick": t + 1, "walkers": [seq[t]]} for t in range(9)],
    "result": {"completed": False, "score": 0, "duration_ms": 0, "saved": 0, "quota": 1,
               "crowd": 1, "dead": 1, "ticks": 9, "skills_used": 0}})
traces.append({"name": "hand: floaters exhausted: the move is ignored and the walker dies",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(), "moves": [{"tick": 1, "walker": 0, "skill": 1}],
    "outcomes": ["skill_exhausted"], "ticks": [],
    "result": {"completed": False, "score": 0, "duration_ms": 25, "saved": 0, "quota": 1,
               "crowd": 1, "dead": 1, "ticks": 9, "skills_used": 0}})
traces.append({"name": "hand: a move at tick 0 comes before the first spawn",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(floater=1), "moves": [{"tick": 0, "walker": 0, "skill": 1}],
    "outcomes": ["not_spawned"], "ticks": [], "rejected": {"move": 0, "reason": "not_spawned"}})
traces.append({"name": "hand: ticks going backwards are rejected",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(floater=2),
    "moves": [{"tick": 5, "walker": 0, "skill": 1}, {"tick": 4, "walker": 0, "skill": 1}],
    "outcomes": ["assigned", "time_backwards"], "ticks": [],
    "rejected": {"move": 1, "reason": "time_backwards"}})
traces.append({"name": "hand: a walker index beyond the crowd is rejected",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(floater=1), "moves": [{"tick": 1, "walker": 1, "skill": 1}],
    "outcomes": ["no_such_walker"], "ticks": [],
    "rejected": {"move": 0, "reason": "no_such_walker"}})
traces.append({"name": "hand: a move after the end is ignored but its tick is claimed",
    "rows": t2_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 100,
    "inventory": inv(floater=1), "moves": [{"tick": 200, "walker": 0, "skill": 1}],
    "outcomes": ["after_end"], "ticks": [],
    "result": {"completed": False, "score": 0, "duration_ms": 5000, "saved": 0, "quota": 1,
               "crowd": 1, "dead": 1, "ticks": 9, "skills_used": 0}})

# T3: a basher through a two-high earth wall, and the same skill a tick early.
t3_rows = ["E.......", "...#....", "...#...X", "========"]
seq = [w(0,1,1,F,0,1), w(0,2,1,F,0,2), w(0,2,1,W,0,0), w(1,2,1,W,0,0), w(2,2,1,W,0,0),
       w(3,2,1,BA,0,0), w(3,2,1,W,0,0), w(4,2,1,W,0,0), w(5,2,1,W,0,0), w(6,2,1,W,0,0),
       w(7,2,1,S,0,0)]
traces.append({"name": "hand: a basher carves one cell and walks out",
    "rows": t3_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 60,
    "inventory": inv(basher=1), "moves": [{"tick": 5, "walker": 0, "skill": 3}],
    "outcomes": ["assigned"],
    "ticks": [{"tick": t + 1, "walkers": [seq[t]]} for t in range(11)],
    "terrain_after": ["E.......", "...#....", ".......X", "========"],
    "result": {"completed": True, "score": 998989, "duration_ms": 125, "saved": 1, "quota": 1,
               "crowd": 1, "dead": 0, "ticks": 11, "skills_used": 1}})
seq = [w(0,1,1,F,0,1), w(0,2,1,F,0,2), w(0,2,1,W,0,0), w(0,2,1,W,0,0), w(1,2,1,W,0,0),
       w(2,2,1,W,0,0), w(2,2,-1,W,0,0), w(1,2,-1,W,0,0), w(0,2,-1,W,0,0), w(0,2,1,W,0,0)]
traces.append({"name": "hand: a basher with air ahead stops at once; the skill is spent",
    "rows": t3_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 30,
    "inventory": inv(basher=1), "moves": [{"tick": 3, "walker": 0, "skill": 3}],
    "outcomes": ["assigned"],
    "ticks": [{"tick": t + 1, "walkers": [seq[t]]} for t in range(10)],
    "terrain_after": t3_rows,
    "result": {"completed": False, "score": 0, "duration_ms": 75, "saved": 0, "quota": 1,
               "crowd": 1, "dead": 0, "ticks": 30, "skills_used": 1}})

# T4: a digger through an earth plug in a steel floor.
t4_rows = ["E....", ".....", "=#===", ".....", "...X.", "====="]
seq = [w(0,1,1,F,0,1), w(0,1,1,W,0,0), w(1,1,1,W,0,0), w(1,2,1,D,0,0), w(1,2,1,F,0,0),
       w(1,3,1,F,0,1), w(1,4,1,F,0,2), w(1,4,1,W,0,0), w(2,4,1,W,0,0), w(3,4,1,S,0,0)]
traces.append({"name": "hand: a digger breaks through and falls",
    "rows": t4_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 60,
    "inventory": inv(digger=1), "moves": [{"tick": 3, "walker": 0, "skill": 4}],
    "outcomes": ["assigned"],
    "ticks": [{"tick": t + 1, "walkers": [seq[t]]} for t in range(10)],
    "terrain_after": ["E....", ".....", "=.===", ".....", "...X.", "====="],
    "result": {"completed": True, "score": 998990, "duration_ms": 75, "saved": 1, "quota": 1,
               "crowd": 1, "dead": 0, "ticks": 10, "skills_used": 1}})

# T5: a climber given in mid-air climbs a three-high steel wall.
t5_rows = ["E.....", "......", "...=..", "...=..", "...=.X", "======"]
seq = [w(0,1,1,F,0,1), w(0,2,1,F,1,2), w(0,3,1,F,1,3), w(0,4,1,F,1,4), w(0,4,1,W,1,0),
       w(1,4,1,W,1,0), w(2,4,1,W,1,0), w(2,4,1,C,1,0), w(2,3,1,C,1,0), w(2,2,1,C,1,0),
       w(3,1,1,W,1,0), w(4,1,1,W,1,0), w(4,2,1,F,1,1), w(4,3,1,F,1,2), w(4,4,1,F,1,3),
       w(4,4,1,W,1,0), w(5,4,1,S,1,0)]
traces.append({"name": "hand: a climber climbs a wall and drops off the far side",
    "rows": t5_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 60,
    "inventory": inv(climber=1), "moves": [{"tick": 1, "walker": 0, "skill": 0}],
    "outcomes": ["assigned"],
    "ticks": [{"tick": t + 1, "walkers": [seq[t]]} for t in range(17)],
    "result": {"completed": True, "score": 998983, "duration_ms": 25, "saved": 1, "quota": 1,
               "crowd": 1, "dead": 0, "ticks": 17, "skills_used": 1}})

# T5b: a one-cell step up both ways, and a climber at the edge that meets
# an overhang, lets go facing away and walks home (the generator's band ends).
t5b_rows = [".E..", "...=", "....", "X.#.", "===="]
seq = [w(1,1,1,F,0,1), w(1,2,1,F,1,2), w(1,3,1,F,1,3), w(1,3,1,W,1,0), w(2,2,1,W,1,0),
       w(3,2,1,W,1,0), w(3,3,1,F,1,1), w(3,3,1,W,1,0), w(3,3,1,C,1,0), w(3,2,1,C,1,0),
       w(3,2,-1,F,1,0), w(3,3,-1,F,1,1), w(3,3,-1,W,1,0), w(2,2,-1,W,1,0), w(1,2,-1,W,1,0),
       w(1,3,-1,F,1,1), w(1,3,-1,W,1,0), w(0,3,-1,S,1,0)]
traces.append({"name": "hand: step up, climb the edge, let go under an overhang, step up home",
    "rows": t5b_rows, "crowd": 1, "quota": 1, "interval": 1, "cap": 60,
    "inventory": inv(climber=1), "moves": [{"tick": 1, "walker": 0, "skill": 0}],
    "outcomes": ["assigned"],
    "ticks": [{"tick": t + 1, "walkers": [seq[t]]} for t in range(18)],
    "result": {"completed": True, "score": 998982, "duration_ms": 25, "saved": 1, "quota": 1,
               "crowd": 1, "dead": 0, "ticks": 18, "skills_used": 1}})

# T6: a blocker turns the second walker home; a basher for a blocker is busy.
t6_rows = [".E.....", "X......", "======="]
a = [w(1,1,1,F,0,1), w(1,1,1,W,0,0), w(2,1,1,W,0,0), w(2,1,1,B,0,0), w(2,1,1,B,0,0),
     w(2,1,1,B,0,0)]
b = [w(1,1,1,F,0,1), w(1,1,1,W,0,0), w(1,1,-1,W,0,0), w(0,1,-1,S,0,0)]
ticks = [{"tick": 1, "walkers": [a[0]]}, {"tick": 2, "walkers": [a[1]]}]
for t in range(3, 7):
    ticks.append({"tick": t, "walkers": [a[t - 1], b[t - 3]]})
traces.append({"name": "hand: a blocker turns the next walker; a basher for a blocker is busy",
    "rows": t6_rows, "crowd": 2, "quota": 1, "interval": 2, "cap": 60,
    "inventory": inv(blocker=1, basher=1),
    "moves": [{"tick": 3, "walker": 0, "skill": 2}, {"tick": 4, "walker": 0, "skill": 3}],
    "outcomes": ["assigned", "busy"], "ticks": ticks,
    "result": {"completed": True, "score": 998994, "duration_ms": 100, "saved": 1, "quota": 1,
               "crowd": 2, "dead": 0, "ticks": 6, "skills_used": 1}})


# Version 2 measures duration_ms to the end of the run (25 ms a tick up to
# the tick the run was over), not to the last move. The same worked traces
# under version 2: only duration_ms changes.
def under_version_2(trace, name, ticks_run):
    t = json.loads(json.dumps(trace))
    t["name"] = "hand: version 2: " + name
    t["version"] = 2
    t["result"]["duration_ms"] = 25 * ticks_run
    return t
traces.append(under_version_2(traces[0], "duration runs to the end of the run (11 ticks, 275 ms; version 1: 225)", 11))
traces.append(under_version_2(traces[1], "the floater's run lasts 11 ticks after its last move at tick 2 (275 ms; version 1: 50)", 11))
traces.append(under_version_2(traces[2], "with no moves the run still lasts until the walker dies (9 ticks, 225 ms; version 1: 0)", 9))

# Structural keys of generated levels, read off the level table and the
# "level record" formulas (cap = 6*W*bands + crowd*interval + 200; a
# one-band level has no spacing draws, so H = 6 + 1).
levels = [
    {"name": "hand: level 1 seed 0, the table row and the one-band height", "version": 1,
     "level": 1, "seed": 0,
     "expect": {"width": 16, "height": 7, "crowd": 5, "quota": 4, "interval": 4, "cap": 316}},
    {"name": "hand: level 2 seed 99, the table row and the one-band height", "version": 1,
     "level": 2, "seed": 99,
     "expect": {"width": 20, "height": 7, "crowd": 5, "quota": 4, "interval": 4, "cap": 340}},
    {"name": "hand: level 3 seed 1, the cap of a two-band level", "version": 1,
     "level": 3, "seed": 1,
     "expect": {"width": 20, "crowd": 6, "quota": 5, "interval": 4, "cap": 464}},
    {"name": "hand: level 15 seed 7, the top row", "version": 1, "level": 15, "seed": 7,
     "expect": {"width": 40, "crowd": 14, "quota": 12, "interval": 4, "cap": 1216}},
]


# The crowd gate (spec.md, "Versions"): level 10 with seed 2415085370 was
# accepted under version 1 with a crowd plan that saves 9 of 10 (the fair-play
# review found it with its own port); version 2 asks for the whole crowd, so
# that candidate is turned down and the third is the level. The plans and the
# boards below are the `gen` and `replay` output of that level (the C code's,
# and for version 1 the review's); the port pins them independently once it
# knows version 2.
levels += [
    {"name": "hand: version 1, level 10 seed 2415085370: the first candidate passes the quota-only crowd gate",
     "version": 1, "level": 10, "seed": 2415085370,
     "expect": {"width": 32, "crowd": 10, "quota": 8, "candidates": 1, "terrain_hash": 572701281,
                "rejected": {"unsolvable": 0, "slack": 0, "shortcut": 0, "thin": 0, "back_loaded": 0, "crowd": 0}}},
    {"name": "hand: version 2, level 10 seed 2415085370: the crowd gate turns that candidate down (it saves 9 of 10)",
     "version": 2, "level": 10, "seed": 2415085370,
     "expect": {"width": 32, "crowd": 10, "quota": 8, "candidates": 3, "terrain_hash": 3576730902,
                "rejected": {"unsolvable": 0, "slack": 1, "shortcut": 0, "thin": 0, "back_loaded": 0, "crowd": 1}}},
]
replays = [
    dict({"name": "hand: version 1, level 10 seed 2415085370: its crowd plan saves 9 of 10 (walker 9 gets no floater)"},
         **json.loads('{"version":1,"level":10,"seed":2415085370,"board_before":{"tick":0,"ended":false,"hash":1605059466,"left":{"climber":10,"floater":10,"blocker":0,"basher":2,"digger":1},"walkers":[],"terrain":["................................",".E..............................","................................","=....=.........................=",".....=..........................",".....=..........................","=================##===========#=","................................","................................","................................",".............................===","................................","=..............................=","................................","................................","=.===##=========================","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","=..........##....#.............=","...........##....#..............","...........##....#............X.","================================"]},"moves":[{"tick":8,"walker":0,"skill":0},{"tick":12,"walker":1,"skill":0},{"tick":16,"walker":2,"skill":0},{"tick":20,"walker":3,"skill":0},{"tick":24,"walker":4,"skill":0},{"tick":28,"walker":5,"skill":0},{"tick":32,"walker":6,"skill":0},{"tick":36,"walker":7,"skill":0},{"tick":40,"walker":8,"skill":0},{"tick":44,"walker":9,"skill":0},{"tick":61,"walker":0,"skill":4},{"tick":71,"walker":0,"skill":1},{"tick":74,"walker":1,"skill":1},{"tick":78,"walker":2,"skill":1},{"tick":82,"walker":3,"skill":1},{"tick":86,"walker":4,"skill":1},{"tick":90,"walker":5,"skill":1},{"tick":94,"walker":6,"skill":1},{"tick":98,"walker":7,"skill":1},{"tick":102,"walker":8,"skill":1},{"tick":116,"walker":0,"skill":3},{"tick":123,"walker":0,"skill":3}],"outcomes":["assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned"],"board_after":{"tick":123,"ended":false,"hash":4190138139,"left":{"climber":0,"floater":1,"blocker":0,"basher":0,"digger":0},"walkers":[{"x":16,"y":25,"dir":1,"act":4,"traits":3,"fall":0},{"x":14,"y":25,"dir":1,"act":0,"traits":3,"fall":0},{"x":10,"y":25,"dir":1,"act":0,"traits":3,"fall":0},{"x":6,"y":25,"dir":1,"act":0,"traits":3,"fall":0},{"x":2,"y":25,"dir":1,"act":0,"traits":3,"fall":0},{"x":0,"y":24,"dir":1,"act":1,"traits":3,"fall":0},{"x":1,"y":25,"dir":-1,"act":0,"traits":3,"fall":0},{"x":1,"y":22,"dir":-1,"act":1,"traits":3,"fall":7},{"x":1,"y":18,"dir":-1,"act":1,"traits":3,"fall":4},{"x":17,"y":14,"dir":1,"act":7,"traits":1,"fall":7}],"terrain":["................................",".E..............................","................................","=....=.........................=",".....=..........................",".....=..........................","=================.#===========#=","................................","................................","................................",".............................===","................................","=..............................=","................................","................................","=.===##=========================","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","...........##....#..............","=..........##....#.............=","...........##....#..............",".................#............X.","================================"]},"result":{"completed":true,"score":8977833,"duration_ms":3075,"saved":9,"quota":8,"crowd":10,"dead":1,"ticks":167,"skills_used":22}}')),
    dict({"name": "hand: version 2, level 10 seed 2415085370: its crowd plan saves all 10; duration_ms runs to tick 179"},
         **json.loads('{"version":2,"level":10,"seed":2415085370,"board_before":{"tick":0,"ended":false,"hash":2254978137,"left":{"climber":10,"floater":0,"blocker":0,"basher":4,"digger":0},"walkers":[],"terrain":["...........##...................",".E.........##...................","...........##...................","=....#.....##..................=",".....#.....##...................",".....#.....##...................","==============================.=","........#.......................","........#.....#.................","........#.....#.................","........#.....#..............===","........#.....#.................","=.......#.....#................=","........#.....#.................","........#.....#.................","=.==============================",".................#..............",".................#..............",".................#..............",".................#..............","===..............#..............",".................#..............",".................#..............","=................#.............=",".................#..............",".................#............X.","================================"]},"moves":[{"tick":8,"walker":0,"skill":0},{"tick":12,"walker":1,"skill":0},{"tick":16,"walker":2,"skill":0},{"tick":20,"walker":3,"skill":0},{"tick":21,"walker":0,"skill":3},{"tick":24,"walker":4,"skill":0},{"tick":28,"walker":5,"skill":0},{"tick":32,"walker":6,"skill":0},{"tick":36,"walker":7,"skill":0},{"tick":40,"walker":8,"skill":0},{"tick":44,"walker":9,"skill":0},{"tick":77,"walker":0,"skill":3},{"tick":84,"walker":0,"skill":3},{"tick":132,"walker":0,"skill":3}],"outcomes":["assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned","assigned"],"board_after":{"tick":132,"ended":false,"hash":2982853722,"left":{"climber":0,"floater":0,"blocker":0,"basher":0,"digger":0},"walkers":[{"x":16,"y":25,"dir":1,"act":4,"traits":1,"fall":0},{"x":15,"y":25,"dir":1,"act":0,"traits":1,"fall":0},{"x":11,"y":25,"dir":1,"act":0,"traits":1,"fall":0},{"x":7,"y":25,"dir":1,"act":0,"traits":1,"fall":0},{"x":3,"y":25,"dir":1,"act":0,"traits":1,"fall":0},{"x":3,"y":22,"dir":1,"act":1,"traits":1,"fall":3},{"x":2,"y":19,"dir":1,"act":0,"traits":1,"fall":0},{"x":0,"y":18,"dir":1,"act":1,"traits":1,"fall":2},{"x":0,"y":17,"dir":-1,"act":2,"traits":1,"fall":0},{"x":1,"y":19,"dir":-1,"act":0,"traits":1,"fall":0}],"terrain":["...........##...................",".E.........##...................","...........##...................","=....#.....##..................=",".....#.....##...................",".....#..........................","==============================.=","........#.......................","........#.....#.................","........#.....#.................","........#.....#..............===","........#.....#.................","=.......#.....#................=","........#.....#.................","................................","=.==============================",".................#..............",".................#..............",".................#..............",".................#..............","===..............#..............",".................#..............",".................#..............","=................#.............=",".................#..............",".................#............X.","================================"]},"result":{"completed":true,"score":9985821,"duration_ms":4475,"saved":10,"quota":8,"crowd":10,"dead":0,"ticks":179,"skills_used":14}}')),
]

doc = {
    "game": "driftlings",
    "format": 1,
    "levels": levels,
    "replays": replays,
    "traces": traces,
}
with open("vectors/driftlings.json", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
