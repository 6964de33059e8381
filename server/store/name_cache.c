#include "name_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct name_slot {
    int64_t player_id; /* 0: empty (player ids start at 1) */
    char name[STORE_NAME_MAX + 1];
} name_slot;

struct name_cache {
    pthread_mutex_t mu;
    size_t n;
    name_slot slots[];
};

name_cache *name_cache_new(size_t slots)
{
    if (slots == 0)
        slots = 1;
    name_cache *c = calloc(1, sizeof *c + slots * sizeof c->slots[0]);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    c->n = slots;
    return c;
}

void name_cache_free(name_cache *c)
{
    if (!c)
        return;
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static name_slot *slot_for(name_cache *c, int64_t player_id)
{
    uint64_t h = (uint64_t)player_id * 0x9e3779b97f4a7c15u;
    return &c->slots[(h >> 32) % c->n];
}

bool name_cache_get(name_cache *c, int64_t player_id, char out[STORE_NAME_MAX + 1])
{
    pthread_mutex_lock(&c->mu);
    const name_slot *s = slot_for(c, player_id);
    bool hit = player_id != 0 && s->player_id == player_id;
    if (hit)
        memcpy(out, s->name, sizeof s->name);
    pthread_mutex_unlock(&c->mu);
    return hit;
}

void name_cache_put(name_cache *c, int64_t player_id, const char *name)
{
    pthread_mutex_lock(&c->mu);
    name_slot *s = slot_for(c, player_id);
    s->player_id = player_id;
    snprintf(s->name, sizeof s->name, "%s", name);
    pthread_mutex_unlock(&c->mu);
}

void name_cache_forget(name_cache *c, int64_t player_id)
{
    pthread_mutex_lock(&c->mu);
    name_slot *s = slot_for(c, player_id);
    if (s->player_id == player_id)
        s->player_id = 0;
    pthread_mutex_unlock(&c->mu);
}
