#include "ratelimit.h"

#include <stdlib.h>
#include <string.h>

#include "../core/fnv.h"

bool ratelimit_init(ratelimit *rl)
{
    rl->slots = calloc(RATELIMIT_SLOTS, sizeof *rl->slots);
    return rl->slots && pthread_mutex_init(&rl->lock, NULL) == 0;
}

void ratelimit_free(ratelimit *rl)
{
    free(rl->slots);
    rl->slots = NULL;
    pthread_mutex_destroy(&rl->lock);
}

bool ratelimit_allow(ratelimit *rl, const char *kind, const char *key, int per_minute,
                     int64_t now_us)
{
    if (per_minute <= 0)
        return true;
    uint32_t h1 = fnv1a32_update(fnv1a32_str(kind), "\x1f", 1);
    h1 = fnv1a32_update(h1, key, strlen(key));
    uint64_t h = ((uint64_t)h1 << 32) | fnv1a32_update(0x9e3779b9u, key, strlen(key));
    int64_t burst = (int64_t)per_minute * 1000;
    pthread_mutex_lock(&rl->lock);
    /* Mix both halves: the low half alone ignores the kind. */
    uint64_t mixed = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
    rl_bucket *b = &rl->slots[(mixed >> 32) % RATELIMIT_SLOTS];
    if (b->key_hash != h) {
        b->key_hash = h;
        b->updated_us = now_us;
        b->tokens_milli = burst;
    }
    int64_t elapsed = now_us - b->updated_us;
    if (elapsed > 0) {
        /* per_minute requests per 60e6 us, in thousandths. */
        b->tokens_milli += elapsed * per_minute / 60000;
        if (b->tokens_milli > burst)
            b->tokens_milli = burst;
        b->updated_us = now_us;
    }
    bool ok = b->tokens_milli >= 1000;
    if (ok)
        b->tokens_milli -= 1000;
    pthread_mutex_unlock(&rl->lock);
    return ok;
}
