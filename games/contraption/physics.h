/*
 * physics: the fixed-point world of Contraption and its one simulate().
 *
 * Owns the units (positions in 1/256 of a field unit, trig in 1/16384),
 * floor division, the sine/cosine series, the part footprints and the tick
 * loop. Everything is integer arithmetic; every rule is in spec.md,
 * "Physics". The same simulate() judges a player's machine and, at
 * generation time, the level itself.
 */
#ifndef REPLAYD_GAMES_CONTRAPTION_PHYSICS_H
#define REPLAYD_GAMES_CONTRAPTION_PHYSICS_H

#include <stdbool.h>
#include <stdint.h>

#define CT_SUB 256        /* subunits per field unit (positions, velocities) */
#define CT_ONE 16384      /* trig scale: sin and cos are multiples of 1/16384 */
#define CT_FIELD_W 100    /* field width in units */
#define CT_FIELD_H 140    /* field height in units; y grows downwards */
#define CT_GRAVITY 16     /* subunits per tick per tick */
#define CT_VMAX 384       /* velocity clamp per component, subunits per tick */
#define CT_WALL_FRICTION 2
#define CT_TICK_CAP 600
#define CT_ANGLE_MAX 1400 /* milliradians, both part kinds */

#define CT_RAMP_HALF (10 * CT_SUB) /* half the ramp's length */
#define CT_RAMP_THICK CT_SUB       /* half the ramp's solid band */
#define CT_RAMP_MARGIN (2 * CT_SUB)
#define CT_FAN_RADIUS (8 * CT_SUB)
#define CT_FAN_ACCEL 24

#define CT_MAX_WALLS 16
#define CT_MAX_PARTS 8

enum { CT_RAMP = 0, CT_FAN = 1, CT_KINDS = 2 };
enum { CT_END_GOAL = 0, CT_END_OUT = 1, CT_END_REST = 2, CT_END_CAP = 3 };

/* Half-open box [x0, x1) x [y0, y1) in subunits. */
typedef struct ct_box {
    int32_t x0, y0, x1, y1;
} ct_box;

typedef struct ct_part {
    int32_t kind, x, y, angle; /* as placed: units and milliradians */
    int32_t sin, cos;          /* of angle, x CT_ONE */
    ct_box foot;               /* what may not overlap walls or other parts */
} ct_part;

typedef struct ct_field {
    int32_t ball_x, ball_y, ball_vx, ball_vy; /* subunits */
    ct_box goal;
    int n_walls;
    ct_box walls[CT_MAX_WALLS]; /* boundary walls first, in collision order */
} ct_field;

typedef struct ct_tick {
    int32_t x, y, vx, vy;
} ct_tick;

typedef struct ct_run {
    bool reached;
    int32_t arrival_tick; /* -1 unless reached */
    int32_t ticks;        /* ticks simulated */
    int end;              /* CT_END_* */
    ct_tick final;
} ct_run;

/* floor(a / b) for b > 0, whatever the sign of a. */
static inline int64_t ct_fdiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && a < 0)
        q--;
    return q;
}

/* sin and cos of mrad milliradians (|mrad| <= CT_ANGLE_MAX), x CT_ONE. */
void ct_trig(int32_t mrad, int32_t *sin_out, int32_t *cos_out);

/* Fills sin, cos and foot of a part from kind, x, y, angle. */
void ct_part_init(ct_part *p, int32_t kind, int32_t x, int32_t y, int32_t angle);

bool ct_box_overlap(const ct_box *a, const ct_box *b);

/* Runs the one simulation. trace (may be NULL) receives the state after
 * each tick, up to trace_cap ticks. */
void ct_simulate(const ct_field *f, const ct_part *parts, int n_parts, ct_tick *trace,
                 int trace_cap, ct_run *out);

#endif
