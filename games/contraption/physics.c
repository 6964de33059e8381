/*
 * physics: trig series, footprints and the tick loop (spec.md, "Physics").
 * The order of every step and every collision test is the contract; a port
 * that reorders two tests will diverge.
 */
#include "physics.h"

#define Q20 1048576

/* Horner steps r = 1 - x2 / k * r, in 1/2^20 units, innermost first. */
static int64_t series(int64_t x2, const int *k, int n)
{
    int64_t r = Q20 - ct_fdiv(x2, k[0]);
    for (int i = 1; i < n; i++)
        r = Q20 - ct_fdiv(ct_fdiv(x2 * r, Q20), k[i]);
    return r;
}

void ct_trig(int32_t mrad, int32_t *sin_out, int32_t *cos_out)
{
    static const int ks[5] = { 110, 72, 42, 20, 6 };
    static const int kc[6] = { 132, 90, 56, 30, 12, 2 };
    int64_t t = mrad < 0 ? -(int64_t)mrad : mrad;
    int64_t x = ct_fdiv(t * Q20, 1000);
    int64_t x2 = ct_fdiv(x * x, Q20);
    int64_t s20 = ct_fdiv(x * series(x2, ks, 5), Q20);
    int64_t c20 = series(x2, kc, 6);
    int32_t s = (int32_t)ct_fdiv(s20 + 32, 64);
    *sin_out = mrad < 0 ? -s : s;
    *cos_out = (int32_t)ct_fdiv(c20 + 32, 64);
}

void ct_part_init(ct_part *p, int32_t kind, int32_t x, int32_t y, int32_t angle)
{
    p->kind = kind;
    p->x = x;
    p->y = y;
    p->angle = angle;
    ct_trig(angle, &p->sin, &p->cos);
    int32_t ex, ey;
    if (kind == CT_RAMP) {
        int32_t ac = p->cos < 0 ? -p->cos : p->cos;
        int32_t as = p->sin < 0 ? -p->sin : p->sin;
        ex = (int32_t)ct_fdiv((int64_t)CT_RAMP_HALF * ac, CT_ONE) + CT_RAMP_MARGIN;
        ey = (int32_t)ct_fdiv((int64_t)CT_RAMP_HALF * as, CT_ONE) + CT_RAMP_MARGIN;
    } else {
        ex = CT_FAN_RADIUS;
        ey = CT_FAN_RADIUS;
    }
    int32_t cx = x * CT_SUB, cy = y * CT_SUB;
    p->foot = (ct_box){ cx - ex, cy - ey, cx + ex, cy + ey };
}

bool ct_box_overlap(const ct_box *a, const ct_box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static bool inside(const ct_box *b, int32_t x, int32_t y)
{
    return b->x0 <= x && x < b->x1 && b->y0 <= y && y < b->y1;
}

/* A blocked component keeps a quarter of its magnitude, reversed. */
static int64_t bounce(int64_t v)
{
    return v >= 0 ? -ct_fdiv(v, 4) : ct_fdiv(-v, 4);
}

static int32_t clamp(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void fan_push(const ct_part *p, int32_t x0, int32_t y0, int32_t *vx, int32_t *vy)
{
    int64_t dx = x0 - p->x * CT_SUB, dy = y0 - p->y * CT_SUB;
    if (dx * dx + dy * dy >= (int64_t)CT_FAN_RADIUS * CT_FAN_RADIUS)
        return;
    *vx += (int32_t)ct_fdiv((int64_t)CT_FAN_ACCEL * p->sin, CT_ONE);
    *vy += (int32_t)ct_fdiv(-(int64_t)CT_FAN_ACCEL * p->cos, CT_ONE);
}

/* The ramp's solid band: |along| <= half length, |across| < thickness on
 * the side the ball was on at the start of the tick. */
static void ramp_hit(const ct_part *p, int32_t x0, int32_t y0, ct_tick *b)
{
    int64_t cx = (int64_t)p->x * CT_SUB, cy = (int64_t)p->y * CT_SUB;
    int64_t c = p->cos, s = p->sin;
    int64_t s_old = -(x0 - cx) * s + (y0 - cy) * c;
    int64_t rx = b->x - cx, ry = b->y - cy;
    int64_t along = rx * c + ry * s;
    int64_t across = -rx * s + ry * c;
    int64_t side = s_old >= 0 ? 1 : -1;
    const int64_t half = (int64_t)CT_RAMP_HALF * CT_ONE, thick = (int64_t)CT_RAMP_THICK * CT_ONE;
    if (along > half || along < -half || side * across >= thick)
        return;
    int64_t push = side * thick - across;
    b->x += (int32_t)ct_fdiv(push * -s, (int64_t)CT_ONE * CT_ONE);
    b->y += (int32_t)ct_fdiv(push * c, (int64_t)CT_ONE * CT_ONE);
    int64_t vn = -(int64_t)b->vx * s + (int64_t)b->vy * c;
    if (side * vn >= 0)
        return;
    int64_t vt = (int64_t)b->vx * c + (int64_t)b->vy * s;
    vn = bounce(vn);
    b->vx = (int32_t)ct_fdiv(vt * c - vn * s, (int64_t)CT_ONE * CT_ONE);
    b->vy = (int32_t)ct_fdiv(vt * s + vn * c, (int64_t)CT_ONE * CT_ONE);
}

/* Moves along one axis against every wall in order; true if any blocked. */
static bool move_x(const ct_field *f, ct_tick *b)
{
    int32_t nx = b->x + b->vx;
    bool hit = false;
    for (int i = 0; i < f->n_walls; i++) {
        const ct_box *w = &f->walls[i];
        if (inside(w, nx, b->y)) {
            hit = true;
            nx = b->vx > 0 ? w->x0 - 1 : w->x1;
        }
    }
    b->x = nx;
    return hit;
}

static bool move_y(const ct_field *f, ct_tick *b)
{
    int32_t ny = b->y + b->vy;
    bool hit = false;
    for (int i = 0; i < f->n_walls; i++) {
        const ct_box *w = &f->walls[i];
        if (inside(w, b->x, ny)) {
            hit = true;
            ny = b->vy > 0 ? w->y0 - 1 : w->y1;
        }
    }
    b->y = ny;
    return hit;
}

static int32_t friction(int32_t v)
{
    if (v > 0)
        return v > CT_WALL_FRICTION ? v - CT_WALL_FRICTION : 0;
    return v < -CT_WALL_FRICTION ? v + CT_WALL_FRICTION : 0;
}

static bool same(const ct_tick *a, const ct_tick *b)
{
    return a->x == b->x && a->y == b->y && a->vx == b->vx && a->vy == b->vy;
}

void ct_simulate(const ct_field *f, const ct_part *parts, int n_parts, ct_tick *trace,
                 int trace_cap, ct_run *out)
{
    ct_tick b = { f->ball_x, f->ball_y, f->ball_vx, f->ball_vy };
    out->reached = false;
    out->arrival_tick = -1;
    out->end = CT_END_CAP;
    int t = 0;
    while (t < CT_TICK_CAP) {
        t++;
        ct_tick prev = b;
        b.vy += CT_GRAVITY;
        for (int i = 0; i < n_parts; i++)
            if (parts[i].kind == CT_FAN)
                fan_push(&parts[i], prev.x, prev.y, &b.vx, &b.vy);
        b.vx = clamp(b.vx, -CT_VMAX, CT_VMAX);
        b.vy = clamp(b.vy, -CT_VMAX, CT_VMAX);
        if (move_x(f, &b))
            b.vx = (int32_t)bounce(b.vx);
        if (move_y(f, &b)) {
            b.vy = (int32_t)bounce(b.vy);
            b.vx = friction(b.vx);
        }
        for (int i = 0; i < n_parts; i++)
            if (parts[i].kind == CT_RAMP)
                ramp_hit(&parts[i], prev.x, prev.y, &b);
        if (trace && t <= trace_cap)
            trace[t - 1] = b;
        if (inside(&f->goal, b.x, b.y)) {
            out->reached = true;
            out->arrival_tick = t;
            out->end = CT_END_GOAL;
            break;
        }
        if (b.y >= CT_FIELD_H * CT_SUB) {
            out->end = CT_END_OUT;
            break;
        }
        if (same(&b, &prev)) {
            out->end = CT_END_REST;
            break;
        }
    }
    out->ticks = t;
    out->final = b;
}
