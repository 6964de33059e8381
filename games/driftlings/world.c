/*
 * world: terrain queries, the walker state machine, the tick and the world
 * hash. The order of the checks in dl_step is the contract (spec.md,
 * "Rules"): a port that reorders them diverges.
 */
#include "world.h"

#include "../../core/fnv.h"

bool dl_solid(const dl_map *m, int x, int y)
{
    if (x < 0 || y < 0 || x >= m->w || y >= m->h)
        return true;
    return m->cell[y * m->w + x] != DL_AIR;
}

static bool is_earth(const dl_map *m, int x, int y)
{
    if (x < 0 || y < 0 || x >= m->w || y >= m->h)
        return false;
    return m->cell[y * m->w + x] == DL_EARTH;
}

static bool blocker_at(const dl_walker *b, int n, int self, int x, int y)
{
    for (int i = 0; i < n; i++)
        if (i != self && b[i].act == DL_BLOCK && b[i].x == x && b[i].y == y)
            return true;
    return false;
}

/* Losing the ground: start falling and drop one cell this tick. */
static void drop(dl_walker *wk)
{
    wk->act = DL_FALL;
    wk->fall = 1;
    wk->y++;
}

static void walk(const dl_map *m, dl_walker *wk, const dl_walker *b, int nb, int self)
{
    int x = wk->x, y = wk->y, nx = x + wk->dir;
    if (!dl_solid(m, x, y + 1)) {
        drop(wk);
    } else if (blocker_at(b, nb, self, nx, y)) {
        wk->dir = (int8_t)-wk->dir;
    } else if (!dl_solid(m, nx, y)) {
        wk->x = (uint8_t)nx;
    } else if (!dl_solid(m, nx, y - 1) && !dl_solid(m, x, y - 1) &&
               !blocker_at(b, nb, self, nx, y - 1)) {
        wk->x = (uint8_t)nx; /* a one-cell step up */
        wk->y = (uint8_t)(y - 1);
    } else if (wk->traits & DL_TRAIT_CLIMBER) {
        wk->act = DL_CLIMB;
    } else {
        wk->dir = (int8_t)-wk->dir;
    }
}

static void fall(const dl_map *m, dl_walker *wk)
{
    if (dl_solid(m, wk->x, wk->y + 1)) {
        if (wk->fall > DL_SAFE_FALL && !(wk->traits & DL_TRAIT_FLOATER)) {
            wk->act = DL_DEAD;
        } else {
            wk->act = DL_WALK;
            wk->fall = 0;
        }
        return;
    }
    wk->y++;
    if (wk->fall < DL_FALL_CAP)
        wk->fall++;
}

static void climb(const dl_map *m, dl_walker *wk)
{
    int x = wk->x, y = wk->y;
    if (!dl_solid(m, x + wk->dir, y)) {
        wk->act = DL_WALK; /* the wall is gone */
    } else if (dl_solid(m, x, y - 1)) {
        wk->dir = (int8_t)-wk->dir; /* a ceiling: let go, facing away */
        wk->act = DL_FALL;
        wk->fall = 0;
    } else {
        wk->y = (uint8_t)(y - 1);
        if (!dl_solid(m, x + wk->dir, y - 1)) {
            wk->x = (uint8_t)(x + wk->dir);
            wk->act = DL_WALK;
        }
    }
}

static int bash(dl_map *m, dl_walker *wk, const dl_walker *b, int nb, int self)
{
    int x = wk->x, y = wk->y, nx = x + wk->dir;
    if (!dl_solid(m, x, y + 1)) {
        drop(wk);
    } else if (blocker_at(b, nb, self, nx, y)) {
        wk->dir = (int8_t)-wk->dir;
        wk->act = DL_WALK;
    } else if (is_earth(m, nx, y)) {
        m->cell[y * m->w + nx] = DL_AIR;
        wk->x = (uint8_t)nx;
        return y * m->w + nx;
    } else {
        wk->act = DL_WALK; /* air (broke through), steel or the edge */
    }
    return -1;
}

static int dig(dl_map *m, dl_walker *wk)
{
    int x = wk->x, y = wk->y;
    if (is_earth(m, x, y + 1)) {
        m->cell[(y + 1) * m->w + x] = DL_AIR;
        wk->y = (uint8_t)(y + 1);
        return (y + 1) * m->w + x;
    }
    if (!dl_solid(m, x, y + 1)) {
        wk->act = DL_FALL; /* broke through */
        wk->fall = 0;
    } else {
        wk->act = DL_WALK; /* steel or the bottom edge */
    }
    return -1;
}

int dl_step(dl_map *m, dl_walker *wk, const dl_walker *blockers, int n_blockers, int self)
{
    int carved = -1;
    switch (wk->act) {
    case DL_WALK:
        walk(m, wk, blockers, n_blockers, self);
        break;
    case DL_FALL:
        fall(m, wk);
        break;
    case DL_CLIMB:
        climb(m, wk);
        break;
    case DL_BLOCK:
        if (!dl_solid(m, wk->x, wk->y + 1))
            drop(wk);
        break;
    case DL_BASH:
        carved = bash(m, wk, blockers, n_blockers, self);
        break;
    case DL_DIG:
        carved = dig(m, wk);
        break;
    default:
        return -1; /* saved and dead walkers do not move */
    }
    if (wk->act != DL_DEAD && wk->x == m->xx && wk->y == m->xy)
        wk->act = DL_SAVED;
    return carved;
}

int dl_check_assign(const dl_walker *wk, int skill)
{
    if (wk->act == DL_SAVED || wk->act == DL_DEAD)
        return DL_ASSIGN_GONE;
    if (skill == DL_CLIMBER)
        return (wk->traits & DL_TRAIT_CLIMBER) ? DL_ASSIGN_HELD : DL_ASSIGN_OK;
    if (skill == DL_FLOATER)
        return (wk->traits & DL_TRAIT_FLOATER) ? DL_ASSIGN_HELD : DL_ASSIGN_OK;
    static const uint8_t act_of[DL_SKILLS] = { 0, 0, DL_BLOCK, DL_BASH, DL_DIG };
    if (wk->act != DL_WALK && wk->act != DL_BASH && wk->act != DL_DIG)
        return DL_ASSIGN_BUSY;
    if (wk->act == act_of[skill])
        return DL_ASSIGN_BUSY;
    return DL_ASSIGN_OK;
}

void dl_assign(dl_walker *wk, int skill)
{
    switch (skill) {
    case DL_CLIMBER:
        wk->traits |= DL_TRAIT_CLIMBER;
        break;
    case DL_FLOATER:
        wk->traits |= DL_TRAIT_FLOATER;
        break;
    case DL_BLOCKER:
        wk->act = DL_BLOCK;
        break;
    case DL_BASHER:
        wk->act = DL_BASH;
        break;
    default:
        wk->act = DL_DIG;
        break;
    }
}

void dl_tick(dl_world *w)
{
    if (w->spawned < w->crowd && w->tick == (int32_t)w->spawned * w->interval) {
        dl_walker *s = &w->walker[w->spawned++];
        s->x = (uint8_t)w->map.ex;
        s->y = (uint8_t)w->map.ey;
        s->dir = 1;
        s->act = DL_FALL;
        s->traits = 0;
        s->fall = 0;
    }
    /* Only an assignment makes a blocker, so with none at the start of the
     * tick there are none during it: skip the scans. */
    int blocking = 0;
    for (int i = 0; i < w->spawned; i++)
        blocking += w->walker[i].act == DL_BLOCK;
    for (int i = 0; i < w->spawned; i++)
        dl_step(&w->map, &w->walker[i], blocking ? w->walker : NULL, blocking ? w->spawned : 0, i);
    w->tick++;
}

bool dl_settled(const dl_world *w)
{
    if (w->spawned < w->crowd)
        return false;
    for (int i = 0; i < w->spawned; i++)
        if (dl_active(w->walker[i].act))
            return false;
    return true;
}

uint32_t dl_hash(const dl_world *w)
{
    uint32_t h = fnv1a32_update(FNV1A32_OFFSET, w->map.cell, (size_t)(w->map.w * w->map.h));
    for (int i = 0; i < w->spawned; i++) {
        const dl_walker *k = &w->walker[i];
        uint8_t b[6] = { k->x, k->y, (uint8_t)k->dir, k->act, k->traits, k->fall };
        h = fnv1a32_update(h, b, sizeof b);
    }
    return h;
}
