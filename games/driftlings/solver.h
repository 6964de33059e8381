/*
 * solver: can one walker get from the entrance to the exit, and with which
 * skills? A uniform-cost search over (position, facing, activity, traits,
 * fall, carved cells, skills left), cheapest first by (skills used, ticks,
 * push order), moving the walker with the game's own dl_step. Nodes carry a
 * sorted list of carved cells, not a copy of the grid. The search order is
 * the contract (spec.md, "Solver"): expansions are pinned by the vectors.
 *
 * Memory: one fixed workspace per thread (DL_NODE_MAX nodes, about 3 MB),
 * no malloc. A search that runs out of nodes reports capped.
 */
#ifndef REPLAYD_GAMES_DRIFTLINGS_SOLVER_H
#define REPLAYD_GAMES_DRIFTLINGS_SOLVER_H

#include "world.h"

/* The defaults of spec.md, "Generation parameters" (and the workspace's
 * room: a search never holds more). */
#define DL_NODE_MAX 65536   /* node_cap: nodes a search holds, the root included */
#define DL_CARVE_MAX 262144 /* carve_cap: entries of the carved-list store */
#define DL_ALT_BUDGET 2000  /* alt_window: expansions after the goal, counting alternatives */
#define DL_PLAN_MAX 32

/* One search's limits: the defaults above, or a vector's smaller values. */
typedef struct dl_limits {
    int node_cap;
    int carve_cap;
    int alt_window;
} dl_limits;

#define DL_LIMITS_DEFAULT ((dl_limits){ DL_NODE_MAX, DL_CARVE_MAX, DL_ALT_BUDGET })

typedef struct dl_step_move {
    int32_t tick;
    int skill;
} dl_step_move;

/* The pioneer's state at an assignment: the crowd gate hands followers the
 * same trait when they stand in the same place. */
typedef struct dl_plan_move {
    int32_t tick;
    int skill;
    dl_walker at;
} dl_plan_move;

typedef struct dl_solution {
    bool solved;
    bool capped;
    int32_t expansions;
    int32_t route_ticks; /* world tick when the pioneer is saved */
    int32_t alternatives;
    int n_moves;
    dl_plan_move moves[DL_PLAN_MAX];
} dl_solution;

/* skills[] is the inventory (blockers are never used: a lone walker that
 * blocks never arrives). cap is the tick cap; limits above the defaults
 * are taken as the defaults. */
void dl_solve(const dl_map *m, const int skills[DL_SKILLS], int32_t cap, const dl_limits *lim,
              bool count_alternatives, dl_solution *out);

/* Re-walk a solution for one walker through dl_tick: true when it is saved
 * by route_ticks and every move was assignable. */
bool dl_replay_solution(const dl_map *m, const dl_solution *s);

#endif
