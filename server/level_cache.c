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

gen_status level_cache_get(level_cache *c, const game *g, int version, int level_no,
                           uint32_t seed, game_level *out)
{
    size_t i = slot_of(c, g, version, level_no, seed);
    pthread_mutex_lock(&c->lock);
    cache_slot *s = &c->slots[i];
    if (s->level && s->g == g && s->version == version && s->level_no == level_no && s->seed == seed) {
        memcpy(out, s->level, g->level_size);
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
    if (!copy)
        return GEN_OK; /* caching is best effort */
    memcpy(copy, out, g->level_size);
    pthread_mutex_lock(&c->lock);
    s = &c->slots[i];
    game_level *old = s->level;
    s->g = g;
    s->version = version;
    s->level_no = level_no;
    s->seed = seed;
    s->level = copy;
    pthread_mutex_unlock(&c->lock);
    free(old);
    return GEN_OK;
}
