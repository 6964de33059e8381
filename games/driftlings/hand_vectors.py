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

doc = {
    "game": "driftlings",
    "format": 1,
    "levels": levels,
    "replays": [],
    "traces": traces,
}
with open("vectors/driftlings.json", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
