#include "level_cache.h"

#include <stdlib.h>
#include <string.h>

bool level_cache_init(level_cache *c, size_t slots)
{
    memset(c, 0, sizeof *c);
    c->slots = calloc(slots, sizeof *c->slots);
    c->n = slots;
    return c->slots && pthread_mutex_init(&c->lock, NULL) == 0;
}

void level_cache_free(level_cache *c)
{
    for (size_t i = 0; c->slots && i < c->n; i++)
        free(c->slots[i].level);
    free(c->slots);
    c->slots = NULL;
    pthread_mutex_destroy(&c->lock);
}

static size_t slot_of(const level_cache *c, const game *g, int version, int level_no, uint32_t seed)
{
    uint64_t h = (uint64_t)(uintptr_t)g * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)(uint32_t)version << 40) ^ ((uint64_t)(uint32_t)level_no << 32) ^ seed;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)(h % c->n);
}

static bool slot_holds(const cache_slot *s, const game *g, int version, int level_no, uint32_t seed)
{
    return s->level && s->g == g && s->version == version && s->level_no == level_no && s->seed == seed;
}

/* Puts a generated level (owned, g->level_size bytes) into its slot, and
 * frees what the slot held. */
static void slot_store(level_cache *c, size_t i, const game *g, int version, int level_no,
                       uint32_t seed, game_level *level)
{
    pthread_mutex_lock(&c->lock);
    cache_slot *s = &c->slots[i];
    game_level *old = s->level;
    s->g = g;
    s->version = version;
    s->level_no = level_no;
    s->seed = seed;
    s->level = level;
    pthread_mutex_unlock(&c->lock);
    free(old);
}

gen_status level_cache_get(level_cache *c, const game *g, int version, int level_no,
                           uint32_t seed, game_level *out)
{
    size_t i = slot_of(c, g, version, level_no, seed);
    pthread_mutex_lock(&c->lock);
    if (slot_holds(&c->slots[i], g, version, level_no, seed)) {
        memcpy(out, c->slots[i].level, g->level_size);
        pthread_mutex_unlock(&c->lock);
        atomic_fetch_add(&c->hits, 1);
        return GEN_OK;
    }
    pthread_mutex_unlock(&c->lock);
    atomic_fetch_add(&c->misses, 1);
    /* Generate outside the lock: it may take milliseconds. */
    gen_status st = game_generate(g, out, version, level_no, seed);
    if (st != GEN_OK)
        return st;
    game_level *copy = malloc(g->level_size);
    if (copy) { /* caching is best effort */
        memcpy(copy, out, g->level_size);
        slot_store(c, i, g, version, level_no, seed, copy);
    }
    return GEN_OK;
}

gen_status level_cache_warm(level_cache *c, const game *g, int version, int level_no,
                            uint32_t seed)
{
    size_t i = slot_of(c, g, version, level_no, seed);
    pthread_mutex_lock(&c->lock);
    bool held = slot_holds(&c->slots[i], g, version, level_no, seed);
    pthread_mutex_unlock(&c->lock);
    if (held) {
        atomic_fetch_add(&c->hits, 1);
        return GEN_OK;
    }
    atomic_fetch_add(&c->misses, 1);
    game_level *level = malloc(g->level_size);
    if (!level)
        return GEN_OK; /* caching is best effort: a submission regenerates */
    gen_status st = game_generate(g, level, version, level_no, seed);
    if (st != GEN_OK) {
        free(level);
        return st;
    }
    slot_store(c, i, g, version, level_no, seed, level);
    return GEN_OK;
}
