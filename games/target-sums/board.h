/*
 * board: the Target Sums grid, the line test and countSolutions, shared by
 * the rules (target_sums.c) and the generator (generate.c).
 * Cells are row-major, index r * cols + c. A pattern holds 1 for a kept
 * cell and 0 for a removed one.
 */
#ifndef REPLAYD_GAMES_TARGET_SUMS_BOARD_H
#define REPLAYD_GAMES_TARGET_SUMS_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#define TS_MAX_SIDE 7
#define TS_MAX_CELLS (TS_MAX_SIDE * TS_MAX_SIDE)
#define TS_NODE_CAP 200000    /* the default node_cap (spec.md, "Generation parameters") */
#define TS_CANDIDATE_CAP 500  /* the default candidate_cap */

/* The generation step's limits: the defaults above, or a vector's values. */
typedef struct ts_limits {
    int candidate_cap; /* candidates drawn before the fallback */
    int node_cap;      /* countSolutions calls before it gives up */
} ts_limits;

#define TS_LIMITS_DEFAULT ((ts_limits){ TS_CANDIDATE_CAP, TS_NODE_CAP })

typedef struct ts_grid {
    int rows, cols, n;
    int32_t value[TS_MAX_CELLS];
    int32_t row_target[TS_MAX_SIDE];
    int32_t col_target[TS_MAX_SIDE];
} ts_grid;

/* Sets row_target and col_target to the sums of the kept cells. */
void ts_set_targets(ts_grid *g, const uint8_t *kept);

typedef struct ts_count {
    int solutions; /* 0, 1 or 2 (2 means "two or more") */
    int nodes;     /* search calls, root included */
    bool capped;   /* stopped at the node cap: the answer is unknown */
} ts_count;

/* countSolutions: how many keep/remove patterns meet every target,
 * stopping at the second solution or after node_cap nodes. */
ts_count ts_count_solutions(const ts_grid *g, int node_cap);

/* What a level's row of the table asks the generator for. */
typedef struct ts_shape {
    int rows, cols;
    int32_t min_value, max_value; /* inclusive, min_value >= 1 */
    int keep_percent;             /* chance in 100 that a candidate cell is kept */
} ts_shape;

typedef struct ts_generated {
    ts_grid grid;
    uint8_t solution[TS_MAX_CELLS]; /* 1 kept, 0 removed */
    int nodes;     /* search nodes of the accepted candidate */
    int search_nodes; /* search nodes of every candidate counted, this one included */
    int rejected;  /* candidates dropped before it */
    bool fallback; /* the candidate cap was reached (spec.md, "Fallback") */
} ts_generated;

void ts_generate_board(const ts_shape *shape, uint32_t seed, const ts_limits *lim,
                       ts_generated *out);

#endif
