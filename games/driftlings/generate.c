/*
 * generate: the backwards-from-a-route generator, its gates and the crowd
 * plan. Every draw, in order, is listed in spec.md "Generation"; the rng
 * state runs on across candidates.
 */
#include "generate.h"

#include <string.h>

#include "../../core/fnv.h"
#include "../../core/rng.h"

#define FIRST_FLOOR 6

/* Reasons for each row are in spec.md, "Level table". */
const dl_level_row dl_level_table[DL_LEVELS] = {
    { 16, 1, 1, 5, 4, 4 },   { 20, 1, 2, 5, 4, 4 },   { 20, 2, 2, 6, 5, 4 },
    { 24, 2, 2, 6, 5, 4 },   { 24, 2, 3, 8, 6, 4 },   { 28, 2, 3, 8, 6, 4 },
    { 28, 3, 3, 8, 7, 4 },   { 28, 3, 4, 10, 8, 4 },  { 32, 3, 4, 10, 8, 4 },
    { 32, 3, 5, 10, 8, 4 },  { 36, 3, 5, 12, 10, 4 }, { 36, 4, 5, 12, 10, 4 },
    { 36, 4, 6, 12, 10, 4 }, { 40, 4, 6, 14, 12, 4 }, { 40, 4, 7, 14, 12, 4 },
};

enum { SLOT_IN, SLOT_TR };
enum { BEAT_NONE, BEAT_CLIMB, BEAT_BASH, BEAT_FLOAT, BEAT_DIG, BEAT_LEDGE };

#define MAX_BANDS 4
#define MAX_SLOTS 32

typedef struct design {
    int w, h, bands;
    int floor[MAX_BANDS];
    int n_slots;
    int kind[MAX_SLOTS];
    int band[MAX_SLOTS];
    int off[MAX_SLOTS]; /* column offset from the band's start wall */
    int beat[MAX_SLOTS];
    int size[MAX_SLOTS]; /* climb height or bash width */
    bool soft[MAX_SLOTS]; /* an earth climb wall, or a bash wall with a gap on top */
    int soft_spot[MAX_BANDS]; /* offset of a 2-wide earth patch in the floor, or -1 */
    int needs[DL_SKILLS];
    int demands;
} design;

uint32_t dl_terrain_hash(const dl_map *m)
{
    uint32_t h = FNV1A32_OFFSET;
    for (int i = 0; i < m->w * m->h; i++) {
        uint8_t c = m->cell[i];
        if (i == m->ey * m->w + m->ex)
            c = 'E';
        else if (i == m->xy * m->w + m->xx)
            c = 'X';
        h = fnv1a32_update(h, &c, 1);
    }
    return h;
}

static int in_band_slots(int w)
{
    return w >= 13 ? (w - 13) / 6 + 1 : 0;
}

/* Route order: band 0's in-band slots, its transition, band 1's... */
static void lay_slots(design *d)
{
    int per = in_band_slots(d->w);
    d->n_slots = 0;
    for (int b = 0; b < d->bands; b++) {
        for (int j = 0; j < per; j++) {
            d->kind[d->n_slots] = SLOT_IN;
            d->band[d->n_slots] = b;
            d->off[d->n_slots] = 5 + 6 * j;
            d->beat[d->n_slots] = BEAT_NONE;
            d->n_slots++;
        }
        if (b + 1 < d->bands) {
            d->kind[d->n_slots] = SLOT_TR;
            d->band[d->n_slots] = b;
            d->off[d->n_slots] = d->w - 2;
            d->beat[d->n_slots] = BEAT_LEDGE;
            d->n_slots++;
        }
    }
}

static void set_floors(design *d, const int *spacing)
{
    d->floor[0] = FIRST_FLOOR;
    for (int b = 1; b < d->bands; b++)
        d->floor[b] = d->floor[b - 1] + spacing[b - 1];
    d->h = d->floor[d->bands - 1] + 1;
}

static void count_needs(design *d)
{
    memset(d->needs, 0, sizeof d->needs);
    d->demands = 0;
    for (int i = 0; i < d->n_slots; i++) {
        switch (d->beat[i]) {
        case BEAT_CLIMB:
            d->needs[DL_CLIMBER] = 1;
            break;
        case BEAT_FLOAT:
            d->needs[DL_FLOATER] = 1;
            break;
        case BEAT_BASH:
            d->needs[DL_BASHER]++;
            break;
        case BEAT_DIG:
            d->needs[DL_DIGGER]++;
            break;
        default:
            continue;
        }
        d->demands++;
    }
}

/* One candidate design; every draw in spec order. */
static void draw_design(design *d, const dl_level_row *row, uint32_t *rng)
{
    int spacing[MAX_BANDS] = { 0 };
    memset(d, 0, sizeof *d);
    d->w = row->w;
    d->bands = row->bands;
    for (int b = 0; b + 1 < d->bands; b++)
        spacing[b] = 9 + (int)rng_below(rng, 4);
    set_floors(d, spacing);
    lay_slots(d);

    int n = row->demands < d->n_slots ? row->demands : d->n_slots;
    bool chosen[MAX_SLOTS] = { false };
    int32_t order[MAX_SLOTS];
    for (int i = 1; i < d->n_slots; i++)
        order[i - 1] = i;
    rng_shuffle_i32(rng, order, (size_t)(d->n_slots - 1));
    chosen[0] = true; /* the route opens on a demand */
    for (int i = 0; i + 1 < n; i++)
        chosen[order[i]] = true;

    bool climb_used = false, float_used = false;
    for (int i = 0; i < d->n_slots; i++) {
        if (d->kind[i] == SLOT_IN) {
            d->off[i] += (int)rng_below(rng, 2);
            if (!chosen[i])
                continue;
            /* a demand that does not fit (a second climber) is swapped */
            if (!climb_used && rng_below(rng, 2) == 0) {
                d->beat[i] = BEAT_CLIMB;
                d->size[i] = 3 + (int)rng_below(rng, 2);
                climb_used = true;
            } else {
                d->beat[i] = BEAT_BASH;
                d->size[i] = 1 + (int)rng_below(rng, 2);
            }
            d->soft[i] = rng_below(rng, 3) == 0;
        } else if (chosen[i]) {
            if (!float_used && rng_below(rng, 2) == 0) {
                d->beat[i] = BEAT_FLOAT;
                float_used = true;
            } else {
                d->beat[i] = BEAT_DIG;
            }
        }
    }
    for (int b = 0; b < d->bands; b++) {
        d->soft_spot[b] = -1;
        if (b + 1 < d->bands && rng_below(rng, 3) == 0)
            d->soft_spot[b] = 3 + (int)rng_below(rng, (uint32_t)(d->w - 8));
    }
    count_needs(d);
}

/* The fixed fallback: a one-wide basher wall opening every band, free
 * ledges, spacing 10. */
static void fallback_design(design *d, const dl_level_row *row)
{
    int spacing[MAX_BANDS] = { 10, 10, 10, 10 };
    memset(d, 0, sizeof *d);
    d->w = row->w;
    d->bands = row->bands;
    set_floors(d, spacing);
    lay_slots(d);
    for (int b = 0; b < d->bands; b++)
        d->soft_spot[b] = -1;
    for (int i = 0; i < d->n_slots; i++) {
        if (d->kind[i] == SLOT_IN && (i == 0 || d->kind[i - 1] == SLOT_TR)) {
            d->beat[i] = BEAT_BASH;
            d->size[i] = 1;
        }
    }
    count_needs(d);
}

static int col(const design *d, int b, int off)
{
    return (b % 2 == 0) ? off : d->w - 1 - off;
}

static void put(dl_map *m, int x, int y, uint8_t c)
{
    if (x >= 0 && y >= 0 && x < m->w && y < m->h)
        m->cell[y * m->w + x] = c;
}

static void build_map(const design *d, dl_map *m)
{
    memset(m, 0, sizeof *m);
    m->w = d->w;
    m->h = d->h;
    memset(m->cell, DL_AIR, (size_t)(m->w * m->h));
    for (int b = 0; b < d->bands; b++) {
        int f = d->floor[b];
        for (int x = 0; x < d->w; x++)
            put(m, x, f, DL_STEEL);
        /* overhangs: a climber at a band's end wall climbs one and lets go */
        put(m, 0, f - 3, DL_STEEL);
        put(m, d->w - 1, f - 3, DL_STEEL);
        if (d->soft_spot[b] >= 0)
            for (int k = 0; k < 2; k++)
                put(m, col(d, b, d->soft_spot[b] + k), f, DL_EARTH);
    }
    for (int i = 0; i < d->n_slots; i++) {
        int b = d->band[i], f = d->floor[b];
        int top = b == 0 ? 0 : d->floor[b - 1] + 1;
        switch (d->beat[i]) {
        case BEAT_CLIMB:
            for (int y = f - d->size[i]; y < f; y++)
                put(m, col(d, b, d->off[i]), y, d->soft[i] ? DL_EARTH : DL_STEEL);
            break;
        case BEAT_BASH:
            for (int k = 0; k < d->size[i]; k++)
                for (int y = top + (d->soft[i] ? 1 : 0); y < f; y++)
                    put(m, col(d, b, d->off[i] + k), y, DL_EARTH);
            break;
        case BEAT_FLOAT:
        case BEAT_DIG:
        case BEAT_LEDGE: {
            int ledge = f + (d->floor[b + 1] - f) / 2;
            put(m, col(d, b, d->w - 2), f, d->beat[i] == BEAT_DIG ? DL_EARTH : DL_AIR);
            if (d->beat[i] != BEAT_FLOAT)
                for (int k = 1; k <= 3; k++)
                    put(m, col(d, b, d->w - k), ledge, DL_STEEL);
            break;
        }
        default:
            break;
        }
    }
    m->ex = 1;
    m->ey = 1;
    int last = d->bands - 1;
    m->xx = col(d, last, d->w - 2);
    m->xy = d->floor[last] - 1;
}

/* Re-walk the pioneer's route; returns the bands it stood on as a mask. */
static unsigned bands_visited(const dl_map *m, const design *d, const dl_solution *s)
{
    dl_world w;
    unsigned mask = 0;
    memset(&w, 0, sizeof w);
    w.map = *m;
    w.crowd = 1;
    w.interval = 1;
    int next = 0;
    while (w.tick < s->route_ticks) {
        while (next < s->n_moves && s->moves[next].tick == w.tick)
            dl_assign(&w.walker[0], s->moves[next++].skill);
        dl_tick(&w);
        const dl_walker *k = &w.walker[0];
        for (int b = 0; b < d->bands; b++)
            if (k->act == DL_WALK && k->y == d->floor[b] - 1)
                mask |= 1u << b;
    }
    return mask;
}

/* Hand the crowd the pioneer's plan: terrain skills once (the pioneer),
 * traits per head when a follower stands where the pioneer got them. */
static bool crowd_plan(dl_level *lv, const dl_solution *s)
{
    dl_world w;
    int next_trait[DL_MAX_CROWD] = { 0 };
    int next = 0;
    driftlings_world_init(&w, lv);
    lv->n_plan = 0;
    while (w.tick < lv->cap && !dl_settled(&w)) {
        while (next < s->n_moves && s->moves[next].tick == w.tick) {
            if (lv->n_plan >= DL_MAX_PLAN)
                return false;
            dl_assign(&w.walker[0], s->moves[next].skill);
            lv->plan[lv->n_plan++] = (game_move){ { w.tick, 0, s->moves[next].skill, 0 } };
            next++;
        }
        for (int k = 1; k < w.spawned; k++) {
            int j = next_trait[k];
            while (j < s->n_moves && s->moves[j].skill != DL_CLIMBER &&
                   s->moves[j].skill != DL_FLOATER)
                j++;
            next_trait[k] = j;
            if (j >= s->n_moves)
                continue;
            const dl_walker *at = &s->moves[j].at, *wk = &w.walker[k];
            if (wk->x != at->x || wk->y != at->y || wk->dir != at->dir || wk->act != at->act)
                continue;
            if (dl_check_assign(wk, s->moves[j].skill) != DL_ASSIGN_OK || lv->n_plan >= DL_MAX_PLAN)
                return false;
            dl_assign(&w.walker[k], s->moves[j].skill);
            lv->plan[lv->n_plan++] = (game_move){ { w.tick, k, s->moves[j].skill, 0 } };
            next_trait[k] = j + 1;
        }
        dl_tick(&w);
    }
    return true;
}

/* The crowd gate proper: the plan through the game's own apply/result
 * must save the quota (version 1) or the whole crowd (version 2). */
static bool crowd_gets_home(const dl_level *lv)
{
    dl_state st;
    game_result r;
    game_state *h = game_state_handle(&st);
    driftlings_game.start(h, game_level_const_handle(lv));
    for (int i = 0; i < lv->n_plan; i++) {
        int o = driftlings_game.apply(h, &lv->plan[i]);
        if (driftlings_game.outcomes[o].kind != OUTCOME_APPLIED)
            return false;
    }
    driftlings_game.result(h, &r);
    if (lv->version >= 2)
        return r.extra[DL_X_SAVED] == lv->crowd;
    return r.completed;
}

static void fill_level(dl_level *lv, const design *d, const dl_level_row *row)
{
    build_map(d, &lv->map);
    lv->crowd = row->crowd;
    lv->quota = row->quota;
    lv->interval = row->interval;
    lv->cap = 6 * d->w * d->bands + row->crowd * row->interval + 200;
    memcpy(lv->needs, d->needs, sizeof lv->needs);
    memset(lv->inventory, 0, sizeof lv->inventory);
    lv->inventory[DL_CLIMBER] = d->needs[DL_CLIMBER] * row->crowd; /* stocked per head */
    lv->inventory[DL_FLOATER] = d->needs[DL_FLOATER] * row->crowd;
    lv->inventory[DL_BASHER] = d->needs[DL_BASHER];
    lv->inventory[DL_DIGGER] = d->needs[DL_DIGGER];
    lv->metrics.demands = d->demands;
}

static bool reject(dl_level *lv, int gate)
{
    lv->rejected[gate]++;
    return false;
}

dl_gen_limits dl_default_limits(const dl_level_row *row)
{
    dl_gen_limits lim = { DL_CANDIDATE_CAP, row->bands, row->demands, DL_BACK_LOADED,
                          DL_LIMITS_DEFAULT };
    return lim;
}

/* All gates; fills the plan and metrics on success. */
static bool try_design(dl_level *lv, const design *d, const dl_level_row *row,
                       const dl_gen_limits *lim)
{
    dl_solution s;
    dl_metrics *mt = &lv->metrics;
    fill_level(lv, d, row);
    dl_solve(&lv->map, d->needs, lv->cap, &lim->search, true, &s);
    mt->expansions = s.expansions;
    if (!s.solved || !dl_replay_solution(&lv->map, &s))
        return reject(lv, DL_GATE_UNSOLVABLE);
    mt->alternatives = s.alternatives;
    mt->route_ticks = s.route_ticks;
    mt->first_decision_at = s.n_moves ? (int32_t)(1000LL * s.moves[0].tick / s.route_ticks) : 1000;
    mt->critical = mt->slack = 0;
    for (int k = 0; k < DL_SKILLS; k++) {
        if (d->needs[k] == 0)
            continue;
        int used = 0;
        for (int i = 0; i < s.n_moves; i++)
            used += s.moves[i].skill == k;
        if (used < d->needs[k]) {
            mt->slack++; /* the route already did without one */
            continue;
        }
        int less[DL_SKILLS];
        memcpy(less, d->needs, sizeof less);
        less[k]--;
        dl_solution r;
        dl_solve(&lv->map, less, lv->cap, &lim->search, false, &r);
        if (r.solved || r.capped)
            mt->slack++;
        else
            mt->critical++;
    }
    if (mt->slack > 0)
        return reject(lv, DL_GATE_SLACK); /* padding: not forced */
    unsigned every_band = (1u << lim->shortcut_bands) - 1;
    if ((bands_visited(&lv->map, d, &s) & every_band) != every_band)
        return reject(lv, DL_GATE_SHORTCUT); /* the route skips a band */
    if (s.n_moves * 2 < lim->thin_demands)
        return reject(lv, DL_GATE_THIN);
    if (mt->first_decision_at > lim->back_loaded_at)
        return reject(lv, DL_GATE_BACK_LOADED);
    if (!crowd_plan(lv, &s) || !crowd_gets_home(lv))
        return reject(lv, DL_GATE_CROWD);
    return true;
}

void dl_generate(dl_level *lv, int version, int level_no, uint32_t seed,
                 const dl_gen_limits *limits)
{
    const dl_level_row *row = &dl_level_table[level_no - 1];
    dl_gen_limits lim = limits ? *limits : dl_default_limits(row);
    uint32_t rng = seed;
    design d;
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    lv->seed = seed;
    memset(lv->rejected, 0, sizeof lv->rejected);
    for (int c = 1; c <= lim.candidate_cap; c++) {
        draw_design(&d, row, &rng);
        memset(&lv->metrics, 0, sizeof lv->metrics);
        if (try_design(lv, &d, row, &lim)) {
            lv->metrics.candidates = c;
            return;
        }
    }
    int32_t rejected[DL_GATES];
    memcpy(rejected, lv->rejected, sizeof rejected);
    dl_generate_fallback(lv, version, level_no);
    memcpy(lv->rejected, rejected, sizeof rejected);
    lv->seed = seed;
    lv->metrics.candidates = lim.candidate_cap;
}

bool dl_generate_fallback(dl_level *lv, int version, int level_no)
{
    const dl_level_row *row = &dl_level_table[level_no - 1];
    design d;
    memset(lv, 0, sizeof *lv);
    lv->version = version;
    lv->level_no = level_no;
    fallback_design(&d, row);
    dl_gen_limits lim = dl_default_limits(row);
    bool ok = try_design(lv, &d, row, &lim); /* true for every row: test_driftlings.c */
    lv->metrics.fallback = true;
    return ok;
}
