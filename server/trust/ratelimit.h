/*
 * ratelimit: token buckets per (kind, key), e.g. ("register", ip) or
 * ("scores", player id), in a fixed table: memory is RATELIMIT_SLOTS
 * buckets (2 MiB) whatever the traffic.
 *
 * A key's bucket is chosen by SipHash (libsodium's crypto_shorthash) of
 * (kind, key) under a random per-process key, so nobody outside can compute
 * which keys share a set of slots. The table is set-associative: a key
 * lives in one of RATELIMIT_WAYS slots of its set, identified by its full
 * 64-bit keyed hash. A slot is given to another key only once its bucket
 * has refilled to full (it then holds nothing a fresh bucket would not),
 * so an active key's bucket is never handed to, or reset by, another key.
 * When every slot of a set holds an active bucket the request is refused
 * (fail closed) and counted in `overflows`: reaching that needs
 * RATELIMIT_WAYS keys, each active within its last refill time, that an
 * attacker cannot aim at one set.
 */
#ifndef REPLAYD_SERVER_RATELIMIT_H
#define REPLAYD_SERVER_RATELIMIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <sodium.h>

#define RATELIMIT_SLOTS 65536
#define RATELIMIT_WAYS 8

typedef struct rl_bucket {
    uint64_t key_hash;    /* 0: never used */
    int64_t updated_us;
    int64_t full_at_us;   /* when the bucket will have refilled to its burst */
    int64_t tokens_milli; /* thousandths of a request */
} rl_bucket;

typedef struct ratelimit {
    pthread_mutex_t lock;
    rl_bucket *slots;
    unsigned char key[crypto_shorthash_KEYBYTES];
    uint64_t overflows; /* requests refused because their set was full */
} ratelimit;

bool ratelimit_init(ratelimit *rl);
void ratelimit_free(ratelimit *rl);

/* Takes one request from the bucket of (kind, key) that refills at
 * per_minute requests a minute up to a burst of per_minute. per_minute 0
 * means unlimited. */
bool ratelimit_allow(ratelimit *rl, const char *kind, const char *key, int per_minute,
                     int64_t now_us);

/* Whether (kind, key) has a request left, without taking it; with
 * ratelimit_allow taking one per failure this bounds failed attempts. */
bool ratelimit_peek(ratelimit *rl, const char *kind, const char *key, int per_minute,
                    int64_t now_us);

#endif
