"""
make_vectors: writes vectors/contraption.json from spec_ref (the spec
transcription). Run from the repository root:
    python3 games/contraption/tools/make_vectors.py vectors/contraption.json
"""
import json
import os
import re
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spec_ref import *

V = {"game": "contraption", "format": 1}
V["trig"] = [{"name": "hand: trig(%d)" % m, "mrad": m, "sin": trig(m)[0], "cos": trig(m)[1]}
             for m in (-1400, -1000, -800, -450, -1, 0, 1, 100, 450, 500, 785, 800, 1000, 1200, 1399, 1400)]

def trace(name, field, moves):
    parts = []
    left = [9, 9]
    for m in moves:
        code, p = check(field['walls'], left, parts, m['part'], m['x'], m['y'], m['angle'])
        assert code == 'placed', (name, code)
        parts.append(p)
    tr = []
    r = simulate(field['ball'], field['goal'], field['walls'], parts, tr)
    assert len(tr) == r['ticks']
    return {"name": "hand: " + name, "field": field, "moves": moves, "ticks": tr, "run": r}

T = []
T.append(trace("free fall onto a ledge, then at rest",
               {"ball": [50, 5, 0], "goal": [80, 120, 90, 126], "walls": [[78, 126, 92, 129], [40, 40, 60, 43]]}, []))
T.append(trace("right boundary bounce, landing, floor friction, rest",
               {"ball": [96, 5, 80], "goal": [4, 120, 14, 126], "walls": [[2, 126, 16, 129], [60, 30, 100, 33]]}, []))
lv = generate(1, 3)
T.append(trace("level 1 seed 3: the sweep's ramp brings the ball to the goal",
               {"ball": lv['ball'], "goal": lv['goal'], "walls": lv['walls']}, lv['plan']))
T.append(trace("a tilted fan pushes the ball sideways; it falls out of the bottom",
               {"ball": [50, 5, 0], "goal": [4, 120, 14, 126], "walls": [[2, 126, 16, 129]]},
               [{"part": 1, "x": 50, "y": 40, "angle": 600}]))
T.append(trace("two ramps in placement order (steep right, then left), one fan straight up",
               {"ball": [30, 5, 10], "goal": [60, 120, 72, 126], "walls": [[58, 126, 74, 129], [0, 90, 20, 93]]},
               [{"part": 0, "x": 30, "y": 30, "angle": 800}, {"part": 0, "x": 55, "y": 60, "angle": -450},
                {"part": 1, "x": 40, "y": 80, "angle": 0}]))
T.append(trace("ball starts inside a flat ramp's band and is pushed out",
               {"ball": [50, 20, -40], "goal": [4, 120, 14, 126], "walls": [[2, 126, 16, 129]]},
               [{"part": 0, "x": 50, "y": 20, "angle": 0}]))
T.append(trace("a fan straight up under the ball holds it hovering until the tick cap",
               {"ball": [50, 12, 0], "goal": [4, 120, 14, 126], "walls": [[2, 126, 16, 129]]},
               [{"part": 1, "x": 50, "y": 24, "angle": 0}]))
for t in T: print(t['name'], t['run'], file=sys.stderr)
V["traces"] = T

V["daily"] = []
dates = [(2026, 7, 28), (1970, 1, 1), (2000, 2, 29), (2026, 1, 1), (2026, 12, 31), (9999, 12, 31)]
dates += [(2026, 12, d) for d in range(1, 15)]
for (y, m, d) in dates:
    text = "contraption:%d-%d-%d" % (y, m, d)
    V["daily"].append({"name": "hand: " + text, "date": "%04d-%02d-%02d" % (y, m, d), "text": text, "seed": fnv(text)})

V["levels"] = []
for level in range(1, 16):
    for seed in (0, 1, 42, 4294967295):
        g = generate(level, seed)
        V["levels"].append({"name": "hand: level %d seed %d" % (level, seed), "version": 1, "level": level,
                            "seed": seed, "expect": g})

def rp(name, level, seed, moves, version=1):
    r = replay(level, seed, moves, version)
    case = {"name": "hand: " + name, "version": version, "level": level, "seed": seed,
            "board_before": r["board_before"], "moves": moves, "outcomes": r["outcomes"]}
    if "rejected" in r: case["rejected"] = r["rejected"]
    else:
        case["board_after"] = r["board_after"]; case["result"] = r["result"]
    print(name, r.get('result') or r.get('rejected'), file=sys.stderr)
    return case

R = []
p10 = generate(1, 0)['plan']
R.append(rp("level 1 seed 0, the sweep's plan", 1, 0, p10))
R.append(rp("level 1 seed 0, the bare ball (no moves) misses", 1, 0, []))
R.append(rp("level 1 seed 0, the plan plus a spare ramp out of the way costs 10000", 1, 0,
            p10 + [{"part": 0, "x": 85, "y": 20, "angle": 0}]))
R.append(rp("level 1 seed 0, a ramp that sends the ball the wrong way", 1, 0,
            [{"part": 0, "x": 18, "y": 30, "angle": -800}]))
R.append(rp("level 1 grants no fan: no_part_left", 1, 0, [{"part": 1, "x": 50, "y": 50, "angle": 0}]))
R.append(rp("level 8 grants one ramp: the second is no_part_left", 8, 5,
            [{"part": 0, "x": 50, "y": 20, "angle": 0}, {"part": 0, "x": 20, "y": 20, "angle": 0}]))
R.append(rp("angle 1401: bad_angle", 1, 0, [{"part": 0, "x": 50, "y": 50, "angle": 1401}]))
R.append(rp("angle -1401: bad_angle (checked before the field)", 1, 0, [{"part": 0, "x": -5, "y": 50, "angle": -1401}]))
R.append(rp("centre left of the field: out_of_field", 1, 0, [{"part": 0, "x": -1, "y": 50, "angle": 0}]))
R.append(rp("ramp footprint past the left edge: out_of_field", 1, 0, [{"part": 0, "x": 11, "y": 50, "angle": 0}]))
R.append(rp("ramp footprint touching the left edge is inside", 1, 0, [{"part": 0, "x": 12, "y": 50, "angle": 0}]))
R.append(rp("fan footprint past the bottom: out_of_field", 4, 0, [{"part": 1, "x": 50, "y": 133, "angle": 0}]))
g = generate(1, 0); w = g['walls'][0]
R.append(rp("ramp on the goal shelf: overlaps_wall", 1, 0,
            [{"part": 0, "x": (w[0] + w[2]) // 2, "y": w[1], "angle": 0}]))
R.append(rp("two ramps on the same spot: overlaps_part", 1, 0,
            [{"part": 0, "x": 50, "y": 50, "angle": 450}, {"part": 0, "x": 52, "y": 52, "angle": -450}]))
R.append(rp("a move after a rejected one is not reached", 1, 0,
            [{"part": 0, "x": 50, "y": 50, "angle": 2000}, {"part": 0, "x": 50, "y": 80, "angle": 0}]))
for (lvn, seed) in ((4, 0), (9, 42), (13, 1), (15, 0), (15, 4294967295)):
    gg = generate(lvn, seed)
    R.append(rp("level %d seed %d, the sweep's plan" % (lvn, seed), lvn, seed, gg['plan']))
gg = generate(9, 42)
R.append(rp("level 9 seed 42, the plan plus two fans", 9, 42,
            gg['plan'] + [{"part": 1, "x": 10, "y": 130, "angle": 1400}, {"part": 1, "x": 90, "y": 130, "angle": -1400}]))

# Version 2: every placement carries t (spec.md 5.1).
def at(moves, *ts):
    return [dict(m, t=t) for m, t in zip(moves, ts)]
for (lvn, seed) in ((1, 0), (15, 0)):
    g2 = generate_v(lvn, seed, 2)
    V["levels"].append({"name": "hand: version 2, level %d seed %d: the same level, the plan placed at t = 1000"
                        % (lvn, seed), "version": 2, "level": lvn, "seed": seed,
                        "expect": {k: g2[k] for k in ("ball", "goal", "walls", "inventory", "plan",
                                                      "plan_arrival_tick", "part_gap_ms", "tick_ms")}})
R.append(rp("version 2, level 1 seed 0: the plan at t = 1000 (the floor); the run counts 20 ms a tick", 1, 0,
            at(p10, 1000), 2))
R.append(rp("version 2, level 1 seed 0: the plan at t = 999 is too_fast", 1, 0, at(p10, 999), 2))
R.append(rp("version 2, level 1 seed 0: no moves: the bare ball's run alone is the duration", 1, 0, [], 2))
spare = {"part": 0, "x": 85, "y": 20, "angle": 0}
R.append(rp("version 2, level 1 seed 0: a second part 1000 ms after the first is placed", 1, 0,
            at(p10 + [spare], 1500, 2500), 2))
R.append(rp("version 2, level 1 seed 0: a second part 999 ms after the first is too_fast", 1, 0,
            at(p10 + [spare], 1500, 2499), 2))
R.append(rp("version 2, level 1 seed 0: a second part earlier than the first is time_backwards", 1, 0,
            at(p10 + [spare], 5000, 4999), 2))
R.append(rp("version 2: the placement checks come before the time rules (bad_angle at t = 0)", 1, 0,
            [{"part": 0, "x": 50, "y": 50, "angle": 1401, "t": 0}], 2))
R.append(rp("version 2, level 1 seed 0: an overlap at a time that is also too fast is overlaps_part", 1, 0,
            at([{"part": 0, "x": 50, "y": 50, "angle": 450}, {"part": 0, "x": 52, "y": 52, "angle": -450}],
               1000, 1200), 2))
g15 = generate(15, 0)
R.append(rp("version 2, level 15 seed 0: the plan at the floor", 15, 0, at(g15['plan'], 1000), 2))
V["replays"] = R

s = json.dumps(V, indent=1)
# put short numeric arrays on one line
s = re.sub(r'\[\s+(-?\d+),\s+(-?\d+),\s+(-?\d+)\s+\]', r'[\1, \2, \3]', s)
s = re.sub(r'\[\s+(-?\d+),\s+(-?\d+),\s+(-?\d+),\s+(-?\d+)\s+\]', r'[\1, \2, \3, \4]', s)
open(sys.argv[1], 'w').write(s + "\n")
