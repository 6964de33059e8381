/*
 * name_cache: player names for the board entries the store shows, so a
 * board holds no names and a page of 50 entries costs no database reads
 * once its players were seen. A fixed number of slots, each keyed by
 * player id; a newer name evicts whatever held its slot, so memory never
 * grows with the number of players. Thread safe (one mutex).
 *
 * Ownership: the cache owns its slots; names are copied in and out.
 */
#ifndef REPLAYD_SERVER_NAME_CACHE_H
#define REPLAYD_SERVER_NAME_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

typedef struct name_cache name_cache;

name_cache *name_cache_new(size_t slots); /* NULL when out of memory */
void name_cache_free(name_cache *c);

/* Copies the player's name into out; false on a miss. */
bool name_cache_get(name_cache *c, int64_t player_id, char out[STORE_NAME_MAX + 1]);
void name_cache_put(name_cache *c, int64_t player_id, const char *name);
/* Drops a player's entry (after a rename). */
void name_cache_forget(name_cache *c, int64_t player_id);

#endif
