/*
 * log_fixture: what the score log's unit tests share. The vectors file
 * (tests/unit/data/log-vectors.json, written by tests/unit/log-vectors.mjs
 * from RFC 9162's definitions with node:crypto, never by the C code), hex
 * decoding, and an in-memory store of stored hashes whose reader refuses
 * anything outside the tree size it is set to, so a proof that reads past
 * its tree fails. The store owns its arrays; mem_store_free frees them.
 */
#ifndef REPLAYD_TESTS_LOG_FIXTURE_H
#define REPLAYD_TESTS_LOG_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "../../server/log/merkle.h"

#define LOG_VECTORS "tests/unit/data/log-vectors.json"

static inline json_t *load_log_vectors(void)
{
    json_error_t e;
    json_t *v = json_load_file(LOG_VECTORS, 0, &e);
    if (!v)
        printf("FAIL load: %s: %s (run from the tree's root)\n", LOG_VECTORS, e.text);
    return v;
}

/* Exactly 2 * len hex digits into out. */
static inline bool unhex(const char *s, uint8_t *out, size_t len)
{
    size_t got = 0;
    return s && strlen(s) == 2 * len &&
           sodium_hex2bin(out, len, s, 2 * len, NULL, &got, NULL) == 0 && got == len;
}

static inline bool hash_is(const uint8_t h[MERKLE_HASH_BYTES], const char *hexed)
{
    uint8_t want[MERKLE_HASH_BYTES];
    return unhex(hexed, want, sizeof want) && memcmp(h, want, sizeof want) == 0;
}

/* "replayd leaf <i>", the leaf data of the vectors. */
static inline size_t leaf_data(uint64_t i, char *buf, size_t len)
{
    int n = snprintf(buf, len, "replayd leaf %llu", (unsigned long long)i);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

typedef struct mem_store {
    uint8_t *level[64];
    uint64_t cap[64];
    uint64_t size;  /* leaves appended */
    uint64_t limit; /* the reader's tree size: hashes beyond it are refused */
    int reads;
} mem_store;

static inline bool mem_store_init(mem_store *s, uint64_t leaves)
{
    memset(s, 0, sizeof *s);
    for (int l = 0; l < 64 && (leaves >> l) > 0; l++) {
        s->cap[l] = leaves >> l;
        s->level[l] = calloc(s->cap[l], MERKLE_HASH_BYTES);
        if (!s->level[l])
            return false;
    }
    return true;
}

static inline void mem_store_free(mem_store *s)
{
    for (int l = 0; l < 64; l++)
        free(s->level[l]);
    memset(s, 0, sizeof *s);
}

static inline int mem_read(void *ctx, int level, uint64_t index, uint8_t out[MERKLE_HASH_BYTES])
{
    mem_store *s = ctx;
    s->reads++;
    if (level < 0 || level > 63 || index >= (s->limit >> level) || index >= s->cap[level])
        return 1;
    memcpy(out, s->level[level] + index * MERKLE_HASH_BYTES, MERKLE_HASH_BYTES);
    return 0;
}

/* Appends leaf s->size with merkle_hashes_for_leaf and stores what it says. */
static inline bool mem_append(mem_store *s, const uint8_t *data, size_t len)
{
    uint8_t leaf[MERKLE_HASH_BYTES];
    merkle_stored add[MERKLE_PROOF_MAX];
    int count = 0;
    merkle_reader r = { mem_read, s };
    merkle_leaf_hash(data, len, leaf);
    s->limit = s->size;
    if (merkle_hashes_for_leaf(&r, s->size, leaf, add, &count) != MERKLE_OK)
        return false;
    for (int k = 0; k < count; k++) {
        if (add[k].index >= s->cap[add[k].level])
            return false;
        memcpy(s->level[add[k].level] + add[k].index * MERKLE_HASH_BYTES, add[k].hash,
               MERKLE_HASH_BYTES);
    }
    s->size++;
    s->limit = s->size;
    return true;
}

/* A store of the vectors' leaves 0..n-1. */
static inline bool mem_store_vectors(mem_store *s, uint64_t n)
{
    if (!mem_store_init(s, n))
        return false;
    for (uint64_t i = 0; i < n; i++) {
        char buf[64];
        size_t len = leaf_data(i, buf, sizeof buf);
        if (len == 0 || !mem_append(s, (const uint8_t *)buf, len))
            return false;
    }
    return true;
}

#endif
