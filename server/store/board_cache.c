/*
 * board_cache: lazily loaded, rwlock-protected leaderboards (see the header).
 *
 * Locks: the cache mutex guards the slot table, the LRU list, the byte
 * count and each slot's state and pins; a slot's rwlock guards its
 * rank_board and pending offers. The order is always cache mutex, then
 * slot lock. Whoever uses a slot without the mutex (a reader, an offerer)
 * pins it first under the mutex; eviction frees only ready, unpinned
 * slots, so a pinned slot outlives its use.
 */
#include "board_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 256
#define KEY_MAX 64

/* SLOT_DEAD: a load that failed or found nothing, or a board found out of
 * date after a resync, out of the table but still pinned by an offerer or
 * a reader, whoever unpins it last frees it. */
enum { SLOT_LOADING, SLOT_READY, SLOT_DEAD };

struct board_slot {
    board_slot *next;
    board_slot *lru_prev, *lru_next; /* SLOT_READY: most recently used first */
    board_cache *cache;
    int pins;             /* users outside the mutex */
    size_t bytes;         /* what the cache counts for this slot */
    char key[KEY_MAX];
    int state;
    pthread_rwlock_t lock;
    rank_board *rb;       /* SLOT_READY */
    rank_entry *pending;  /* SLOT_LOADING: offers seen while loading */
    size_t npending, cap;
    bool oom;             /* an offer could not be kept: the load fails */
    bool stale;           /* SLOT_LOADING: a change came in; the load starts again */
    unsigned gen;         /* the cache's generation when its load began */
};

struct board_cache {
    pthread_mutex_t mu;
    pthread_cond_t loaded;
    board_load_fn load;
    void *ctx;
    board_slot *buckets[NBUCKETS];
    board_slot *lru_head, *lru_tail;
    size_t budget, bytes; /* bytes: every ready slot's */
    board_slot empty;     /* what a board with no entries reads as: never in the table */
    unsigned gen;         /* board_cache_resync counts up: older slots reload */
};

board_cache *board_cache_new(board_load_fn load, void *ctx, size_t budget_bytes)
{
    board_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->empty.rb = rank_new();
    if (!c->empty.rb) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->loaded, NULL);
    pthread_rwlock_init(&c->empty.lock, NULL);
    c->empty.cache = c;
    c->empty.state = SLOT_READY;
    c->load = load;
    c->ctx = ctx;
    c->budget = budget_bytes;
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
    pthread_rwlock_destroy(&c->empty.lock);
    rank_free(c->empty.rb);
    pthread_cond_destroy(&c->loaded);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

size_t board_cache_bytes(board_cache *c)
{
    pthread_mutex_lock(&c->mu);
    size_t n = c->bytes;
    pthread_mutex_unlock(&c->mu);
    return n;
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

static void lru_remove(board_cache *c, board_slot *s)
{
    if (s->lru_prev)
        s->lru_prev->lru_next = s->lru_next;
    else
        c->lru_head = s->lru_next;
    if (s->lru_next)
        s->lru_next->lru_prev = s->lru_prev;
    else
        c->lru_tail = s->lru_prev;
    s->lru_prev = s->lru_next = NULL;
}

static void lru_push_front(board_cache *c, board_slot *s)
{
    s->lru_prev = NULL;
    s->lru_next = c->lru_head;
    if (c->lru_head)
        c->lru_head->lru_prev = s;
    c->lru_head = s;
    if (!c->lru_tail)
        c->lru_tail = s;
}

static size_t slot_bytes(const board_slot *s)
{
    return sizeof *s + rank_bytes(s->rb);
}

/* With the mutex held: frees least recently used, unpinned boards until
 * the cache is within its budget (pinned ones stay: they are in use). An
 * evicted board reloads from the backend on its next read. */
static void evict(board_cache *c)
{
    board_slot *s = c->lru_tail;
    while (c->bytes > c->budget && s) {
        board_slot *prev = s->lru_prev;
        if (s->pins == 0) {
            lru_remove(c, s);
            unlink_slot(c, s);
            c->bytes -= s->bytes;
            slot_free(s);
        }
        s = prev;
    }
}

/* With the mutex held: a slot's board changed size. */
static void recount(board_cache *c, board_slot *s)
{
    size_t now = slot_bytes(s);
    c->bytes = c->bytes - s->bytes + now;
    s->bytes = now;
}

#define LOAD_ATTEMPTS 8

/* Called with the cache mutex held and s in the table as SLOT_LOADING;
 * returns with the mutex held and s either ready or gone (and freed):
 * *empty tells a load that found no entries from a failure. */
static store_status load_slot(board_cache *c, board_slot *s, const store_board *b, bool *empty)
{
    rank_board *fresh = NULL;
    store_status st = STORE_ERROR;
    /* a change (board_cache_set) during the load marks it stale: the rows
     * it read may predate the change, so it reads them again; the offers
     * it kept so far committed before the new read and are in it */
    for (int attempt = 0;; attempt++) {
        pthread_mutex_unlock(&c->mu);
        fresh = rank_new();
        st = fresh ? c->load(c->ctx, b, fresh) : STORE_ERROR;
        pthread_mutex_lock(&c->mu);
        pthread_rwlock_wrlock(&s->lock);
        if (!s->stale || st != STORE_OK)
            break;
        s->stale = false;
        s->npending = 0;
        s->oom = false;
        pthread_rwlock_unlock(&s->lock);
        rank_free(fresh);
        fresh = NULL;
        if (attempt + 1 == LOAD_ATTEMPTS) {
            pthread_rwlock_wrlock(&s->lock);
            st = STORE_BUSY;
            break;
        }
    }
    if (st == STORE_OK && s->oom)
        st = STORE_ERROR;
    for (size_t i = 0; st == STORE_OK && i < s->npending; i++)
        if (rank_offer(fresh, &s->pending[i]) < 0)
            st = STORE_ERROR;
    free(s->pending);
    s->pending = NULL;
    s->npending = s->cap = 0;
    *empty = st == STORE_OK && rank_size(fresh) == 0;
    if (st == STORE_OK && rank_size(fresh) > 0) {
        s->rb = fresh;
        s->state = SLOT_READY;
        s->bytes = slot_bytes(s);
        c->bytes += s->bytes;
        lru_push_front(c, s);
        pthread_rwlock_unlock(&s->lock);
    } else {
        /* failed, or a board with no entries: nothing stays in memory (an
         * empty board reads as c->empty until a load finds an entry) */
        /* offerers find slots under the mutex and lock them before letting
         * go of it, so nobody else can be inside s once we hold both; one
         * that still has it pinned frees it (SLOT_DEAD) */
        unlink_slot(c, s);
        pthread_rwlock_unlock(&s->lock);
        if (s->pins > 0)
            s->state = SLOT_DEAD;
        else
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
        if (s && s->state == SLOT_READY && s->gen != c->gen) {
            /* out of date: out of the table (freed by its last user) and
             * loaded afresh below */
            lru_remove(c, s);
            unlink_slot(c, s);
            c->bytes -= s->bytes;
            if (s->pins > 0)
                s->state = SLOT_DEAD;
            else
                slot_free(s);
            s = NULL;
        }
        if (s && s->state == SLOT_READY) {
            s->pins++;
            lru_remove(c, s);
            lru_push_front(c, s);
            evict(c);
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
        s->cache = c;
        s->state = SLOT_LOADING;
        s->gen = c->gen;
        pthread_rwlock_init(&s->lock, NULL);
        size_t h = bucket_of(key);
        s->next = c->buckets[h];
        c->buckets[h] = s;
        bool empty = false;
        store_status st = load_slot(c, s, b, &empty);
        if (empty) {
            pthread_mutex_unlock(&c->mu);
            pthread_rwlock_rdlock(&c->empty.lock);
            *slot = &c->empty;
            *rb = c->empty.rb;
            return STORE_OK;
        }
        if (st != STORE_OK) {
            pthread_mutex_unlock(&c->mu);
            return st;
        }
    }
}

void board_cache_release(board_slot *slot)
{
    board_cache *c = slot->cache;
    pthread_rwlock_unlock(&slot->lock);
    if (slot == &c->empty)
        return;
    pthread_mutex_lock(&c->mu);
    slot->pins--;
    if (slot->state == SLOT_DEAD && slot->pins == 0)
        slot_free(slot);
    pthread_mutex_unlock(&c->mu);
}

void board_cache_resync(board_cache *c)
{
    pthread_mutex_lock(&c->mu);
    c->gen++;
    pthread_mutex_unlock(&c->mu);
}

/* The slot of board b, pinned and write-locked; NULL when the board is not
 * in memory (its load, when one comes, reads the change from the backend). */
static board_slot *lock_for_change(board_cache *c, const store_board *b)
{
    char key[KEY_MAX];
    board_key(b, key);
    pthread_mutex_lock(&c->mu);
    board_slot *s = find(c, key);
    if (s) {
        s->pins++;
        pthread_rwlock_wrlock(&s->lock);
    }
    pthread_mutex_unlock(&c->mu);
    return s;
}

/* Undoes lock_for_change: the board's new size counts against the budget,
 * and a slot dropped meanwhile is freed by its last user. */
static void unlock_after_change(board_cache *c, board_slot *s)
{
    pthread_rwlock_unlock(&s->lock);
    pthread_mutex_lock(&c->mu);
    s->pins--;
    if (s->state == SLOT_READY) {
        recount(c, s);
        evict(c);
    } else if (s->state == SLOT_DEAD && s->pins == 0) {
        slot_free(s);
    }
    pthread_mutex_unlock(&c->mu);
}

store_status board_cache_offer(board_cache *c, const store_board *b, const rank_entry *e)
{
    board_slot *s = lock_for_change(c, b);
    if (!s)
        return STORE_OK;
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
    unlock_after_change(c, s);
    return st;
}

store_status board_cache_set(board_cache *c, const store_board *b, int64_t player_id,
                             const rank_entry *e)
{
    board_slot *s = lock_for_change(c, b);
    if (!s)
        return STORE_OK;
    store_status st = STORE_OK;
    if (s->state == SLOT_READY) {
        rank_remove(s->rb, player_id);
        if (e && rank_offer(s->rb, e) < 0)
            st = STORE_ERROR;
    } else {
        s->stale = true;
    }
    unlock_after_change(c, s);
    return st;
}
