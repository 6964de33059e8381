"""
spec_ref: Contraption v1 transcribed from games/contraption/spec.md alone,
in plain Python integers (// is floor division, exactly the spec's fdiv).

This is how the `hand:` cases of vectors/contraption.json were worked: the
C code never wrote a vector; make_vectors.py runs this transcription and the
C suite (tests/unit/test_contraption.c) must reproduce its output. It is a
reference for the spec, not a second implementation to maintain: a rule
change goes into spec.md first, then here, then into the C code.
"""
M32 = 0xffffffff

def fdiv(a, b):
    return a // b  # Python // is floor division

def bounce(v):
    return -fdiv(v, 4) if v >= 0 else fdiv(-v, 4)

def friction(v):
    if v > 0: return max(0, v - 2)
    if v < 0: return min(0, v + 2)
    return 0

def clamp(v):
    return min(384, max(-384, v))

def trig(m):
    Q = 1 << 20
    t = abs(m)
    x = fdiv(t * Q, 1000)
    x2 = fdiv(x * x, Q)
    r = Q - fdiv(x2, 110)
    for k in (72, 42, 20, 6):
        r = Q - fdiv(fdiv(x2 * r, Q), k)
    s20 = fdiv(x * r, Q)
    r = Q - fdiv(x2, 132)
    for k in (90, 56, 30, 12, 2):
        r = Q - fdiv(fdiv(x2 * r, Q), k)
    c20 = r
    s = fdiv(s20 + 32, 64); c = fdiv(c20 + 32, 64)
    if m < 0: s = -s
    return s, c

class Rng:
    def __init__(self, seed): self.s = seed & M32
    def next(self):
        self.s = (self.s + 0x6d2b79f5) & M32
        s = self.s
        t = ((s ^ (s >> 15)) * (1 | s)) & M32
        t = ((t + (((t ^ (t >> 7)) * (61 | t)) & M32)) & M32) ^ t
        return (t ^ (t >> 14)) & M32
    def below(self, n): return self.next() % n

def inside(b, x, y):
    return b[0] <= x < b[2] and b[1] <= y < b[3]

def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

def sub(b): return [v * 256 for v in b]

def make_part(kind, x, y, angle):
    s, c = trig(angle)
    cx, cy = 256 * x, 256 * y
    if kind == 0:
        ex = fdiv(2560 * abs(c), 16384) + 512
        ey = fdiv(2560 * abs(s), 16384) + 512
    else:
        ex = ey = 2048
    return dict(kind=kind, x=x, y=y, angle=angle, s=s, c=c, cx=cx, cy=cy,
                foot=[cx - ex, cy - ey, cx + ex, cy + ey])

BOUNDARY = [sub([-8, -8, 0, 148]), sub([100, -8, 108, 148]), sub([-8, -8, 108, 0])]

def check(level_walls, left, placed, kind, x, y, angle):
    """level_walls in units; returns (code, part)"""
    if len(placed) >= 8 or kind not in (0, 1) or left[kind] <= 0: return 'no_part_left', None
    if angle < -1400 or angle > 1400: return 'bad_angle', None
    if x < 0 or x > 100 or y < 0 or y > 140: return 'out_of_field', None
    p = make_part(kind, x, y, angle)
    f = p['foot']
    if f[0] < 0 or f[1] < 0 or f[2] > 25600 or f[3] > 35840: return 'out_of_field', None
    for w in level_walls:
        if overlap(f, sub(w)): return 'overlaps_wall', None
    for q in placed:
        if overlap(f, q['foot']): return 'overlaps_part', None
    return 'placed', p

def simulate(ball, goal, level_walls, parts, trace=None):
    walls = BOUNDARY + [sub(w) for w in level_walls]
    goalb = sub(goal)
    x, y, vx, vy = 256 * ball[0], 256 * ball[1], ball[2], 0
    H = 2560 * 16384; T = 256 * 16384; D = 16384 * 16384
    t = 0
    while True:
        t += 1
        px, py, pvx, pvy = x, y, vx, vy
        vy += 16
        for p in parts:
            if p['kind'] == 1:
                dx, dy = px - p['cx'], py - p['cy']
                if dx * dx + dy * dy < 2048 * 2048:
                    vx += fdiv(24 * p['s'], 16384)
                    vy += fdiv(-24 * p['c'], 16384)
        vx = clamp(vx); vy = clamp(vy)
        nx = x + vx; hit = False
        for w in walls:
            if inside(w, nx, y):
                hit = True
                nx = w[0] - 1 if vx > 0 else w[2]
        x = nx
        if hit: vx = bounce(vx)
        ny = y + vy; hit = False
        for w in walls:
            if inside(w, x, ny):
                hit = True
                ny = w[1] - 1 if vy > 0 else w[3]
        y = ny
        if hit:
            vy = bounce(vy); vx = friction(vx)
        for p in parts:
            if p['kind'] != 0: continue
            s, c, cx, cy = p['s'], p['c'], p['cx'], p['cy']
            s_old = -(px - cx) * s + (py - cy) * c
            rx, ry = x - cx, y - cy
            along = rx * c + ry * s
            across = -rx * s + ry * c
            side = 1 if s_old >= 0 else -1
            if -H <= along <= H and side * across < T:
                push = side * T - across
                x = x + fdiv(push * (-s), D)
                y = y + fdiv(push * c, D)
                vn = -vx * s + vy * c
                if side * vn < 0:
                    vt = vx * c + vy * s
                    vn = bounce(vn)
                    vx, vy = fdiv(vt * c - vn * s, D), fdiv(vt * s + vn * c, D)
        if trace is not None: trace.append([x, y, vx, vy])
        if inside(goalb, x, y): return dict(reached=True, arrival_tick=t, ticks=t, end=0)
        if y >= 35840: end = 1
        elif (x, y, vx, vy) == (px, py, pvx, pvy): end = 2
        elif t == 600: end = 3
        else: continue
        return dict(reached=False, arrival_tick=-1, ticks=t, end=end)

TABLE = [(0,1,16,110,3,0),(1,2,14,105,3,0),(1,3,14,100,2,0),(2,3,12,100,2,1),(2,4,12,95,2,1),
         (3,4,12,95,2,0),(3,5,10,95,2,1),(3,5,10,90,1,1),(4,5,10,90,2,2),(4,6,10,90,1,1),
         (4,7,8,90,2,1),(5,7,8,90,1,1),(6,8,8,90,1,2),(7,9,8,90,1,1),(8,10,8,90,1,1)]

def candidate(rng, row):
    wmin, wmax, gw, gymin, ramps, fans = row
    bx = 10 + rng.below(81); by = 4 + rng.below(9); bvx = rng.below(161) - 80
    gx = 4 + rng.below(93 - gw); gy = gymin + rng.below(129 - gymin)
    n = wmin + rng.below(wmax - wmin + 1)
    goal = [gx, gy, gx + gw, gy + 6]
    walls = [[gx - 2, gy + 6, gx + gw + 2, gy + 9]]
    reserve = [gx - 2, gy - 6, gx + gw + 2, gy + 9]
    dropped = 0
    for _ in range(n):
        kind = rng.below(3); ln = 10 + rng.below(21)
        w, h = (ln, 3) if kind < 2 else (3, ln)
        wx = rng.below(101 - w); wy = 18 + rng.below(108 - h)
        b = [wx, wy, wx + w, wy + h]
        if overlap(b, reserve): dropped += 1
        else: walls.append(b)
    return dict(ball=[bx, by, bvx], goal=goal, walls=walls, dropped_walls=dropped)

def generate(level, seed):
    row = TABLE[level - 1]
    inv = {'ramp': row[4], 'fan': row[5]}
    left = [row[4], row[5]]
    rng = Rng(seed)
    pre = nosw = sims = 0
    fb = None
    for attempt in range(1, 1001):
        cand = candidate(rng, row)
        sims += 1
        bare = simulate(cand['ball'], cand['goal'], cand['walls'], [])
        if bare['reached']:
            pre += 1
        else:
            plan = None
            for x in range(15, 86, 14):
                for y in range(30, 121, 18):
                    for a in (450, -450, 800, -800):
                        code, p = check(cand['walls'], left, [], 0, x, y, a)
                        if code != 'placed': continue
                        sims += 1
                        r = simulate(cand['ball'], cand['goal'], cand['walls'], [p])
                        if r['reached']:
                            plan = ({'part': 0, 'x': x, 'y': y, 'angle': a}, r); break
                    if plan: break
                if plan: break
            if plan:
                out = dict(width=100, height=140, **cand, inventory=inv, attempts=attempt, issued=attempt,
                           discarded={'pre_solved': pre, 'no_sweep_solution': nosw}, sims=sims,
                           fallback=False, plan=[plan[0]], plan_arrival_tick=plan[1]['arrival_tick'])
                return out
            nosw += 1
            if fb is None: fb = (cand, attempt)
        if attempt >= 40 and fb is not None:
            return dict(width=100, height=140, **fb[0], inventory=inv, attempts=attempt, issued=fb[1],
                        discarded={'pre_solved': pre, 'no_sweep_solution': nosw}, sims=sims,
                        fallback=True, plan=[], plan_arrival_tick=-1)
    return dict(width=100, height=140, **cand, inventory=inv, attempts=1000, issued=1000,
                discarded={'pre_solved': pre, 'no_sweep_solution': nosw}, sims=sims,
                fallback=True, trivial=True, plan=[], plan_arrival_tick=-1)

# Version 2 (spec.md, "Versions" and 5.1): the same level; a placement
# carries t, at least PART_GAP after the previous one (the first after 0);
# duration_ms = last t + TICK_MS per simulated tick.
PART_GAP = 1000
TICK_MS = 20

def generate_v(level, seed, version):
    g = generate(level, seed)
    if version >= 2:
        g['plan'] = [dict(m, t=PART_GAP) for m in g['plan']]
        g['part_gap_ms'] = PART_GAP
        g['tick_ms'] = TICK_MS
    return g

def replay(level, seed, moves, version=1):
    lv = generate(level, seed)
    left = [lv['inventory']['ramp'], lv['inventory']['fan']]
    placed = []; times = []; outcomes = []
    def board():
        out = []
        for p, t in zip(placed, times):
            m = {'part': p['kind'], 'x': p['x'], 'y': p['y'], 'angle': p['angle']}
            if version >= 2: m['t'] = t
            out.append(m)
        return {'placed': out, 'left': {'ramp': left[0], 'fan': left[1]}}
    before = board()
    for i, m in enumerate(moves):
        code, p = check(lv['walls'], left, placed, m['part'], m['x'], m['y'], m['angle'])
        if code == 'placed' and version >= 2:
            prev_t = times[-1] if times else 0
            if m['t'] < prev_t: code = 'time_backwards'
            elif m['t'] - prev_t < PART_GAP: code = 'too_fast'
        outcomes.append(code)
        if code != 'placed':
            return dict(board_before=before, outcomes=outcomes, rejected={'move': i, 'reason': code})
        placed.append(p); times.append(m.get('t', 0)); left[p['kind']] -= 1
    r = simulate(lv['ball'], lv['goal'], lv['walls'], placed)
    n = len(placed)
    duration = -1
    if version >= 2:
        duration = (times[-1] if times else 0) + TICK_MS * r['ticks']
    res = dict(completed=r['reached'], score=(100000 - 10000 * n - r['arrival_tick']) if r['reached'] else 0,
               duration_ms=duration, arrival_tick=r['arrival_tick'], parts_used=n, ticks=r['ticks'], end=r['end'])
    return dict(board_before=before, outcomes=outcomes, board_after=board(), result=res)

def fnv(text):
    h = 0x811c9dc5
    for b in text.encode('utf-8'):
        h = ((h ^ b) * 16777619) & M32
    return h
