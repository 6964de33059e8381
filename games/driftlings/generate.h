/*
 * generate: a level from (level, seed), built backwards from a serpentine
 * route of demands, then gated (solvable, forced, no shortcut, not thin or
 * back-loaded, crowd). Bounded: DL_CANDIDATE_CAP candidates, then a fixed
 * fallback design. The draw order is the contract (spec.md, "Generation").
 */
#ifndef REPLAYD_GAMES_DRIFTLINGS_GENERATE_H
#define REPLAYD_GAMES_DRIFTLINGS_GENERATE_H

#include "driftlings.h"

#define DL_LEVELS 15
#define DL_CANDIDATE_CAP 16

typedef struct dl_level_row {
    int w;
    int bands;
    int demands;
    int crowd;
    int quota;
    int interval;
} dl_level_row;

extern const dl_level_row dl_level_table[DL_LEVELS];

/* The level of (version, level_no, seed); versions differ only in the
 * crowd gate (version 2: the plan saves the whole crowd). */
void dl_generate(dl_level *lv, int version, int level_no, uint32_t seed);

/* The fixed fallback design of a level row, through the same gates;
 * returns whether it passed them all (it must, for every row). */
bool dl_generate_fallback(dl_level *lv, int version, int level_no);

/* FNV-1a over the terrain rows as printed (with E and X), row after row. */
uint32_t dl_terrain_hash(const dl_map *m);

#endif
