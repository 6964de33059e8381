/*
 * driftlings: a Lemmings-like crowd game on an integer tick clock. Walkers
 * spawn at the entrance, walk, fall, and are saved at the exit; the player
 * hands out skills. Levels are generated backwards from a route and proved
 * winnable by a solver. Rules, scoring and generation: games/driftlings/
 * spec.md. Pure; no I/O, no malloc (generation uses a fixed per-thread
 * workspace, see solver.h).
 */
#ifndef REPLAYD_GAMES_DRIFTLINGS_H
#define REPLAYD_GAMES_DRIFTLINGS_H

#include "../../core/game.h"
#include "world.h"

#define DL_MAX_PLAN 96

typedef struct dl_metrics {
    int32_t alternatives;
    int32_t first_decision_at; /* per mille of the pioneer's route */
    int32_t critical;
    int32_t slack;
    int32_t expansions;
    int32_t candidates;
    int32_t route_ticks; /* tick the pioneer is saved at */
    int32_t demands;
    bool fallback;
} dl_metrics;

/* Why candidates were turned down (spec.md, "Gates"). */
enum {
    DL_GATE_UNSOLVABLE,
    DL_GATE_SLACK,
    DL_GATE_SHORTCUT,
    DL_GATE_THIN,
    DL_GATE_BACK_LOADED,
    DL_GATE_CROWD,
    DL_GATES
};

typedef struct dl_level {
    int version;
    int level_no;
    uint32_t seed;
    dl_map map;
    int crowd;
    int quota;
    int interval;
    int32_t cap;
    int inventory[DL_SKILLS];
    int needs[DL_SKILLS]; /* the pioneer's route needs (the forced gate) */
    int n_plan;
    game_move plan[DL_MAX_PLAN]; /* {tick, walker, skill} for the whole crowd */
    dl_metrics metrics;
    int32_t rejected[DL_GATES]; /* candidates turned down, by gate */
} dl_level;

typedef struct dl_state {
    const dl_level *level;
    dl_world world;
    int left[DL_SKILLS];
    int used;
    int32_t last_tick;
    bool ended;
} dl_state;

/* The result's extras, in result_fields order. */
enum { DL_X_SAVED, DL_X_QUOTA, DL_X_CROWD, DL_X_DEAD, DL_X_TICKS, DL_X_SKILLS_USED, DL_X_COUNT };

extern const game driftlings_game;

/* Test and bench entry point: a level from ASCII rows ('#', '=', '.', 'E',
 * 'X'; exactly one E and one X). Returns false on a malformed picture. The
 * level is version 1; the generation record (plan, metrics) is left empty
 * and level_no is 0. */
bool driftlings_level_from_ascii(dl_level *lv, const char *const *rows, int n_rows, int crowd,
                                 int quota, int interval, int32_t cap,
                                 const int inventory[DL_SKILLS]);

/* The world a level starts from (tick 0, nobody spawned). */
void driftlings_world_init(dl_world *w, const dl_level *lv);

#endif
