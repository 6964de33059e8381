/* ratelimit: keyed, set-associative token buckets (see the header). */
#include "ratelimit.h"

#include <stdlib.h>
#include <string.h>

#define MINUTE_US 60000000LL

bool ratelimit_init(ratelimit *rl)
{
    if (sodium_init() < 0)
        return false;
    randombytes_buf(rl->key, sizeof rl->key);
    rl->overflows = 0;
    rl->slots = calloc(RATELIMIT_SLOTS, sizeof *rl->slots);
    return rl->slots && pthread_mutex_init(&rl->lock, NULL) == 0;
}

void ratelimit_free(ratelimit *rl)
{
    free(rl->slots);
    rl->slots = NULL;
    sodium_memzero(rl->key, sizeof rl->key);
    pthread_mutex_destroy(&rl->lock);
}

/* The keyed hash of "kind\x1fkey"; never 0, which marks an unused slot. */
static uint64_t key_hash(const ratelimit *rl, const char *kind, const char *key)
{
    unsigned char buf[256], out[crypto_shorthash_BYTES];
    size_t nk = strlen(kind), nv = strlen(key);
    if (nk + 1 + nv > sizeof buf) /* keys are addresses and ids: never this long */
        nv = sizeof buf - 1 - nk;
    memcpy(buf, kind, nk);
    buf[nk] = 0x1f;
    memcpy(buf + nk + 1, key, nv);
    crypto_shorthash(out, buf, nk + 1 + nv, rl->key);
    uint64_t h;
    memcpy(&h, out, sizeof h);
    return h ? h : 1;
}

/* The key's bucket in its set, or a slot it may take (never used, or its
 * bucket refilled to full), or NULL when every slot holds an active key. */
static rl_bucket *bucket_for(ratelimit *rl, uint64_t h, int64_t now_us, bool *fresh)
{
    rl_bucket *set = &rl->slots[(h % (RATELIMIT_SLOTS / RATELIMIT_WAYS)) * RATELIMIT_WAYS];
    rl_bucket *free_slot = NULL;
    for (int i = 0; i < RATELIMIT_WAYS; i++) {
        if (set[i].key_hash == h) {
            *fresh = false;
            return &set[i];
        }
        if (!free_slot && (set[i].key_hash == 0 || now_us >= set[i].full_at_us))
            free_slot = &set[i];
    }
    *fresh = true;
    return free_slot;
}

bool ratelimit_allow(ratelimit *rl, const char *kind, const char *key, int per_minute,
                     int64_t now_us)
{
    if (per_minute <= 0)
        return true;
    uint64_t h = key_hash(rl, kind, key);
    int64_t burst = (int64_t)per_minute * 1000;
    bool ok = false, fresh;
    pthread_mutex_lock(&rl->lock);
    rl_bucket *b = bucket_for(rl, h, now_us, &fresh);
    if (!b) {
        rl->overflows++;
        goto out;
    }
    if (fresh) {
        b->key_hash = h;
        b->updated_us = now_us;
        b->tokens_milli = burst;
    }
    int64_t elapsed = now_us - b->updated_us;
    if (elapsed > 0) {
        if (elapsed > MINUTE_US) /* a minute refills any bucket; keeps the product small */
            elapsed = MINUTE_US;
        /* per_minute requests per 60e6 us, in thousandths. The clock moves on
         * only by the time the whole thousandths took (rounded up), so a key
         * that asks more often than one thousandth accrues keeps its rate. */
        int64_t gained = elapsed * per_minute / 60000;
        b->tokens_milli += gained;
        if (b->tokens_milli >= burst) {
            b->tokens_milli = burst;
            b->updated_us = now_us;
        } else {
            b->updated_us += (gained * 60000 + per_minute - 1) / per_minute;
        }
    }
    ok = b->tokens_milli >= 1000;
    if (ok)
        b->tokens_milli -= 1000;
    /* time to refill what is missing, rounded up */
    b->full_at_us = now_us + ((burst - b->tokens_milli) * 60000 + per_minute - 1) / per_minute;
out:
    pthread_mutex_unlock(&rl->lock);
    return ok;
}

bool ratelimit_peek(ratelimit *rl, const char *kind, const char *key, int per_minute,
                    int64_t now_us)
{
    if (per_minute <= 0)
        return true;
    uint64_t h = key_hash(rl, kind, key);
    int64_t burst = (int64_t)per_minute * 1000;
    pthread_mutex_lock(&rl->lock);
    rl_bucket *set = &rl->slots[(h % (RATELIMIT_SLOTS / RATELIMIT_WAYS)) * RATELIMIT_WAYS];
    int64_t tokens = burst; /* a key with no bucket has all its requests */
    for (int i = 0; i < RATELIMIT_WAYS; i++) {
        if (set[i].key_hash != h)
            continue;
        int64_t elapsed = now_us - set[i].updated_us;
        if (elapsed > MINUTE_US)
            elapsed = MINUTE_US;
        tokens = set[i].tokens_milli + (elapsed > 0 ? elapsed * per_minute / 60000 : 0);
        break;
    }
    pthread_mutex_unlock(&rl->lock);
    return tokens >= 1000;
}
