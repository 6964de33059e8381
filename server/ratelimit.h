/*
 * ratelimit: token buckets per (kind, key), e.g. ("register", ip) or
 * ("scores", player id). A fixed-size table guarded by a mutex; a key whose
 * slot holds another key's bucket takes it over (starting full, and
 * resetting the other key), so memory never grows.
 */
#ifndef REPLAYD_SERVER_RATELIMIT_H
#define REPLAYD_SERVER_RATELIMIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define RATELIMIT_SLOTS 65536

typedef struct rl_bucket {
    uint64_t key_hash;
    int64_t updated_us;
    int64_t tokens_milli; /* thousandths of a request */
} rl_bucket;

typedef struct ratelimit {
    pthread_mutex_t lock;
    rl_bucket *slots;
} ratelimit;

bool ratelimit_init(ratelimit *rl);
void ratelimit_free(ratelimit *rl);

/* Takes one request from the bucket of (kind, key) that refills at
 * per_minute requests a minute up to a burst of per_minute. per_minute 0
 * means unlimited. */
bool ratelimit_allow(ratelimit *rl, const char *kind, const char *key, int per_minute,
                     int64_t now_us);

#endif
