/*
 * level_cache: generated levels kept between seed issuance and submission,
 * because some games (Driftlings, Contraption) are expensive to generate.
 * Bounded: a fixed number of slots, each keyed by (game, version, level,
 * seed); a newer level evicts whatever held its slot. A miss regenerates,
 * so the cache can never make a submission fail. Thread-safe.
 */
#ifndef REPLAYD_SERVER_LEVEL_CACHE_H
#define REPLAYD_SERVER_LEVEL_CACHE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/game.h"

typedef struct cache_slot {
    const game *g;
    int version, level_no;
    uint32_t seed;
    void *level; /* owned, g->level_size bytes */
} cache_slot;

typedef struct level_cache {
    pthread_mutex_t lock;
    cache_slot *slots;
    size_t n;
    atomic_uint_fast64_t hits, misses;
} level_cache;

bool level_cache_init(level_cache *c, size_t slots);
void level_cache_free(level_cache *c);

/* Fills `out` (g->level_size bytes, caller-owned) with the level, from the
 * cache or freshly generated. Returns the generator's status. */
gen_status level_cache_get(level_cache *c, const game *g, int version, int level_no,
                           uint32_t seed, void *out);

/* Makes sure the level is cached, generating it into its slot when it is
 * not (no copy out). Returns the generator's status. */
gen_status level_cache_warm(level_cache *c, const game *g, int version, int level_no,
                            uint32_t seed);

#endif
