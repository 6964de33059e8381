/*
 * generate: a level from (level, seed), built backwards from a serpentine
 * route of demands, then gated (solvable, forced, no shortcut, not thin or
 * back-loaded, crowd). Bounded: DL_CANDIDATE_CAP candidates, then a fixed
 * fallback design. The draw order is the contract (spec.md, "Generation").
 */
#ifndef REPLAYD_GAMES_DRIFTLINGS_GENERATE_H
#define REPLAYD_GAMES_DRIFTLINGS_GENERATE_H

#include "driftlings.h"

#include "solver.h"

#define DL_LEVELS 15
#define DL_CANDIDATE_CAP 16 /* the default candidate_cap */
#define DL_BACK_LOADED 500  /* the default back_loaded_at, per mille */

typedef struct dl_level_row {
    int w;
    int bands;
    int demands;
    int crowd;
    int quota;
    int interval;
} dl_level_row;

extern const dl_level_row dl_level_table[DL_LEVELS];

/* The generation step's limits (spec.md, "Generation parameters"). */
typedef struct dl_gen_limits {
    int candidate_cap;  /* candidates drawn before the fallback */
    int shortcut_bands; /* bands the route must visit (the row's bands) */
    int thin_demands;   /* the thin gate's demands (the row's demands) */
    int back_loaded_at; /* the back-loaded gate's limit, per mille */
    dl_limits search;   /* every solver run's limits */
} dl_gen_limits;

/* The defaults of a level row. */
dl_gen_limits dl_default_limits(const dl_level_row *row);

/* The level of (version, level_no, seed); versions differ only in the
 * crowd gate (version 2: the plan saves the whole crowd). lim NULL: the
 * row's defaults. */
void dl_generate(dl_level *lv, int version, int level_no, uint32_t seed,
                 const dl_gen_limits *lim);

/* The fixed fallback design of a level row, through the same gates with
 * the default limits; returns whether it passed them all (it must, for
 * every row). */
bool dl_generate_fallback(dl_level *lv, int version, int level_no);

/* FNV-1a over the terrain rows as printed (with E and X), row after row. */
uint32_t dl_terrain_hash(const dl_map *m);

#endif
