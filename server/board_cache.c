/*
 * board_cache: lazily loaded, rwlock-protected leaderboards (see the header).
 *
 * Locks: the cache mutex guards the slot table and each slot's state; a
 * slot's rwlock guards its rank_board and pending offers. The order is
 * always cache mutex, then slot lock. A slot that loaded is never freed
 * before board_cache_free, so a reader may drop the mutex and keep the slot.
 */
#include "board_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 256
#define KEY_MAX 64

enum { SLOT_LOADING, SLOT_READY };

struct board_slot {
    board_slot *next;
    char key[KEY_MAX];
    int state;
    pthread_rwlock_t lock;
    rank_board *rb;       /* SLOT_READY */
    rank_entry *pending;  /* SLOT_LOADING: offers seen while loading */
    size_t npending, cap;
    bool oom;             /* an offer could not be kept: the load fails */
};

struct board_cache {
    pthread_mutex_t mu;
    pthread_cond_t loaded;
    board_load_fn load;
    void *ctx;
    board_slot *buckets[NBUCKETS];
};

board_cache *board_cache_new(board_load_fn load, void *ctx)
{
    board_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->loaded, NULL);
    c->load = load;
    c->ctx = ctx;
    return c;
}

static void slot_free(board_slot *s)
{
    pthread_rwlock_destroy(&s->lock);
    rank_free(s->rb);
    free(s->pending);
    free(s);
}

void board_cache_free(board_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < NBUCKETS; i++) {
        board_slot *s = c->buckets[i];
        while (s) {
            board_slot *next = s->next;
            slot_free(s);
            s = next;
        }
    }
    pthread_cond_destroy(&c->loaded);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static void board_key(const store_board *b, char *key)
{
    if (b->day >= 0)
        snprintf(key, KEY_MAX, "d:%ld", (long)b->day);
    else
        snprintf(key, KEY_MAX, "l:%.31s:%d", b->g ? b->g->name : "", b->level);
}

static size_t bucket_of(const char *key)
{
    uint32_t h = 2166136261u;
    for (const char *p = key; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    return h % NBUCKETS;
}

static board_slot *find(board_cache *c, const char *key)
{
    for (board_slot *s = c->buckets[bucket_of(key)]; s; s = s->next)
        if (strcmp(s->key, key) == 0)
            return s;
    return NULL;
}

static void unlink_slot(board_cache *c, board_slot *s)
{
    board_slot **p = &c->buckets[bucket_of(s->key)];
    while (*p != s)
        p = &(*p)->next;
    *p = s->next;
}

/* Called with the cache mutex held and s in the table as SLOT_LOADING;
 * returns with the mutex held and s either ready or gone (and freed). */
static store_status load_slot(board_cache *c, board_slot *s, const store_board *b)
{
    pthread_mutex_unlock(&c->mu);
    rank_board *fresh = rank_new();
    store_status st = fresh ? c->load(c->ctx, b, fresh) : STORE_ERROR;
    pthread_mutex_lock(&c->mu);
    pthread_rwlock_wrlock(&s->lock);
    if (st == STORE_OK && s->oom)
        st = STORE_ERROR;
    for (size_t i = 0; st == STORE_OK && i < s->npending; i++)
        if (rank_offer(fresh, &s->pending[i]) < 0)
            st = STORE_ERROR;
    free(s->pending);
    s->pending = NULL;
    s->npending = s->cap = 0;
    if (st == STORE_OK) {
        s->rb = fresh;
        s->state = SLOT_READY;
        pthread_rwlock_unlock(&s->lock);
    } else {
        /* offerers find slots under the mutex and lock them before letting
         * go of it, so nobody else can be inside s once we hold both */
        unlink_slot(c, s);
        pthread_rwlock_unlock(&s->lock);
        slot_free(s);
        rank_free(fresh);
    }
    pthread_cond_broadcast(&c->loaded);
    return st;
}

store_status board_cache_acquire(board_cache *c, const store_board *b, board_slot **slot,
                                 const rank_board **rb)
{
    char key[KEY_MAX];
    board_key(b, key);
    pthread_mutex_lock(&c->mu);
    for (;;) {
        board_slot *s = find(c, key);
        if (s && s->state == SLOT_READY) {
            pthread_mutex_unlock(&c->mu);
            pthread_rwlock_rdlock(&s->lock);
            *slot = s;
            *rb = s->rb;
            return STORE_OK;
        }
        if (s) { /* someone else is loading it */
            pthread_cond_wait(&c->loaded, &c->mu);
            continue;
        }
        s = calloc(1, sizeof *s);
        if (!s) {
            pthread_mutex_unlock(&c->mu);
            return STORE_ERROR;
        }
        memcpy(s->key, key, sizeof key);
        s->state = SLOT_LOADING;
        pthread_rwlock_init(&s->lock, NULL);
        size_t h = bucket_of(key);
        s->next = c->buckets[h];
        c->buckets[h] = s;
        store_status st = load_slot(c, s, b);
        if (st != STORE_OK) {
            pthread_mutex_unlock(&c->mu);
            return st;
        }
    }
}

void board_cache_release(board_slot *slot)
{
    pthread_rwlock_unlock(&slot->lock);
}

store_status board_cache_offer(board_cache *c, const store_board *b, const rank_entry *e)
{
    char key[KEY_MAX];
    board_key(b, key);
    pthread_mutex_lock(&c->mu);
    board_slot *s = find(c, key);
    if (!s) {
        pthread_mutex_unlock(&c->mu);
        return STORE_OK;
    }
    pthread_rwlock_wrlock(&s->lock);
    pthread_mutex_unlock(&c->mu);
    store_status st = STORE_OK;
    if (s->state == SLOT_READY) {
        if (rank_offer(s->rb, e) < 0)
            st = STORE_ERROR;
    } else {
        if (s->npending == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 16;
            rank_entry *p = realloc(s->pending, cap * sizeof *p);
            if (p) {
                s->pending = p;
                s->cap = cap;
            }
        }
        if (s->npending < s->cap)
            s->pending[s->npending++] = *e;
        else
            s->oom = true, st = STORE_ERROR;
    }
    pthread_rwlock_unlock(&s->lock);
    return st;
}
