/*
 * level: what a generated Contraption level and a play state hold, the
 * placement rule shared by apply() and the generator's sweep, and
 * generation itself (generate.c). Plain bytes: copying a level clones it.
 */
#ifndef REPLAYD_GAMES_CONTRAPTION_LEVEL_H
#define REPLAYD_GAMES_CONTRAPTION_LEVEL_H

#include "physics.h"

/* The defaults of spec.md, "Generation parameters". */
#define CT_ATTEMPTS 40       /* fallback_after: candidates before the fallback is issued */
#define CT_ATTEMPT_CAP 1000  /* attempt_cap: hard stop when no candidate was non-trivial */

/* The generation step's limits: the defaults above, or a vector's values. */
typedef struct ct_limits {
    int attempt_cap;
    int fallback_after;
} ct_limits;

#define CT_LIMITS_DEFAULT ((ct_limits){ CT_ATTEMPT_CAP, CT_ATTEMPTS })

typedef struct ct_row {
    int walls_min, walls_max; /* generated walls drawn, before drops */
    int goal_w;               /* goal width in units (height is 6) */
    int goal_y_min;           /* goal top from goal_y_min to 128 */
    int ramps, fans;          /* the parts granted */
} ct_row;

typedef struct ct_level {
    int version;
    int level_no;
    uint32_t seed;
    ct_row row;
    ct_field field;
    int n_level_walls;  /* walls after the boundary: shelf + generated */
    int dropped_walls;  /* generated walls dropped for crowding the goal */
    int32_t start_x, start_y, start_vx; /* units, units, subunits per tick */
    int32_t goal_x, goal_y;             /* goal top-left in units */
    int inventory[CT_KINDS];
    int attempts;          /* candidates drawn, the issued one included */
    int issued;            /* which of them was issued, 1-based */
    int pre_solved;        /* discarded: the bare ball reached the goal */
    int no_sweep_solution; /* swept without a one-ramp solution */
    int32_t sims;          /* simulations run, gates included */
    bool fallback;         /* issued the first non-trivial candidate */
    bool trivial;          /* cap hit with no non-trivial candidate (never seen) */
    bool has_plan;
    ct_part plan;          /* the winning sweep placement */
    ct_run plan_run;
} ct_level;

/* A play state: the placements so far. The simulation runs in result(). */
typedef struct ct_state {
    const ct_level *level;
    int left[CT_KINDS]; /* inventory not yet placed */
    int n_placed;
    ct_part placed[CT_MAX_PARTS]; /* in placement order: the collision order */
    int32_t placed_t[CT_MAX_PARTS]; /* version 2: when each was placed, ms */
} ct_state;

enum {
    CT_PLACED,
    CT_NO_PART_LEFT,
    CT_BAD_ANGLE,
    CT_OUT_OF_FIELD,
    CT_OVERLAPS_WALL,
    CT_OVERLAPS_PART,
    CT_TIME_BACKWARDS, /* version 2's time rules, after the placement rule */
    CT_TOO_FAST,
    CT_OUTCOMES
};

/* The placement rule: checks in the order of the outcome codes above, up
 * to CT_OVERLAPS_PART.
 * left[] is the inventory still unplaced; placed[] the parts so far. On
 * CT_PLACED, *out holds the initialised part. */
int ct_check_placement(const ct_level *lv, const int *left, const ct_part *placed, int n_placed,
                       int32_t kind, int32_t x, int32_t y, int32_t angle, ct_part *out);

/* Generation with both gates (spec.md, "Generation"). */
void ct_generate(ct_level *lv, const ct_row *row, const ct_limits *lim);

/* The sweep grid and angles, shared with the tests. */
#define CT_SWEEP_X0 15
#define CT_SWEEP_X1 85
#define CT_SWEEP_DX 14
#define CT_SWEEP_Y0 30
#define CT_SWEEP_Y1 120
#define CT_SWEEP_DY 18
extern const int32_t ct_sweep_angles[4];

#endif
