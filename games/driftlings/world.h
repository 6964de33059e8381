/*
 * world: the Driftlings simulation (terrain, walkers, one tick). Integer only
 * and allocation-free: a world is plain bytes, so copying it clones it. The
 * single-walker step (dl_step) is shared by the game, the solver and the
 * crowd gate, so a route the solver finds is one the game reproduces.
 * Every rule here is in spec.md, "Rules".
 */
#ifndef REPLAYD_GAMES_DRIFTLINGS_WORLD_H
#define REPLAYD_GAMES_DRIFTLINGS_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#define DL_MAX_W 128
#define DL_MAX_H 64
#define DL_MAX_CELLS (DL_MAX_W * DL_MAX_H)
#define DL_MAX_CROWD 32
#define DL_SAFE_FALL 6 /* landing after falling more cells than this kills */
#define DL_FALL_CAP 7  /* the fall counter saturates here */

/* Terrain bytes are the ASCII characters themselves. */
#define DL_AIR '.'
#define DL_EARTH '#'
#define DL_STEEL '='

enum { DL_CLIMBER, DL_FLOATER, DL_BLOCKER, DL_BASHER, DL_DIGGER, DL_SKILLS };

enum { DL_WALK, DL_FALL, DL_CLIMB, DL_BLOCK, DL_BASH, DL_DIG, DL_SAVED, DL_DEAD };

#define DL_TRAIT_CLIMBER 1
#define DL_TRAIT_FLOATER 2

typedef struct dl_walker {
    uint8_t x, y;
    int8_t dir; /* +1 right, -1 left */
    uint8_t act;
    uint8_t traits;
    uint8_t fall;
} dl_walker;

typedef struct dl_map {
    int w, h;
    int ex, ey; /* entrance */
    int xx, xy; /* exit */
    uint8_t cell[DL_MAX_CELLS];
} dl_map;

typedef struct dl_world {
    dl_map map;
    int32_t tick;
    int crowd;
    int interval;
    int spawned;
    dl_walker walker[DL_MAX_CROWD];
} dl_world;

bool dl_solid(const dl_map *m, int x, int y);

static inline bool dl_active(uint8_t act)
{
    return act == DL_WALK || act == DL_FALL || act == DL_CLIMB || act == DL_BASH || act == DL_DIG;
}

/* One walker's update for one tick. blockers may be NULL (no blockers);
 * self is the walker's index in it, or -1. Returns the carved cell index
 * or -1. */
int dl_step(dl_map *m, dl_walker *wk, const dl_walker *blockers, int n_blockers, int self);

/* Whether skill may be given to the walker now (skills left aside). */
enum { DL_ASSIGN_OK, DL_ASSIGN_GONE, DL_ASSIGN_HELD, DL_ASSIGN_BUSY };
int dl_check_assign(const dl_walker *wk, int skill);
/* Gives the skill; call only after dl_check_assign said OK. */
void dl_assign(dl_walker *wk, int skill);

/* One whole tick: spawn, then every live walker in index order. */
void dl_tick(dl_world *w);

/* True when every walker has spawned and none is still active. */
bool dl_settled(const dl_world *w);

/* FNV-1a over the terrain bytes, then six bytes per spawned walker. */
uint32_t dl_hash(const dl_world *w);

#endif
